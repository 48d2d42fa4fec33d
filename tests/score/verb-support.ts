/**
 * Running single checks in the verb tests: compile a check as a scenario
 * file would hold it (so a malformed one fails like it would at load), then
 * evaluate it against hand-built evidence.
 */
import { fixtureFactShapes } from '../../harness/fixture/fixture-facts.js';
import type { Snapshot } from '../../harness/fixture/snapshot-schema.js';
import { sha256Hex } from '../../harness/lib/hash.js';
import { compileCheck } from '../../harness/score/check-schema.js';
import { type CheckResult, evaluateCheck } from '../../harness/score/evaluate.js';
import type { Evidence, ExtractedValue, Reading } from '../../harness/score/evidence.js';
import type { Facts } from '../../harness/score/placeholders.js';

export const FACTS: Facts = {
  ownPlan: 'docs/plans/p.md',
  ownPlanSlug: 'p',
  branch: 'main',
  foreignPlans: ['docs/plans/q.md'],
  foreignPlanSlugs: ['q'],
  ledgers: ['.work/p/log.md', '.work/q/log.md'],
  ownLedgers: ['.work/p/log.md'],
  foreignLedgers: ['.work/q/log.md'],
  citedHashes: ['1234abc'],
};

/** Compile `raw` (with an id) and evaluate it. Throws when the check would be refused at load. */
export function check(
  raw: Record<string, unknown>,
  evidence: Evidence,
  sections: Record<string, string> = {},
  facts: Facts = FACTS,
): CheckResult {
  const compiled = compileCheck(
    { id: 'c', ...raw },
    'check',
    {
      sections,
      facts: fixtureFactShapes({
        packs: ['sdd'],
        variables: [],
        scenario: { plan: FACTS.ownPlan },
      }),
    },
    undefined,
  );
  if (!compiled.ok) throw new Error(`${compiled.problem.field}: ${compiled.problem.problem}`);
  return evaluateCheck(compiled.node, evidence, facts);
}

/** The load-time problem with a check, or undefined when it compiles. */
export function refusal(
  raw: Record<string, unknown>,
  sections: Record<string, string> = {},
): string | undefined {
  const compiled = compileCheck(
    { id: 'c', ...raw },
    'check',
    {
      sections,
      facts: fixtureFactShapes({
        packs: ['sdd'],
        variables: [],
        scenario: { plan: FACTS.ownPlan },
      }),
    },
    undefined,
  );
  return compiled.ok ? undefined : `${compiled.problem.field}: ${compiled.problem.problem}`;
}

export function file(content: string, tracked = false): Snapshot['files'][string] {
  return { sha256: sha256Hex(content), size: Buffer.byteLength(content), tracked };
}

/** A snapshot with these files (text by path), HEAD `a…a` on main. */
export function snapshot(
  files: Record<string, string>,
  changes: Partial<Pick<Snapshot, 'head' | 'refs' | 'branch'>> = {},
): Snapshot {
  const head = 'a'.repeat(40);
  return {
    head,
    branch: 'main',
    refs: { 'refs/heads/main': head },
    files: Object.fromEntries(Object.entries(files).map(([path, text]) => [path, file(text)])),
    ...changes,
  };
}

export function reading(
  value: ExtractedValue & Record<string, unknown>,
  quote = '',
): Reading<ExtractedValue> {
  return { ok: true, value, quote };
}
