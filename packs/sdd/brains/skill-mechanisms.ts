/**
 * What a skill text says about the two mechanisms of the fix-loop chain, read
 * with the literal phrases recorded as data in `skills-under-test/markers.json`
 * (`mechanisms`): the fix loop (`unbounded`: fix and review again until
 * approved; `breaker`: five fix rounds, then the controller settles what is
 * open) and plan conflicts (`ask` the user which governs; `rule` on it and
 * ledger the ruling). A value holds when the text has every one of its
 * `present` phrases and none of its `absent` ones; a text for which no value,
 * or both, hold says nothing usable about that mechanism (`unknown`: the
 * plan-scoped and released texts, which predate both). The real superpowers
 * texts classify as their reference counterparts do
 * (tests/model-server/skill-reader-chain.test.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Zod from 'zod';
import { packageRoot } from '../../../harness/lib/package-root.js';

/**
 * The schema of markers.json. zod is loaded when a policy first reads the
 * markers, not when the pack is installed: every command installs the packs,
 * and one that fails on its arguments must not pay for zod.
 */
function markersSchema() {
  const { z } = createRequire(import.meta.url)('zod') as typeof Zod;
  const phrasesSchema = z
    .object({ present: z.array(z.string().min(1)).min(1), absent: z.array(z.string()) })
    .strict();
  return z.looseObject({
    mechanisms: z.looseObject({
      fixLoop: z.looseObject({
        values: z.object({ unbounded: phrasesSchema, breaker: phrasesSchema }).strict(),
      }),
      planConflicts: z.looseObject({
        values: z.object({ ask: phrasesSchema, rule: phrasesSchema }).strict(),
      }),
    }),
  });
}

export type MechanismMarkers = Zod.infer<ReturnType<typeof markersSchema>>['mechanisms'];
type Phrases = MechanismMarkers['fixLoop']['values']['unbounded'];

export type FixLoop = 'unbounded' | 'breaker' | 'unknown';
export type PlanConflicts = 'ask' | 'rule' | 'unknown';

export interface SkillMechanisms {
  readonly fixLoop: FixLoop;
  readonly planConflicts: PlanConflicts;
}

let cached: MechanismMarkers | undefined;

/** The mechanism markers of skills-under-test/markers.json (read once; a bad file is a bug). */
export function mechanismMarkers(): MechanismMarkers {
  cached ??= markersSchema().parse(
    JSON.parse(
      readFileSync(path.join(packageRoot(), 'skills-under-test', 'markers.json'), 'utf8'),
    ) as unknown,
  ).mechanisms;
  return cached;
}

function holds(text: string, phrases: Phrases): boolean {
  return (
    phrases.present.every((phrase) => text.includes(phrase)) &&
    !phrases.absent.some((phrase) => text.includes(phrase))
  );
}

/** The one value whose markers hold, or `unknown`. */
function single<V extends string>(
  text: string,
  values: Readonly<Record<V, Phrases>>,
): V | 'unknown' {
  const holding = (Object.keys(values) as V[]).filter((value) => holds(text, values[value]));
  return holding.length === 1 ? (holding[0] ?? 'unknown') : 'unknown';
}

export function classifyMechanisms(
  text: string,
  markers: MechanismMarkers = mechanismMarkers(),
): SkillMechanisms {
  return {
    fixLoop: single(text, markers.fixLoop.values),
    planConflicts: single(text, markers.planConflicts.values),
  };
}
