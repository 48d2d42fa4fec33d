/**
 * `file-contains`: a file's text matches a pattern, with the case rule
 * stated explicitly. A file that is gone, or whose text was not captured
 * (binary, too large), leaves the check undecided: absence is not what it
 * tests, so `not file-contains` can never pass by deleting the file.
 */
import { z } from 'zod';
import { inCheckout, pathInCheckout } from '../checkout-evidence.js';
import { fileEntry, required } from '../evidence.js';
import { checkoutSchema, regexSource, repoPathSchema } from '../param-types.js';
import { defineVerb, quotedPattern } from '../verb.js';

const QUOTE = 80;

export const fileContains = defineVerb({
  summary:
    'the file text matches a regular expression (caseSensitive: true|false, required; checkout: which worktree, default the start one)',
  params: z
    .object({
      path: repoPathSchema,
      pattern: regexSource,
      caseSensitive: z.boolean(),
      checkout: checkoutSchema,
    })
    .strict(),
  reads: () => ['after', 'contents'],
  files: (params, where) => [pathInCheckout(params.checkout, where.start, params.path)],
  run: (params, evidence) => {
    const after = inCheckout(required(evidence.after, 'after'), params.checkout);
    if (!after.ok) return after.result;
    if (fileEntry(after.snapshot.files, params.path) === undefined) {
      // "Gone" only for a file that was there: one that never existed is said so.
      const view =
        evidence.before === undefined ? undefined : inCheckout(evidence.before, params.checkout);
      const before =
        view === undefined || !view.ok
          ? undefined
          : fileEntry(view.snapshot.files, params.path) !== undefined;
      const detail =
        before === true
          ? `${params.path} is gone (the session removed it)`
          : before === false
            ? `${params.path} does not exist (nor did it before the session)`
            : `${params.path} does not exist after the session`;
      return { outcome: 'undecided', observed: 'absent', detail };
    }
    const captured = fileEntry(
      required(evidence.contents, 'contents'),
      pathInCheckout(params.checkout, required(evidence.after, 'after').start, params.path),
    );
    if (captured === undefined) {
      return {
        outcome: 'undecided',
        detail: `${params.path} was not captured at rep time (rerun the rep to capture it)`,
      };
    }
    if ('omitted' in captured) {
      return {
        outcome: 'undecided',
        detail: `${params.path} has no text to read: ${captured.omitted}`,
      };
    }
    const found = new RegExp(params.pattern, params.caseSensitive ? 'm' : 'im').exec(captured.text);
    if (found === null) {
      return {
        outcome: 'fail',
        observed: 'no match',
        detail: `${params.path} does not match ${quotedPattern(params.pattern)}`,
      };
    }
    const quote = found[0].length > QUOTE ? `${found[0].slice(0, QUOTE)}…` : found[0];
    return {
      outcome: 'pass',
      observed: quote,
      detail: `${params.path} matches ${quotedPattern(params.pattern)}`,
    };
  },
});
