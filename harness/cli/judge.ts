import type { Command } from 'commander';
import { ExitCode, failWithInputError } from './exit.js';
import { positiveInt, positiveNumber } from './parse-flags.js';
import { withResultsLock } from './report-commands.js';

interface JudgeFlags {
  refresh?: boolean;
  model?: string;
  maxCost?: number;
  concurrency: number;
}

/** `redgreen judge <dir>`: a second opinion on every rep of a finished run, then the reports. */
export function registerJudgeCommand(program: Command): void {
  program
    .command('judge')
    .description(
      "ask a judge model for a second opinion on every recorded rep whose scenario has a judge block, store each answer in the rep's judge.json (keyed by a hash of rubric, material and model, so an unchanged rep is not asked again), then regenerate the reports with the agreement tables. Offline runs are judged by a scripted judge on the local model server (no key).",
    )
    .argument('<results-dir>', 'a directory `redgreen run` wrote')
    .option(
      '--refresh',
      "ask again even where judge.json is current, with the scenario's own judge (or --model): replaces the current judgements",
    )
    .option(
      '--model <id>',
      "the judge for every scenario: a model id (needs ANTHROPIC_API_KEY), or scripted:judge-agree | judge-contrarian | judge-unsure | judge-misquote | judge-malformed | judge-flaky offline (default: the directory's current judge of each scenario, the judge of its newest judgement, so only missing or stale judgements are asked; for a scenario not judged yet, its judge.model for a live run, judge.offlineModel for an offline one)",
    )
    .option(
      '--max-cost <usd>',
      'start no new judgement once the priced cost of this run of judge reaches this',
      positiveNumber('--max-cost'),
    )
    .option('--concurrency <n>', 'judgements asked at once', positiveInt('--concurrency', 64), 4)
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  redgreen judge results/sdd-panel-20261130-044200Z',
        '  redgreen judge results/<run> --model scripted:judge-contrarian --refresh',
        '',
        'Exit status: 0 when every rep of a judged scenario has a judgement, 1 when --max-cost stopped it',
        'or a judgement could not be had (API errors after retries; judging again retries them),',
        '2 for bad input or a directory a live run holds.',
      ].join('\n'),
    )
    .action(async (dir: string, flags: JudgeFlags) => {
      process.exitCode = await withResultsLock(dir, () => judgeAction(dir, flags));
    });
}

async function judgeAction(dir: string, flags: JudgeFlags): Promise<number> {
  const { judgeResults } = await import('../judging/judge-results.js');
  const { writeReports } = await import('../report/write-reports.js');
  const summary = await judgeResults({
    dir,
    refresh: flags.refresh === true,
    model: flags.model,
    maxCostUsd: flags.maxCost ?? null,
    concurrency: flags.concurrency,
    env: process.env,
  });
  if (!summary.ok) return failWithInputError(summary.error);
  const done = summary.value;
  process.stdout.write(
    `judged ${done.judged} rep(s) with ${done.judges.join(', ')}; ${done.current} already current; cost ${done.costUsd === null ? 'n/a' : `$${done.costUsd.toFixed(4)}`}\n`,
  );
  if (done.unjudgedScenarios.length > 0) {
    process.stdout.write(
      `not judged: scenario(s) ${done.unjudgedScenarios.join(', ')} have no judge block\n`,
    );
  }
  const report = await writeReports(dir, { terminal: process.stdout });
  if (!report.ok) return failWithInputError(report.error);
  if (done.errors > 0) {
    process.stderr.write(
      `redgreen: ${done.errors} rep(s) could not be judged (API errors after retries, recorded as unsure); run \`redgreen judge ${dir}\` again to retry them\n`,
    );
  }
  if (done.left.length > 0) {
    process.stderr.write(
      `redgreen: --max-cost reached; ${done.left.length} rep(s) not judged (e.g. ${done.left[0]}); run \`redgreen judge ${dir}\` again to finish\n`,
    );
  }
  return done.errors > 0 || done.left.length > 0 ? ExitCode.failed : ExitCode.ok;
}
