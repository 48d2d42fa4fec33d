import { readRegularText } from './contained-file.js';

/**
 * Read a JSON file of a results directory (untrusted input): only a regular
 * file, a symlink never followed, a FIFO never waited on. Parse errors and
 * missing or refused files throw (callers turn them into values).
 */
export async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readRegularText(file));
}
