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

/**
 * Turn the first problem a zod schema found in a file or flag into a
 * one-line InputError that names the field and says how to fix it.
 */
export function inputErrorFromZod(source: string, error: z.ZodError): InputError {
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
    default:
      return inputError(field, issue.message, 'fix the value');
  }
}
