/**
 * `files-matching`: how many files in a checkout (default the start one) match globs (or
 * a regular expression over their paths), among those present after the
 * session or those it added, modified, removed or changed, within min/max.
 */
import { z } from 'zod';
import { diffSnapshots } from '../../fixture/snapshot-schema.js';
import { inCheckout } from '../checkout-evidence.js';
import { required } from '../evidence.js';
import { checkoutSchema, globSchema, regexSource } from '../param-types.js';
import { counted, defineVerb, listed } from '../verb.js';
import { globMatcher } from './glob.js';

const AMONG = ['present', 'added', 'modified', 'removed', 'changed'] as const;

export const filesMatching = defineVerb({
  summary:
    'the number of files matching globs or a path pattern (present, or added/modified/removed/changed) is within min/max (checkout: which worktree; default the start one)',
  params: z
    .object({
      globs: z.array(globSchema).min(1).optional(),
      pattern: regexSource.optional(),
      among: z.enum(AMONG).default('present'),
      min: z.number().int().nonnegative().optional(),
      max: z.number().int().nonnegative().optional(),
      checkout: checkoutSchema,
    })
    .strict(),
  reads: (params) => (params.among === 'present' ? ['after'] : ['before', 'after']),
  validate: (params) => {
    if ((params.globs === undefined) === (params.pattern === undefined)) {
      return {
        field: 'globs',
        problem: 'needs exactly one of globs and pattern',
        fix: 'give globs or pattern',
      };
    }
    if (params.min === undefined && params.max === undefined) {
      return {
        field: 'min',
        problem: 'has neither min nor max, so it could never fail',
        fix: 'give min, max or both',
      };
    }
    if (params.min === 0 && params.max === undefined) {
      return {
        field: 'min',
        problem: 'is 0 with no max: every count is at least 0, so it could never fail',
        fix: 'give min 1 or more, or a max',
      };
    }
    if (params.min !== undefined && params.max !== undefined && params.min > params.max) {
      return {
        field: 'min',
        problem: `min ${params.min} exceeds max ${params.max}, so it could never pass`,
        fix: 'swap or fix them',
      };
    }
    return undefined;
  },
  run: (params, evidence) => {
    const view = inCheckout(required(evidence.after, 'after'), params.checkout);
    if (!view.ok) return view.result;
    const after = view.snapshot;
    const test =
      params.pattern === undefined
        ? globMatcher(params.globs ?? [])
        : (path: string) => new RegExp(params.pattern ?? '').test(path);
    let paths: string[];
    if (params.among === 'present') {
      paths = Object.keys(after.files);
    } else {
      // A checkout the session made has no files before it: every one of them is added.
      const was = inCheckout(required(evidence.before, 'before'), params.checkout);
      const before = was.ok ? was.snapshot : { ...after, files: {} };
      const changes = diffSnapshots(before, after).fileChanges;
      paths = changes
        .filter((change) => params.among === 'changed' || change.kind === params.among)
        .map((change) => change.path);
    }
    const matched = paths.filter(test).sort();
    const count = matched.length;
    const low = params.min !== undefined && count < params.min;
    const high = params.max !== undefined && count > params.max;
    const bounds = [
      params.min === undefined ? '' : `at least ${params.min}`,
      params.max === undefined ? '' : `at most ${params.max}`,
    ]
      .filter(Boolean)
      .join(' and ');
    const what = `${counted(count, 'file')} ${params.among}${count > 0 ? `: ${listed(matched)}` : ''}`;
    return {
      outcome: low || high ? 'fail' : 'pass',
      observed: String(count),
      detail: `${what} (wanted ${bounds})`,
    };
  },
});
