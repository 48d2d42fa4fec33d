import { ZodError } from 'zod';

/**
 * One line saying what went wrong with something read back from disk: a
 * schema mismatch names the field, any other error gives its first line.
 */
export function describeError(error: unknown): string {
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    if (issue === undefined) return 'does not match its schema';
    const where = issue.path.length === 0 ? '' : `${issue.path.map(String).join('.')}: `;
    return `${where}${issue.message}`;
  }
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
