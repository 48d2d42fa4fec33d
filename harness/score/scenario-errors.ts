/**
 * One-line InputErrors for problems found in a scenario file: the file, the
 * field path, the problem, the fix.
 */
import type { ZodError, ZodType, z } from 'zod';
import { didYouMean } from '../lib/did-you-mean.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { knownFields } from '../lib/zod-input-error.js';
import type { ParamProblem } from './validation.js';

function pathText(issuePath: readonly PropertyKey[]): string {
  return issuePath
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

/**
 * The issue a reader can act on: for a value that matched no branch of a
 * union ("Invalid input"), the issue of the branch that got furthest into it
 * (the deepest path), with the union's path in front; else the issue itself.
 */
export function specificIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  let best: z.core.$ZodIssue | undefined;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (first === undefined) continue;
    const inner = specificIssue(first);
    if (best === undefined || inner.path.length > best.path.length) best = inner;
  }
  if (best === undefined || best.path.length === 0) return issue;
  return { ...best, path: [...issue.path, ...best.path] } as z.core.$ZodIssue;
}

export function scenarioFieldError(
  file: string,
  error: ZodError,
  /** The schema and data that failed: an unknown field's fix then lists the fields allowed there. */
  against?: { readonly schema: ZodType; readonly data: unknown },
): InputError {
  const first = error.issues[0];
  const issue = first === undefined ? undefined : specificIssue(first);
  const field = pathText(issue?.path ?? []);
  const where = field === '' ? file : `${file}: ${field}`;
  if (issue?.code === 'unrecognized_keys') {
    const allowed =
      against === undefined ? undefined : knownFields(against.schema, against.data, issue.path);
    return inputError(
      where,
      `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`,
      allowed === undefined
        ? 'remove it or fix its spelling (see docs/writing-a-scenario.md)'
        : `${didYouMean(issue.keys[0] ?? '', allowed)}use ${allowed.map((name) => `"${name}"`).join(', ')} (see docs/writing-a-scenario.md)`,
    );
  }
  return inputError(
    where,
    (issue?.message ?? 'is invalid').replace(/^Invalid input: /, ''),
    'fix the value (see docs/writing-a-scenario.md)',
  );
}

export function checkProblemError(file: string, problem: ParamProblem): InputError {
  return inputError(`${file}: ${problem.field}`, problem.problem, problem.fix);
}

/** Sections with their extractor specs validated, in reading order. */
/** The issues of `error` with `prefix` in front of their paths (an error from a nested schema). */
export function prefixIssues(error: ZodError, prefix: readonly PropertyKey[]): ZodError {
  for (const issue of error.issues)
    (issue as { path: PropertyKey[] }).path = [...prefix, ...issue.path];
  return error;
}
