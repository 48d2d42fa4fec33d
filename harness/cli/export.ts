import type { Command } from 'commander';
import { ExitCode, failWithInputError } from './exit.js';

interface ExportFlags {
  atif: string;
  out?: string;
}

/** `redgreen export --atif <dir>`: the reps of a results directory as ATIF trajectories. */
export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description(
      'write the reps of a results directory in a format other tools read. With --atif: one ATIF v1.4 ' +
        '(Agent Trajectory Interchange Format) JSON file per rep, <out>/<arm>/<scenario>-rep<N>.json, ' +
        "with the prompt, each model turn's text, reasoning and tool calls, the tool results, tokens " +
        "and cost, and redgreen's verdict in `extra`; each subagent of a full session as a trajectory of its own, " +
        '<out>/<arm>/<scenario>-rep<N>/<agent-id>.json, linked from the dispatch that started it ' +
        '(subagent_trajectory_ref); plus <out>/index.json listing them. Needs no model.',
    )
    .requiredOption(
      '--atif <results-dir>',
      'export every recorded rep of this results directory (one `redgreen run` wrote) as ATIF v1.4',
    )
    .option(
      '--out <dir>',
      'a new or empty directory to write the trajectories and index.json to (default: <results-dir>/atif, which must not exist yet or be empty); a non-empty one is refused',
    )
    .action(async (flags: ExportFlags) => {
      if (flags.out !== undefined && flags.out.trim() === '') {
        process.exitCode = failWithInputError({
          kind: 'input',
          input: '--out',
          problem: 'is empty',
          fix: 'pass a directory path, or leave --out off to write <results-dir>/atif',
        });
        return;
      }
      if (flags.out !== undefined) {
        const { checkOutputDir } = await import('../lib/output-dir.js');
        const creatable = await checkOutputDir(flags.out, '--out');
        if (!creatable.ok) {
          process.exitCode = failWithInputError(creatable.error);
          return;
        }
      }
      // Writing into the results directory takes its lock; reading it for another --out only checks it is free.
      const { withResultsLock } = await import('./report-commands.js');
      const { refuseLockedResultsDir } = await import('../results/results-dir.js');
      if (flags.out !== undefined) {
        const free = await refuseLockedResultsDir(flags.atif);
        if (!free.ok) {
          process.exitCode = failWithInputError(free.error);
          return;
        }
      }
      process.exitCode = await (flags.out === undefined
        ? withResultsLock(flags.atif, () => exportTo(flags.atif, undefined))
        : exportTo(flags.atif, flags.out));
    });
}

/** Export the reps of `resultsDir` to `out` (default `<resultsDir>/atif`) and say what was written. */
async function exportTo(resultsDir: string, out: string | undefined): Promise<number> {
  const { exportAtif } = await import('../export/export-atif.js');
  const exported = await exportAtif(resultsDir, out === undefined ? {} : { outDir: out });
  if (!exported.ok) return failWithInputError(exported.error);
  const { index, outDir, indexFile } = exported.value;
  const count = index.trajectories.length;
  process.stdout.write(
    `wrote ${count} ATIF v1.4 trajector${count === 1 ? 'y' : 'ies'} to ${outDir} (listed in ${indexFile})\n`,
  );
  if (index.missing.length > 0) {
    process.stdout.write(
      `not exported: ${index.missing.length} scheduled rep(s) the results directory has not recorded: ${index.missing.join(', ')}\n`,
    );
  }
  return ExitCode.ok;
}
