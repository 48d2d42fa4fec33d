/**
 * `git-branch`: the checked-out branch after the session, in the checkout
 * `checkout` names (default: the one the session started in). A snapshot
 * taken by an older redgreen records no branch, so the check is undecided there.
 */
import { z } from 'zod';
import { inCheckout } from '../checkout-evidence.js';
import { required } from '../evidence.js';
import { checkoutSchema, nonBlank } from '../param-types.js';
import { defineVerb } from '../verb.js';

export const gitBranch = defineVerb({
  summary: 'the checked-out branch has this name (checkout: which worktree; default the start one)',
  params: z.object({ name: nonBlank, checkout: checkoutSchema }).strict(),
  reads: () => ['after'],
  run: (params, evidence) => {
    const view = inCheckout(required(evidence.after, 'after'), params.checkout);
    if (!view.ok) return view.result;
    const branch = view.snapshot.branch;
    if (branch === undefined) {
      return {
        outcome: 'undecided',
        detail: 'the snapshot records no branch (taken by an older redgreen)',
      };
    }
    if (branch === null)
      return { outcome: 'fail', observed: 'detached', detail: 'HEAD is detached' };
    return branch === params.name
      ? { outcome: 'pass', observed: branch, detail: `on branch ${branch}` }
      : { outcome: 'fail', observed: branch, detail: `on branch ${branch}, not ${params.name}` };
  },
});
