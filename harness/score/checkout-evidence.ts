/**
 * The snapshots a check reads, narrowed to the checkout it names (its
 * `checkout` parameter; default: the one the session started in). A
 * checkout the snapshot does not hold fails the check, saying so: a session
 * that removed the worktree a check looks at left nothing there to pass.
 */

import type { Snapshot } from '../fixture/snapshot-schema.js';
import { checkoutView } from '../fixture/snapshot-schema.js';
import { type Evidence, required } from './evidence.js';
import type { VerbResult } from './verb.js';

export function inCheckout(
  snapshot: Snapshot,
  checkout: string | undefined,
):
  | { readonly ok: true; readonly snapshot: Snapshot }
  | { readonly ok: false; readonly result: VerbResult } {
  const view = checkoutView(snapshot, checkout);
  if (view.ok) return { ok: true, snapshot: view.snapshot };
  return { ok: false, result: { outcome: 'fail', observed: 'no checkout', detail: view.why } };
}

/** Both snapshots (they must have been captured) narrowed to one checkout, for the verbs that compare them. */
export function beforeAndAfterInCheckout(
  evidence: Evidence,
  checkout: string | undefined,
):
  | { readonly ok: true; readonly before: Snapshot; readonly after: Snapshot }
  | { readonly ok: false; readonly result: VerbResult } {
  const before = inCheckout(required(evidence.before, 'before'), checkout);
  if (!before.ok) return before;
  const after = inCheckout(required(evidence.after, 'after'), checkout);
  if (!after.ok) return after;
  return { ok: true, before: before.snapshot, after: after.snapshot };
}

/**
 * Where a path of a checkout is in the fixture's snapshot and captured files:
 * `checkout` as a check names it, else the start one; "." is the repository's.
 */
export function pathInCheckout(
  checkout: string | undefined,
  start: string | undefined,
  repoPath: string,
): string {
  const name = checkout ?? start ?? '.';
  return name === '.' ? repoPath : `${name}/${repoPath}`;
}
