import type { z } from 'zod';
import { type InputError, inputError } from './input-error.js';

function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text === '' ? String(part) : `.${String(part)}`;
  }
  return text;
}

/** Edit distance between two short words (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function samePath(a: readonly PropertyKey[], b: readonly PropertyKey[]): boolean {
  return a.length === b.length && a.every((part, index) => part === b[index]);
}

/**
 * A misspelt required field shows up twice: the required field is missing,
 * and an unknown one is present. The unknown one is the root cause, so it is
 * reported, with the missing field it most likely stands for.
 */
function misspeltField(
  source: string,
  issues: readonly z.core.$ZodIssue[],
): InputError | undefined {
  const unknown = issues.find((issue) => issue.code === 'unrecognized_keys');
  if (unknown === undefined || unknown.code !== 'unrecognized_keys') return undefined;
  const missing = issues
    .filter(
      (issue) =>
        issue.code === 'invalid_type' &&
        /received undefined$/.test(issue.message) &&
        samePath(issue.path.slice(0, -1), unknown.path),
    )
    .map((issue) => String(issue.path.at(-1)));
  const where = pathText(unknown.path);
  const field = where === '' ? source : `${source}: ${where}`;
  const guesses = unknown.keys
    .map((key) => {
      const best = [...missing].sort((a, b) => distance(key, a) - distance(key, b))[0];
      return best !== undefined && distance(key, best) <= Math.max(2, best.length / 3)
        ? `"${key}" (did you mean "${best}"?)`
        : `"${key}"`;
    })
    .join(', ');
  return inputError(
    field,
    `unknown field${unknown.keys.length > 1 ? 's' : ''} ${guesses}`,
    missing.length > 0
      ? `fix its spelling: the required field${missing.length > 1 ? 's' : ''} ${missing.map((key) => `"${key}"`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing`
      : 'remove it or fix its spelling (unknown fields are rejected so a typo never changes a run silently)',
  );
}

/**
 * Turn the first problem a zod schema found in a file or flag into a
 * one-line InputError that names the field and says how to fix it. An
 * unknown field is reported before the missing field it was probably meant
 * to be.
 */
export function inputErrorFromZod(source: string, error: z.ZodError): InputError {
  const misspelt = misspeltField(source, error.issues);
  if (misspelt !== undefined) return misspelt;
  const issue = error.issues[0];
  if (issue === undefined)
    return inputError(source, 'is invalid', 'check it against the documented format');
  const where = pathText(issue.path);
  const field = where === '' ? source : `${source}: ${where}`;
  switch (issue.code) {
    case 'unrecognized_keys':
      return inputError(
        `${field}${where === '' ? '' : ''}`,
        `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`,
        'remove it or fix its spelling (unknown fields are rejected so a typo never changes a run silently)',
      );
    case 'invalid_type':
      return inputError(
        field,
        issue.message.replace(/^Invalid input: /, ''),
        `give ${where || 'it'} the expected type`,
      );
    case 'invalid_key':
      // A record's key (a header name) broke a rule: say which rule, not "Invalid key in record".
      return inputError(field, issue.issues[0]?.message ?? issue.message, 'fix or remove the key');
    default:
      return inputError(field, issue.message, 'fix the value');
  }
}
