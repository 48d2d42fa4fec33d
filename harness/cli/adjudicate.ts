import type { Command } from 'commander';
import type { DecisionsFile } from '../judging/adjudicate.js';
import { ExitCode, failWithInputError } from './exit.js';
import { withResultsLock } from './report-commands.js';

interface AdjudicateFlags {
  by?: string;
  decisions?: string;
}

/** `redgreen adjudicate <dir>`: settle disagreements and indeterminate reps by hand. */
export function registerAdjudicateCommand(program: Command): void {
  program
    .command('adjudicate')
    .description(
      "walk through every rep where the checks and the judge disagree, then every indeterminate rep: see the reply, the captured dispatch, the key tool calls, the failing checks and the judge's rationale, and press p (pass), f (fail), s (skip) or q (quit). Each decision is written to overrides.json at once (verdict, reason, who, when), so a walk-through resumes where it stopped; the reports and gates then use it.",
    )
    .argument(
      '<results-dir>',
      'a directory `redgreen run` wrote (judged with `redgreen judge` for disagreements)',
    )
    .option('--by <name>', 'who decides (default: git config user.name)')
    .option(
      '--decisions <file>',
      'read the decisions from a JSON file instead of the keyboard (needed without a terminal): { "<rep id>": { "verdict": "pass" | "fail" | "skip", "reason": "…" } }',
    )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  redgreen adjudicate results/<run>',
        '  redgreen adjudicate results/<run> --by "Dana" --decisions decisions.json',
        '',
        'Exit status: 0 when the walk-through ends (all settled, skipped or quit), 2 for bad input,',
        'a directory it cannot write, or one a live run holds.',
      ].join('\n'),
    )
    .action(async (dir: string, flags: AdjudicateFlags) => {
      const { resultsLayout } = await import('../results/results-layout.js');
      const { checkWritable } = await import('../judging/adjudicate.js');
      const { existsSync } = await import('node:fs');
      const layout = resultsLayout(dir);
      if (!existsSync(layout.journalFile)) {
        process.exitCode = failWithInputError({
          kind: 'input',
          input: dir,
          problem: 'is not a results directory (no ledger.jsonl)',
          fix: 'give a directory `redgreen run` wrote',
        });
        return;
      }
      // Before the lock: a directory this user cannot write is refused as such.
      const writable = await checkWritable(layout.root, layout.overridesFile);
      if (!writable.ok) {
        process.exitCode = failWithInputError(writable.error);
        return;
      }
      process.exitCode = await withResultsLock(dir, () => adjudicateAction(dir, flags));
    });
}

async function adjudicateAction(dir: string, flags: AdjudicateFlags): Promise<number> {
  const path = await import('node:path');
  const { resultsLayout } = await import('../results/results-layout.js');
  const { loadResults } = await import('../report/load-results.js');
  const { writeReports } = await import('../report/write-reports.js');
  const { adjudicationQueue } = await import('../judging/adjudication-queue.js');
  const { adjudicationScreen } = await import('../judging/adjudication-screen.js');
  const adjudicate = await import('../judging/adjudicate.js');
  const layout = resultsLayout(dir);
  const interactive = flags.decisions === undefined;
  if (interactive && !(process.stdin.isTTY === true && process.stdout.isTTY === true)) {
    return failWithInputError({
      kind: 'input',
      input: 'stdin',
      problem: 'is not a terminal, so there is no one to press the keys',
      fix: 'run it in a terminal, or give the decisions with --decisions <file.json>',
    });
  }
  const decisions =
    flags.decisions === undefined ? undefined : await adjudicate.readDecisionsFile(flags.decisions);
  if (decisions !== undefined && !decisions.ok) return failWithInputError(decisions.error);
  const who = await adjudicate.whoAdjudicates(flags.by, process.cwd(), process.env);
  if (!who.ok) return failWithInputError(who.error);
  const loaded = await loadResults(dir);
  if (!loaded.ok) return failWithInputError(loaded.error);
  const queue = await adjudicationQueue(loaded.value);
  const settledBefore = new Set(Object.keys(loaded.value.overrides));
  let decided: DecisionsFile | undefined;
  if (decisions !== undefined) {
    const checked = adjudicate.checkDecisions(
      flags.decisions as string,
      decisions.value,
      queue,
      settledBefore,
    );
    if (!checked.ok) return failWithInputError(checked.error);
    decided = checked.value.decisions;
    for (const id of checked.value.alreadySettled) {
      process.stdout.write(`${id}: already settled in overrides.json; kept as it is\n`);
    }
  }
  process.stdout.write(
    `${queue.length} rep(s) to settle (${queue.filter((rep) => rep.why === 'disagreement').length} disagreement(s), ${queue.filter((rep) => rep.why === 'indeterminate').length} indeterminate); ${settledBefore.size} already settled; deciding as ${who.value}\n`,
  );
  const { TerminalKeys, QUIT } = await import('../judging/terminal-keys.js');
  const keys = interactive ? new TerminalKeys(process.stdin, process.stdout) : undefined;
  const print = (text: string): void => {
    process.stdout.write(keys === undefined ? `${text}\n` : `${text.replace(/\n/g, '\r\n')}\r\n`);
  };
  let outcome: Awaited<ReturnType<typeof adjudicate.walkQueue>>;
  try {
    outcome = await adjudicate.walkQueue(
      queue,
      async (rep, position) => {
        if (keys === undefined) {
          const decision = decided?.[rep.id];
          if (decision === undefined || decision.verdict === 'skip') {
            print(`${rep.id}: skipped`);
            return { verdict: 'skip' };
          }
          print(`${rep.id}: ${decision.verdict} (${decision.reason ?? ''})`);
          return { verdict: decision.verdict, reason: decision.reason ?? '' };
        }
        print(adjudicationScreen(rep, position, queue.length));
        const key = await keys.key(['p', 'f', 's', 'q']);
        if (key === QUIT || key === 'q') return { verdict: 'quit' };
        if (key === 's') {
          print('skipped: asked again next time');
          return { verdict: 'skip' };
        }
        const verdict = key === 'p' ? 'pass' : 'fail';
        const fallback = adjudicate.defaultReason(rep, verdict);
        const reason = await keys.line(`${rep.id} ${verdict}: reason (Enter for "${fallback}"): `);
        if (reason === QUIT) return { verdict: 'quit' };
        print(`${rep.id}: ${verdict} recorded`);
        return { verdict, reason: reason.trim() === '' ? fallback : reason.trim() };
      },
      (rep, override) => adjudicate.recordOverride(layout.overridesFile, rep.id, override),
      who.value,
      () => new Date(),
    );
  } finally {
    keys?.close();
  }
  if (!outcome.ok) return failWithInputError(outcome.error);
  const { settled, skipped, notReached } = outcome.value;
  process.stdout.write(
    `settled ${settled.length} rep(s) in ${path.relative(process.cwd(), layout.overridesFile) || layout.overridesFile}; ${skipped.length} skipped; ${notReached.length} not reached${skipped.length + notReached.length > 0 ? ' (run adjudicate again to continue)' : ''}\n`,
  );
  if (settled.length > 0) {
    const report = await writeReports(dir, { terminal: undefined });
    if (!report.ok) return failWithInputError(report.error);
    const { gateVerdictLine } = await import('../report/markdown.js');
    process.stdout.write(`reports regenerated; ${gateVerdictLine(report.value)}\n`);
  }
  return ExitCode.ok;
}
