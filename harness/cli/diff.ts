import { realpathSync } from 'node:fs';
import type { Command } from 'commander';
import { ExitCode, failWithInputError } from './exit.js';

/** `redgreen diff <dir-a> <dir-b>`: what changed between two results directories, cell by cell. */
export function registerDiffCommand(program: Command): void {
  program
    .command('diff')
    .description(
      "compare two results directories cell by cell (arm x scenario): the pass-rate change with Fisher's exact test (two-sided, B against A), the tool_uses change over decided reps with a permutation test, and the reps whose verdicts differ (the same rep id in both, overrides applied). " +
        'The directories must have the same cells; what else differs between the runs (campaign, model, backend, reps, skill texts) is listed. Exits 0 whatever changed, 2 on bad input. Needs no model.',
    )
    .argument('<dir-a>', 'the results directory to compare from (e.g. the released baseline)')
    .argument('<dir-b>', 'the results directory to compare with it')
    .option('--json', 'print one JSON object instead of markdown (the README lists the fields)')
    .action(async (dirA: string, dirB: string, flags: { json?: boolean }) => {
      const { loadResults } = await import('../report/load-results.js');
      const { summariseResults } = await import('../report/summarise.js');
      const { diffResults } = await import('../report/diff.js');
      const models = [];
      for (const dir of [dirA, dirB]) {
        const loaded = await loadResults(dir);
        if (!loaded.ok) {
          process.exitCode = failWithInputError(loaded.error);
          return;
        }
        const { shard } = loaded.value.record;
        models.push({
          dir,
          realDir: realpathSync(dir),
          model: summariseResults(loaded.value),
          shard: shard === null ? null : `${shard.index}/${shard.count}`,
        });
      }
      const [a, b] = models;
      if (a === undefined || b === undefined) throw new Error('diff: two directories expected');
      const diff = diffResults(a, b);
      if (!diff.ok) {
        process.exitCode = failWithInputError(diff.error);
        return;
      }
      if (flags.json === true) {
        process.stdout.write(`${JSON.stringify(diff.value, null, 2)}\n`);
      } else {
        const { diffMarkdown } = await import('../report/diff-markdown.js');
        process.stdout.write(diffMarkdown(diff.value));
      }
      process.exitCode = ExitCode.ok;
    });
}
