import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ExitCode, failWithInputError } from './exit.js';

/**
 * Run `work` holding the results directory's lock, so a command that
 * rewrites its files never does so under a live run. A directory that is not
 * a results directory is left to `work` to refuse.
 */
export async function withResultsLock(dir: string, work: () => Promise<number>): Promise<number> {
  if (!existsSync(path.join(dir, 'ledger.jsonl'))) return work();
  const { lockResultsDir } = await import('../results/results-dir.js');
  const lock = await lockResultsDir(dir);
  if (!lock.ok) return failWithInputError(lock.error);
  try {
    return await work();
  } finally {
    await lock.value();
  }
}

/** `redgreen score <dir>`: rescore every rep from disk, then regenerate the tables. */
export function registerScoreCommand(program: Command): void {
  program
    .command('score')
    .description(
      'rescore every rep of a results directory from its files (reply, transcript, snapshots, captured files) with the current scenario files, then regenerate the reports. Needs no model.',
    )
    .argument('<results-dir>', 'a directory `redgreen run` wrote')
    .action(async (dir: string) => {
      process.exitCode = await withResultsLock(dir, () => rescoreAndReport(dir));
    });
}

async function rescoreAndReport(dir: string): Promise<number> {
  const { rescoreResults } = await import('../run/rescore.js');
  const { writeReports } = await import('../report/write-reports.js');
  const { shortScenarioHash } = await import('../scenario/scenario-identity.js');
  const rescored = await rescoreResults(dir);
  if (!rescored.ok) return failWithInputError(rescored.error);
  for (const scenario of rescored.value.scenarios) {
    process.stdout.write(
      `${scenario.id}: scored with ${scenario.file} (scenario ${shortScenarioHash(scenario.sha256)})\n`,
    );
    if (scenario.recorded !== undefined && scenario.recorded !== scenario.sha256) {
      process.stderr.write(
        `redgreen: warning: ${scenario.id}: ${scenario.file} differs from the scenario the reps were scored with (${shortScenarioHash(scenario.recorded)}): they are rescored with it as it is now, and results.md says so\n`,
      );
    }
  }
  process.stdout.write(
    `rescored ${rescored.value.rescored} rep(s); ${rescored.value.changed.length} verdict(s) changed\n`,
  );
  for (const change of rescored.value.changed) {
    process.stdout.write(`  ${change.id}: ${change.before} -> ${change.after}\n`);
  }
  const { unscorable } = rescored.value;
  if (unscorable.length > 0) {
    return failWithInputError({
      kind: 'input',
      input: dir,
      problem: `${unscorable.length} recorded rep(s) cannot be rescored from their files: ${unscorable.map((rep) => `${rep.id} (${rep.problem})`).join(', ')}`,
      fix: `rerun them with \`redgreen run --resume ${dir}\` (the damaged attempts are kept)`,
    });
  }
  const report = await writeReports(dir, { terminal: process.stdout });
  if (!report.ok) return failWithInputError(report.error);
  const { judgementCurrency } = await import('../judging/judgement-currency.js');
  const currency = await judgementCurrency(dir);
  if (currency.ok && currency.value.stale.length > 0) {
    process.stdout.write(
      `${currency.value.stale.length} judgement(s) no longer fit their rep (the rubric or the rep changed; e.g. ${currency.value.stale[0]}): \`redgreen judge ${dir}\` asks again\n`,
    );
  }
  return ExitCode.ok;
}

