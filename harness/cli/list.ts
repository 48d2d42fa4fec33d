import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { ExitCode, failWithInputError } from './exit.js';

/** `redgreen list [results-root]`: past runs, newest first. */
export function registerListCommand(program: Command): void {
  program
    .command('list')
    .description(
      'list the runs under a results root, newest first (by when each run started: its campaign.json), with campaign, arms, model, reps recorded of scheduled, and the gate outcome `redgreen gate` would give. ' +
        'A damaged directory is listed as DAMAGED with what is wrong, never skipped. Exits 0, or 2 when the root cannot be read. Needs no model.',
    )
    .argument(
      '[results-root]',
      'the directory holding the runs (default: results, and no runs when it does not exist yet); one results directory lists itself',
    )
    .option('--json', 'print one JSON object instead of the table (the README lists the fields)')
    .action(async (given: string | undefined, flags: { json?: boolean }) => {
      const { listJsonSchema, listRuns, listTable } = await import('../report/list-runs.js');
      const root = given ?? 'results';
      // No runs yet is not an error; a root the user named that is not there is.
      if (given === undefined && !existsSync(root)) {
        process.stdout.write(
          flags.json === true
            ? `${JSON.stringify(listJsonSchema.parse({ schemaVersion: 1, command: 'list', root, runs: [] }), null, 2)}\n`
            : `no runs yet: ${root} does not exist (redgreen run writes its runs there)\n`,
        );
        process.exitCode = ExitCode.ok;
        return;
      }
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
