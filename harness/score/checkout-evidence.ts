/**
 * The snapshots a check reads, narrowed to the checkout it names (its
 * `checkout` parameter; default: the one the session started in). A
 * checkout the snapshot does not hold fails the check, saying so: a session
 * that removed the worktree a check looks at left nothing there to pass.
 */

import type { Snapshot } from '../fixture/snapshot-schema.js';
import { checkoutView } from '../fixture/snapshot-schema.js';
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
