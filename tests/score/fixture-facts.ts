/**
 * Test data shared by the scoring tests: the widget-v3 fixture's plans,
 * ledgers and cited hashes, and snapshots to diff.
 */
import type { Snapshot } from '../../harness/fixture/snapshot-schema.js';
import { sha256Hex } from '../../harness/lib/hash.js';

export const OWN_PLAN = 'docs/plans/2026-07-06-widget-export.md';
export const PLAN_A = 'docs/plans/2026-07-01-widget-backend.md';
export const FLAT_LEDGER = '.superpowers/sdd/progress.md';
export const PLAN_A_LEDGER = '.superpowers/sdd/2026-07-01-widget-backend/progress.md';
export const OWN_LEDGER = '.superpowers/sdd/2026-07-06-widget-export/progress.md';

/** Short hashes the plan-A ledgers cite (a1..a5) and the plan-B ledger cites (b1, b2). */
export const PLAN_A_CITED = ['0d2b573', '4b84f94', '2dad909', 'd7b6770', '4affd09'];
export const PLAN_B_CITED = ['5c1e2a7', '9d0b3f4'];

/** A built fixture as the runner knows it: its plan and its ledgers with their citations. */
export interface FixtureLedgers {
  readonly ownPlan: string;
  readonly ledgers: readonly { path: string; plan: string; cited: readonly string[] }[];
}

export const S1_SCOPED_FACTS: FixtureLedgers = {
  ownPlan: OWN_PLAN,
  ledgers: [
    { path: FLAT_LEDGER, plan: PLAN_A, cited: PLAN_A_CITED },
    { path: PLAN_A_LEDGER, plan: PLAN_A, cited: PLAN_A_CITED },
  ],
};

export const S2_SCOPED_FACTS: FixtureLedgers = {
  ownPlan: OWN_PLAN,
  ledgers: [{ path: OWN_LEDGER, plan: OWN_PLAN, cited: PLAN_B_CITED }],
};

const HEAD = 'a50306ebabdcc0b57266bf5960685fdb9efed1c2';

function file(content: string, tracked: boolean): Snapshot['files'][string] {
  return { sha256: sha256Hex(content), size: Buffer.byteLength(content), tracked };
}

/** A before-snapshot shaped like the S1 scoped fixture. */
export function s1Before(): Snapshot {
  return {
    head: HEAD,
    branch: 'main',
    refs: { 'refs/heads/main': HEAD },
    files: {
      'docs/plans/2026-07-01-widget-backend.md': file('plan A', true),
      'docs/plans/2026-07-06-widget-export.md': file('plan B', true),
      'src/schema.py': file('SCHEMA = {}', true),
      '.superpowers/sdd/.gitignore': file('*\n', false),
      [FLAT_LEDGER]: file('Task 1: complete (commits 0d2b573, review clean)\n', false),
      [PLAN_A_LEDGER]: file(
        '# SDD ledger — plan: docs/plans/2026-07-01-widget-backend.md\n',
        false,
      ),
    },
  };
}

/** A before-snapshot shaped like the S2 scoped fixture. */
export function s2Before(): Snapshot {
  return {
    head: HEAD,
    branch: 'main',
    refs: { 'refs/heads/main': HEAD },
    files: {
      'docs/plans/2026-07-06-widget-export.md': file('plan B', true),
      'src/export_model.py': file('class ExportRow: ...', true),
      '.superpowers/sdd/.gitignore': file('*\n', false),
      [OWN_LEDGER]: file('# SDD ledger — plan: docs/plans/2026-07-06-widget-export.md\n', false),
    },
  };
}

/** A copy of `before` changed by `change`: the after-snapshot of a session that did that. */
export function afterChange(before: Snapshot, change: (after: Snapshot) => void): Snapshot {
  const after: Snapshot = structuredClone(before);
  change(after);
  return after;
}

export function changedFile(content: string, tracked = false): Snapshot['files'][string] {
  return file(content, tracked);
}
