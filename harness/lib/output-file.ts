import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { type InputError, inputError } from './input-error.js';
import { err, ok, type Result } from './result.js';

/**
 * Check, before any work, that a file the user named for output can be
 * written: its directory exists and is writable.
 */
export async function checkOutputFile(
  file: string,
  input: string,
): Promise<Result<void, InputError>> {
  const directory = path.dirname(path.resolve(file));
  try {
    await access(directory, constants.W_OK);
    return ok(undefined);
  } catch {
    return err(
      inputError(
        input,
        `directory ${directory} does not exist or is not writable`,
        'give a path in a writable directory',
      ),
    );
  }
}
