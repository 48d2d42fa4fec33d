import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { type InputError, inputError } from './input-error.js';
import { err, ok, type Result } from './result.js';

/**
 * Check, before any work, that a file the user named for output can be
 * written: its directory exists and is writable, and the path is not a
 * directory or anything else a file cannot replace (a file already there is
 * overwritten).
 */
export async function checkOutputFile(
  file: string,
  input: string,
): Promise<Result<void, InputError>> {
  const directory = path.dirname(path.resolve(file));
  try {
    await access(directory, constants.W_OK);
  } catch {
    return err(
      inputError(
        input,
        `directory ${directory} does not exist or is not writable`,
        'give a path in a writable directory',
      ),
    );
  }
  const existing = await stat(file).catch(() => undefined);
  if (existing !== undefined && !existing.isFile()) {
    return err(
      inputError(
        input,
        existing.isDirectory() ? 'is a directory' : 'is not a regular file',
        'give the path of a file to write (one already there is overwritten)',
      ),
    );
  }
  return ok(undefined);
}
