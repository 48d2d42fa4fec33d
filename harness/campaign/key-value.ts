import { type InputError, inputError } from '../lib/input-error.js';

/**
 * A credential variable's value must be the key alone, on one line. A value
 * holding a control character (a key pasted with a line break and whatever
 * followed it) is no key: the client would fail on it mid-request and quote
 * it in the error, line by line. It is refused as bad input naming the
 * variable, never any part of its value, before any client is built.
 */

/** C0 control characters (line breaks, tabs, NUL, ...) and DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The problem with a set variable's value, or null when it can be a key. */
export function keyValueProblem(variable: string, value: string): InputError | null {
  if (!CONTROL.test(value.trim())) return null;
  return inputError(
    variable,
    'holds a control character (a line break, a tab), so it is no key; nothing was sent',
    `set ${variable} to the key alone, on one line`,
  );
}

/** The first of these variables whose value is set but cannot be a key. */
export function firstBadKeyValue(
  env: NodeJS.ProcessEnv,
  variables: readonly string[],
): InputError | null {
  for (const variable of variables) {
    const problem = keyValueProblem(variable, env[variable] ?? '');
    if (problem !== null) return problem;
  }
  return null;
}
