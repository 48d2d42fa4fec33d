import type { Command } from 'commander';
import { ExitCode, failWithInputError } from './exit.js';

/** `redgreen evals lint`: what a skill's own eval file becomes, before a run. */
export function registerEvalsCommand(program: Command): void {
  const evals = program
    .command('evals')
    .description(
      "a skill's own evals (skill-creator's evals/evals.json and trigger sets): lint shows what each case and expectation becomes; run them with `redgreen run --evals <skill-dir>`",
    );
  evals
    .command('lint')
    .description(
      "read a skill's evals/evals.json (or the eval or trigger file given) in any shape authors write it, and show what each case and each expectation becomes and why: " +
        'the scenario, the input files and where they go, a check (shown as such), a transcript check, or a judge rubric item. ' +
        'A file is imported whole or refused whole. Exits 0 when it imports, 2 when it is refused (one line naming the file and the field).',
    )
    .argument(
      '<skill-dir>',
      'the skill folder (holding SKILL.md), or the path of an eval file or trigger set',
    )
    .option(
      '--json',
      'print one JSON object: schemaVersion, skill, evals (id, checks, rubric per case), triggers',
    )
    .action(async (target: string, flags: { json?: boolean }) => {
      const { importEvals } = await import('../evals/import-evals.js');
      const { evalsLintJson, formatEvalsLint } = await import('../evals/lint-report.js');
      const imported = await importEvals(target);
      if (!imported.ok) {
        process.exitCode = failWithInputError(imported.error);
        return;
      }
      const report = evalsLintJson(imported.value);
      process.stdout.write(
        flags.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatEvalsLint(report),
      );
      process.exitCode = ExitCode.ok;
    });
}
