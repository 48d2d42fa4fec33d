import { readFile } from 'node:fs/promises';

/** Read a JSON file; parse errors and missing files throw (callers turn them into values). */
export async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, 'utf8'));
}
