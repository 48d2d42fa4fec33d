/**
 * What a scenario's checks need captured at rep time, with the rep's facts in
 * place: the files whose text they read, and the commands they need run.
 * The runner captures exactly these (plus every file the session added or
 * modified), so a rescore from disk has what the checks read.
 */
import { type CheckNode, leavesOf } from './check-schema.js';
import type { CompiledScenario } from './load-scenario.js';
import { type Facts, substitute } from './placeholders.js';
import type { AnyVerb, NeededCommand } from './verb.js';
import { verbOf } from './verb-table.js';

/** The verb params of every leaf, with facts substituted and defaults filled in (unparsable ones skipped). */
function leafParams(
  nodes: readonly CheckNode[],
  facts: Facts,
): { verb: AnyVerb; params: unknown }[] {
  return nodes.flatMap(leavesOf).flatMap((leaf) => {
    const substituted = substitute(leaf.params, facts);
    if (!substituted.ok) return [];
    const verb = verbOf(leaf.verb)?.entry;
    const parsed = verb?.params.safeParse(substituted.value.value);
    return verb !== undefined && parsed?.success === true ? [{ verb, params: parsed.data }] : [];
  });
}

function observedNodes(scenario: CompiledScenario): CheckNode[] {
  return scenario.observe.flatMap((observation) =>
    observation.kind === 'check' ? [observation.node] : observation.labels.map(({ node }) => node),
  );
}

function nodesOf(scenario: CompiledScenario, phase: 'pre' | 'post'): readonly CheckNode[] {
  return phase === 'pre' ? scenario.pre : [...scenario.post, ...observedNodes(scenario)];
}

/** Repository paths whose text a phase's checks read. */
export function filesNeeded(
  scenario: CompiledScenario,
  phase: 'pre' | 'post',
  facts: Facts,
  /** The checkout the session starts in (a snapshot's `start`): where a path without a checkout is read. */
  start?: string | undefined,
): string[] {
  const files = leafParams(nodesOf(scenario, phase), facts).flatMap(({ verb, params }) => {
    return verb.files?.(params, { start }) ?? [];
  });
  return [...new Set(files)].sort();
}

/** Commands a phase's checks need run, each once. */
export function commandsNeeded(
  scenario: CompiledScenario,
  phase: 'pre' | 'post',
  facts: Facts,
): NeededCommand[] {
  const seen = new Map<string, NeededCommand>();
  for (const { verb, params } of leafParams(nodesOf(scenario, phase), facts)) {
    for (const command of (verb.commands?.(params) ?? []) as readonly NeededCommand[]) {
      const known = seen.get(command.command);
      if (known === undefined || known.timeoutSeconds < command.timeoutSeconds)
        seen.set(command.command, command);
    }
  }
  return [...seen.values()];
}
