/**
 * `file-unchanged`: each file is byte-identical after the session to what it
 * was before (a removed file changed). A file that did not exist before has
 * nothing to compare and leaves the check undecided; so does a list that
 * names no file for this rep's fixture.
 */
import { z } from 'zod';
import { beforeAndAfterInCheckout } from '../checkout-evidence.js';
import { fileEntry } from '../evidence.js';
import { allOf, type Outcome } from '../kleene.js';
import { checkoutSchema, repoPathSchema } from '../param-types.js';
import { defineVerb, listed } from '../verb.js';

export const fileUnchanged = defineVerb({
  summary: 'each file is byte-identical to the before-snapshot (removed counts as changed)',
  params: z.object({ paths: z.array(repoPathSchema).min(1), checkout: checkoutSchema }).strict(),
  reads: () => ['before', 'after'],
  run: (params, evidence) => {
    const views = beforeAndAfterInCheckout(evidence, params.checkout);
    if (!views.ok) return views.result;
    const { before, after } = views;
    const changed: string[] = [];
    const missing: string[] = [];
    const outcomes: Outcome[] = params.paths.map((path) => {
      const was = fileEntry(before.files, path);
      const now = fileEntry(after.files, path);
      if (was === undefined) {
        missing.push(path);
        return 'undecided';
      }
      if (now === undefined || now.sha256 !== was.sha256) {
        changed.push(`${path} was ${now === undefined ? 'removed' : 'modified'}`);
        return 'fail';
      }
      return 'pass';
    });
    const outcome = allOf(outcomes);
    if (outcome === 'fail') return { outcome, observed: 'changed', detail: listed(changed) };
    if (outcome === 'undecided') {
      return { outcome, detail: `did not exist before the session: ${listed(missing)}` };
    }
    return { outcome, observed: 'unchanged', detail: `byte-identical: ${listed(params.paths)}` };
  },
});
