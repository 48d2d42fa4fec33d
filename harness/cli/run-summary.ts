import type { InputError } from '../lib/input-error.js';
import type { Result } from '../lib/result.js';
import type { ResultsModel } from '../report/results-schema.js';

/**
 * The results model of a finished run: with `write`, the reports are written
 * too (and the tables printed on `terminal`); without, the directory is only
 * read and summarised (`run --gate --no-report` still needs the gate).
 */
export async function summariseRun(
  outDir: string,
  options: { readonly write: boolean; readonly terminal: NodeJS.WritableStream | undefined },
): Promise<Result<ResultsModel, InputError>> {
  if (options.write) {
    const { writeReports } = await import('../report/write-reports.js');
    return writeReports(outDir, { terminal: options.terminal });
  }
  const { loadResults } = await import('../report/load-results.js');
  const { summariseResults } = await import('../report/summarise.js');
  const { ok } = await import('../lib/result.js');
  const loaded = await loadResults(outDir);
  return loaded.ok ? ok(summariseResults(loaded.value)) : loaded;
}
