/** `file-exists`: a file is in the work tree (absence is what it tests, so a missing file fails). */
import { z } from 'zod';
import { inCheckout } from '../checkout-evidence.js';
import { fileEntry, required } from '../evidence.js';
import { checkoutSchema, repoPathSchema } from '../param-types.js';
import { defineVerb } from '../verb.js';

export const fileExists = defineVerb({
  summary: 'the file is in the work tree (checkout: which worktree; default the start one)',
  params: z.object({ path: repoPathSchema, checkout: checkoutSchema }).strict(),
  reads: () => ['after'],
  run: (params, evidence) => {
    const view = inCheckout(required(evidence.after, 'after'), params.checkout);
    if (!view.ok) return view.result;
    const present = fileEntry(view.snapshot.files, params.path) !== undefined;
    return present
      ? { outcome: 'pass', observed: 'present', detail: `${params.path} exists` }
      : { outcome: 'fail', observed: 'absent', detail: `${params.path} does not exist` };
  },
});
