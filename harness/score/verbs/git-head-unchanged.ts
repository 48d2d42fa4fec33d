/** `git-head-unchanged`: HEAD (and, unless `refs: false`, every ref) is where it was before the session. */
import { z } from 'zod';
import { beforeAndAfterInCheckout } from '../checkout-evidence.js';
import { checkoutSchema } from '../param-types.js';
import { defineVerb, listed } from '../verb.js';

const short = (id: string | null | undefined): string => (id ? id.slice(0, 12) : '(none)');

export const gitHeadUnchanged = defineVerb({
  summary:
    'HEAD and every ref are where they were before the session (refs: false checks HEAD only; checkout: whose HEAD)',
  params: z.object({ refs: z.boolean().default(true), checkout: checkoutSchema }).strict(),
  reads: () => ['before', 'after'],
  run: (params, evidence) => {
    const views = beforeAndAfterInCheckout(evidence, params.checkout);
    if (!views.ok) return views.result;
    const { before, after } = views;
    const moved: string[] = [];
    if (before.head !== after.head)
      moved.push(`HEAD: ${short(before.head)} → ${short(after.head)}`);
    if (params.refs) {
      const names = [...new Set([...Object.keys(before.refs), ...Object.keys(after.refs)])].sort();
      for (const name of names) {
        if (before.refs[name] !== after.refs[name]) {
          moved.push(`${name}: ${short(before.refs[name])} → ${short(after.refs[name])}`);
        }
      }
    }
    return moved.length === 0
      ? { outcome: 'pass', observed: 'unchanged', detail: `HEAD ${short(after.head)} unchanged` }
      : { outcome: 'fail', observed: 'moved', detail: `git history changed: ${listed(moved)}` };
  },
});
