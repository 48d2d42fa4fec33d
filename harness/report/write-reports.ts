import { writeFileAtomic } from '../lib/atomic-write.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { readImportRecord } from '../results/import-record.js';
import { resultsCsv, seatToolsCsv } from './csv.js';
import { writeEvalsReports } from './evals-report.js';
import { renderReportHtml } from './html/report-html.js';
import { loadResults } from './load-results.js';
import { resultsMarkdown, terminalSummary } from './markdown.js';
import { type ResultsModel, resultsSchema } from './results-schema.js';
import { summariseResults } from './summarise.js';

/**
 * Regenerate every report of a results directory from disk (results.md,
 * results.csv, results.json, report.html, and seats.csv when a scenario ran
 * full sessions), each written atomically, and optionally print
 * the Results table and gate outcomes. `run` calls this at the end; `redgreen
 * report <dir>` calls it on its own. Never needs a model.
 */
export async function writeReports(
  dir: string,
  options: { terminal: NodeJS.WritableStream | undefined },
): Promise<Result<ResultsModel, InputError>> {
  const loaded = await loadResults(dir);
  if (!loaded.ok) return loaded;
  const model = resultsSchema.parse(summariseResults(loaded.value));
  const { layout } = loaded.value;
  await writeFileAtomic(layout.resultsJson, `${JSON.stringify(model, null, 2)}\n`);
  await writeFileAtomic(layout.resultsCsv, resultsCsv(model));
  const seats = seatToolsCsv(model);
  if (seats !== undefined) await writeFileAtomic(layout.seatsCsv, seats);
  // An evals run's own tables and skill-creator's files, beside redgreen's (harness/evals/).
  const imported = await readImportRecord(layout.evalsDir);
  if (imported instanceof Error)
    return err(
      inputError(
        layout.evalsDir,
        imported.message,
        'rerun the campaign, or remove the evals folder',
      ),
    );
  const evals =
    imported === undefined
      ? undefined
      : await writeEvalsReports(loaded.value, imported, model.cells);
  await writeFileAtomic(
    layout.resultsMarkdown,
    evals === undefined ? resultsMarkdown(model) : `${resultsMarkdown(model)}\n${evals}\n`,
  );
  await writeFileAtomic(layout.reportHtml, await renderReportHtml(model, loaded.value));
  if (evals !== undefined) options.terminal?.write(`${evals}\n`);
  options.terminal?.write(terminalSummary(model));
  return ok(model);
}
