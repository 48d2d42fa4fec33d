/**
 * One-line InputErrors for problems found in a scenario file: the file, the
 * field path, the problem, the fix.
 */
import type { ZodError } from 'zod';
import { type InputError, inputError } from '../lib/input-error.js';
import type { CheckProblem } from './check-schema.js';

function pathText(issuePath: readonly PropertyKey[]): string {
  return issuePath
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

export function scenarioFieldError(file: string, error: ZodError): InputError {
  const issue = error.issues[0];
  const field = pathText(issue?.path ?? []);
  const where = field === '' ? file : `${file}: ${field}`;
  if (issue?.code === 'unrecognized_keys') {
    return inputError(
      where,
      `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`,
      'remove it or fix its spelling (see docs/writing-a-scenario.md)',
    );
  }
  return inputError(
    where,
    (issue?.message ?? 'is invalid').replace(/^Invalid input: /, ''),
    'fix the value (see docs/writing-a-scenario.md)',
  );
}

export function checkProblemError(file: string, problem: CheckProblem): InputError {
  return inputError(`${file}: ${problem.field}`, problem.problem, problem.fix);
}

/** Sections with their extractor specs validated, in reading order. */
/** The issues of `error` with `prefix` in front of their paths (an error from a nested schema). */
export function prefixIssues(error: ZodError, prefix: readonly PropertyKey[]): ZodError {
  for (const issue of error.issues)
    (issue as { path: PropertyKey[] }).path = [...prefix, ...issue.path];
  return error;
}
