import type { Command } from 'commander';
import { ExitCode, failWithInputError } from './exit.js';

/** `redgreen list [results-root]`: past runs, newest first. */
export function registerListCommand(program: Command): void {
  program
    .command('list')
    .description(
      'list the runs under a results root, newest first (by when each run started: its campaign.json), with campaign, arms, model, reps recorded of planned, and the gate outcome `redgreen gate` would give. ' +
        'A damaged directory is listed as DAMAGED with what is wrong, never skipped. Exits 0, or 2 when the root cannot be read. Needs no model.',
    )
    .argument(
      '[results-root]',
      'the directory holding the runs (default: results); one results directory lists itself',
      'results',
    )
    .option('--json', 'print one JSON object instead of the table (the README lists the fields)')
    .action(async (root: string, flags: { json?: boolean }) => {
      const { listRuns, listTable } = await import('../report/list-runs.js');
      const listing = await listRuns(root);
      if (!listing.ok) {
        process.exitCode = failWithInputError(listing.error);
        return;
      }
      process.stdout.write(
        flags.json === true
          ? `${JSON.stringify(listing.value, null, 2)}\n`
          : listTable(listing.value),
      );
      process.exitCode = ExitCode.ok;
    });
}