/** `redgreen report <dir>`: regenerate results.md/csv/json (and report.html) from disk. */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description(
      'regenerate results.md, results.csv, results.json and report.html of a results directory from disk (and seats.csv, tool calls by seat, when a scenario ran full sessions), and print the Results table and gate outcomes.',
    )
    .argument('<results-dir>', 'a directory `redgreen run` wrote')
    .option(
      '--json',
      'print one JSON object instead of the tables: the files written and the results model (the README lists the fields)',
    )
    .action(async (dir: string, flags: { json?: boolean }) => {
      process.exitCode = await withResultsLock(dir, async () => {
        const { writeReports } = await import('../report/write-reports.js');
        const report = await writeReports(dir, {
          terminal: flags.json === true ? undefined : process.stdout,
        });
        if (!report.ok) return failWithInputError(report.error);
        if (flags.json === true) {
          const { reportJson } = await import('../report/command-json.js');
          const { resultsLayout } = await import('../results/results-layout.js');
          const layout = resultsLayout(dir);
          const files = {
            markdown: layout.resultsMarkdown,
            csv: layout.resultsCsv,
            json: layout.resultsJson,
            html: layout.reportHtml,
            ...(report.value.seatTools === undefined ? {} : { seats: layout.seatsCsv }),
          };
          process.stdout.write(
            `${JSON.stringify(reportJson(report.value, layout.root, files), null, 2)}\n`,
          );
        }
        return ExitCode.ok;
      });
    });
}

interface GateFlags {
  requireAllGates?: boolean;
  junit?: string;
  summary?: string;
  allowNoGates?: boolean;
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
      '--require-all-gates',
      'exit 2 (cannot decide) for a subset run (run --only): the gates it left out were never evaluated, so it cannot pass; for CI',
    )
    .option(
      '--allow-no-gates',
      'exit 0 for a complete run of a campaign that declares no gates (by default that is exit 2: nothing was checked)',
    )
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
      if (
        flags.junit !== undefined &&
        flags.summary !== undefined &&
        path.resolve(flags.junit) === path.resolve(flags.summary)
      ) {
        process.exitCode = failWithInputError({
          kind: 'input',
          input: `--junit ${flags.junit} --summary ${flags.summary}`,
          problem: 'name the same file, so one would overwrite the other',
          fix: 'give each its own file',
        });
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
      const { NO_GATES_WHY } = await import('../report/gates.js');
      const { requiringAllGates } = await import('../report/subset.js');
      const summarised = summariseResults(loaded.value);
      const summary = flags.requireAllGates === true ? requiringAllGates(summarised) : summarised;
      const model =
        flags.allowNoGates === true && summary.gates.why === NO_GATES_WHY
          ? {
              ...summary,
              gates: {
                ...summary.gates,
                outcome: 'pass' as const,
                exitCode: 0 as const,
                why: 'the campaign declares no gates, so nothing was checked; passing because of --allow-no-gates',
              },
            }
          : summary;
      if (flags.json === true) {
        const { gateJson } = await import('../report/command-json.js');
        const files = {
          junit: flags.junit === undefined ? null : path.resolve(flags.junit),
          summary: flags.summary === undefined ? null : path.resolve(flags.summary),
        };
        const { gateSchema } = await import('../campaign/config-schema.js');
        const configs = gateSchema.array().parse(loaded.value.record.gates);
        const document = gateJson(
          model,
          loaded.value.layout.root,
          files,
          configs,
          flags.requireAllGates === true,
        );
        process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
      } else {
        process.stdout.write(`${gateReportLines(model).join('\n')}\n`);
      }
      if (flags.junit !== undefined)
        await writeFileAtomic(
          flags.junit,
          gateJunitXml(model, { requireAllGates: flags.requireAllGates === true }),
        );
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
      const { refuseLockedResultsDir } = await import('../results/results-dir.js');
      for (const dir of dirs) {
        const free = await refuseLockedResultsDir(dir);
        if (!free.ok) {
          process.exitCode = failWithInputError(free.error);
          return;
        }
      }
      const { mergeResults } = await import('../run/merge.js');
      const { plural } = await import('../lib/plural.js');
      const { writeReports } = await import('../report/write-reports.js');
      const merged = await mergeResults(dirs, flags.out);
      if (!merged.ok) {
        process.exitCode = failWithInputError(merged.error);
        return;
      }
      process.stdout.write(
        `merged ${plural(merged.value.reps, 'rep')} from ${plural(merged.value.sources, 'directory', 'directories')} into ${flags.out}\n`,
      );
      if (merged.value.missingShards !== null) {
        process.stderr.write(`redgreen: warning: ${merged.value.missingShards}\n`);
      }
      const report = await writeReports(merged.value.outDir, { terminal: process.stdout });
      process.exitCode = report.ok ? ExitCode.ok : failWithInputError(report.error);
    });
}
