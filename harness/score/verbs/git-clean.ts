/**
 * `git-clean`: no file git tracks (before or after) was added, modified or
 * removed by the session; with `untracked: true`, no untracked file was
 * added or changed either.
 */
import { z } from 'zod';
import { diffSnapshots } from '../../fixture/snapshot-schema.js';
import { beforeAndAfterInCheckout } from '../checkout-evidence.js';
import { checkoutSchema } from '../param-types.js';
import { defineVerb, listed } from '../verb.js';

export const gitClean = defineVerb({
  summary:
    'no tracked file changed since before the session (untracked: true also counts untracked files; checkout: which worktree)',
  params: z.object({ untracked: z.boolean().default(false), checkout: checkoutSchema }).strict(),
  reads: () => ['before', 'after'],
  run: (params, evidence) => {
    const views = beforeAndAfterInCheckout(evidence, params.checkout);
    if (!views.ok) return views.result;
    const changes = diffSnapshots(views.before, views.after).fileChanges.filter(
      (change) => params.untracked || change.trackedBefore || change.trackedAfter,
    );
    return changes.length === 0
      ? { outcome: 'pass', observed: 'clean', detail: 'no tracked file changed' }
      : {
          outcome: 'fail',
          observed: String(changes.length),
          detail: `files changed: ${listed(changes.map((change) => `${change.path} (${change.kind})`))}`,
        };
  },
});
