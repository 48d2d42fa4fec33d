/**
 * The scripted judges' names and what each does: what a scenario's `judge`
 * field may name offline. The brains themselves are the model server's
 * (model-server/judge-policies.ts); the names sit here, below it, so the
 * scenario schema can check them.
 */

export const judgePolicyNames = [
  'judge-agree',
  'judge-contrarian',
  'judge-unsure',
  'judge-misquote',
  'judge-malformed',
  'judge-flaky',
  'judge-keywords',
] as const;
export type JudgePolicyName = (typeof judgePolicyNames)[number];

/** One line per scripted judge, for `--help` and the README. */
export const judgePolicySummaries: Readonly<Record<JudgePolicyName, string>> = {
  'judge-agree':
    'mirrors the checks: pass for a passing check, fail for a failing one, unsure for an undecided one',
  'judge-contrarian': `mirrors the checks, but on a seeded ${Math.round(100 * 0.3)}% of reps contradicts them (a passing rep judged fail, a failing rep judged pass)`,
  'judge-unsure': 'answers unsure on every item',
  'judge-misquote':
    'mirrors the checks but quotes words the material does not hold (every decided item becomes unsure)',
  'judge-malformed':
    'answers outside the schema, then again without a tool call (recorded as unsure, raw text kept)',
  'judge-flaky': 'answers outside the schema once, then as judge-agree when asked again',
  'judge-keywords':
    'mirrors the checks; an item no check decides passes when one line of the evidence holds at least half of its content words (quoting it), fails when none holds a quarter, unsure otherwise and for items that state an absence',
};

/** The share of reps judge-contrarian contradicts (each rep decided by a seeded draw). */
export const CONTRARIAN_SHARE = 0.3;

export function isJudgePolicyName(name: string): name is JudgePolicyName {
  return (judgePolicyNames as readonly string[]).includes(name);
}
