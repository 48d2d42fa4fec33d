import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode, failWithInputError } from './exit.js';

/** `redgreen score <dir>`: rescore every rep from disk, then regenerate the tables. */
export function registerScoreCommand(program: Command): void {
  program
    .command('score')
    .description(
      'rescore every rep of a results directory from its files (reply, transcript, snapshots) with the current scoring specs, then regenerate the reports. Needs no model.',
    )
    .argument('<results-dir>', 'a directory `redgreen run` wrote')
    .action(async (dir: string) => {
      const { rescoreResults } = await import('../campaign/rescore.js');
      const { writeReports } = await import('../report/write-reports.js');
      const rescored = await rescoreResults(dir);
      if (!rescored.ok) {
        process.exitCode = failWithInputError(rescored.error);
        return;
      }
      process.stdout.write(
        `rescored ${rescored.value.rescored} rep(s); ${rescored.value.changed.length} verdict(s) changed\n`,
      );
      for (const change of rescored.value.changed) {
        process.stdout.write(`  ${change.id}: ${change.before} -> ${change.after}\n`);
      }
      const report = await writeReports(dir, { terminal: process.stdout });
      process.exitCode = report.ok ? ExitCode.ok : failWithInputError(report.error);
    });
}

/** `redgreen report <dir>`: regenerate results.md/csv/json (and report.html) from disk. */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description(
      'regenerate results.md, results.csv, results.json and report.html of a results directory from disk, and print the Results table and gate outcomes.',
    )
    .argument('<results-dir>', 'a directory `redgreen run` wrote')
    .option(
      '--json',
      'print one JSON object instead of the tables: the files written and the results model (the README lists the fields)',
    )
    .action(async (dir: string, flags: { json?: boolean }) => {
      const { writeReports } = await import('../report/write-reports.js');
      const report = await writeReports(dir, {
        terminal: flags.json === true ? undefined : process.stdout,
      });
      if (!report.ok) {
        process.exitCode = failWithInputError(report.error);
        return;
      }
      if (flags.json === true) {
        const { reportJson } = await import('../report/command-json.js');
        const { resultsLayout } = await import('../campaign/results-layout.js');
        const layout = resultsLayout(dir);
        const files = {
          markdown: layout.resultsMarkdown,
          csv: layout.resultsCsv,
          json: layout.resultsJson,
          html: layout.reportHtml,
        };
        process.stdout.write(
          `${JSON.stringify(reportJson(report.value, layout.root, files), null, 2)}\n`,
        );
      }
      process.exitCode = ExitCode.ok;
    });
}

interface GateFlags {
  junit?: string;
  summary?: string;
  json?: boolean;
}

/** `redgreen gate <dir>`: the exit code a CI job gates on. */
export function registerGateCommand(program: Command): void {
  program
    .command('gate')
    .description(
      "check a results directory against its campaign's gates; exit 0: every gate holds; 1: a gate failed; 2: cannot decide (reps missing, too many indeterminates).",
    )
    .argument('<results-dir>', 'a directory `redgreen run` (or `redgreen merge`) wrote')
    .option('--junit <file>', 'also write the gate outcomes as JUnit XML (one test case per gate)')
    .option('--summary <file>', 'also write a markdown summary fit for a pull-request comment')
    .option(
      '--json',
      'print the decision and each gate as one JSON object (same exit code; the README lists the fields)',
    )
    .action(async (dir: string, flags: GateFlags) => {
      const { loadResults } = await import('../report/load-results.js');
      const { summariseResults } = await import('../report/summarise.js');
      const { gateReportLines, gateJunitXml, gateSummaryMarkdown } = await import(
        '../report/gate-output.js'
      );
      const { writeFileAtomic } = await import('../lib/atomic-write.js');
      const { checkOutputFile } = await import('../lib/output-file.js');
      const loaded = await loadResults(dir);
      if (!loaded.ok) {
        process.exitCode = failWithInputError(loaded.error);
        return;
      }
      for (const [flag, file] of [
        ['--junit', flags.junit],
        ['--summary', flags.summary],
      ] as const) {
        if (file === undefined) continue;
        const writable = await checkOutputFile(file, `${flag} ${file}`);
        if (!writable.ok) {
          process.exitCode = failWithInputError(writable.error);
          return;
        }
      }
      const model = summariseResults(loaded.value);
      if (flags.json === true) {
        const { gateJson } = await import('../report/command-json.js');
        const files = {
          junit: flags.junit === undefined ? null : path.resolve(flags.junit),
          summary: flags.summary === undefined ? null : path.resolve(flags.summary),
        };
        const document = gateJson(model, loaded.value.layout.root, files);
        process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
      } else {
        process.stdout.write(`${gateReportLines(model).join('\n')}\n`);
      }
      if (flags.junit !== undefined) await writeFileAtomic(flags.junit, gateJunitXml(model));
      if (flags.summary !== undefined)
        await writeFileAtomic(flags.summary, gateSummaryMarkdown(model));
      process.exitCode = model.gates.exitCode;
    });
}

/** `redgreen merge <dir>... --out <dir>`: combine shard directories into one results directory. */
export function registerMergeCommand(program: Command): void {
  program
    .command('merge')
    .description(
      'combine results directories of one campaign (e.g. the shards of a CI run) into a new directory and regenerate its reports; refuses directories of another campaign identity and duplicate reps.',
    )
    .argument('<results-dirs...>', 'directories `redgreen run --shard k/n` wrote')
    .requiredOption('--out <dir>', 'the merged results directory to create')
    .action(async (dirs: string[], flags: { out: string }) => {
      const { mergeResults } = await import('../campaign/merge.js');
      const { writeReports } = await import('../report/write-reports.js');
      const merged = await mergeResults(dirs, flags.out);
      if (!merged.ok) {
        process.exitCode = failWithInputError(merged.error);
        return;
      }
      process.stdout.write(
        `merged ${merged.value.reps} rep(s) from ${merged.value.sources} director(ies) into ${flags.out}\n`,
      );
      const report = await writeReports(merged.value.outDir, { terminal: process.stdout });
      process.exitCode = report.ok ? ExitCode.ok : failWithInputError(report.error);
    });
}
