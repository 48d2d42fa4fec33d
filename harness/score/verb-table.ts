/** Every check verb: the core's, then each installed pack's. */
import { derived, type Registered, table } from './score-registry.js';
import type { AnyVerb } from './verb.js';
import { CORE_VERBS } from './verbs/index.js';

/** Every verb, the core's first. */
export const registeredVerbs = derived(() =>
  table('verb', CORE_VERBS, (contribution) => contribution.verbs),
);

const byName = derived(() => new Map(registeredVerbs().map((one) => [one.name, one])));

/** The verb of that name, with who brought it, if any. */
export function verbOf(name: string): Registered<AnyVerb> | undefined {
  return byName().get(name);
}
