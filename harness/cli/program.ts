/**
 * The commander program for a command line that needs parsing: every command
 * listed, the requested one loaded and registered in full. cli.ts answers
 * `--help` and `--version` without it (command-list.ts).
 */
import { createRequire } from 'node:module';
import type * as Commander from 'commander';
import { harnessVersion } from '../lib/package-root.js';
import {
  HELP_OPTION,
  PROGRAM_DESCRIPTION,
  PROGRAM_HELP_AFTER,
  VERSION_OPTION,
} from './command-list.js';
import { COMMANDS, requestedCommand } from './command-table.js';

/**
 * commander, loaded when a command line needs parsing. It is CommonJS: with
 * `require` it skips the ESM wrapper, which would parse its source once more
 * to find the named exports (about 7 ms of a start-up; scripts/bench-cli.ts).
 * Command modules import only its types.
 */
export function loadCommander(): typeof Commander {
  return createRequire(import.meta.url)('commander') as typeof Commander;
}

/**
 * The program with every command listed; only the command `args` ask for is
 * loaded and registered in full, the others stand in by name, usage and
 * summary (enough for the command list and for "did you mean").
 */
export async function buildProgram(
  args: readonly string[],
  commander: typeof Commander = loadCommander(),
): Promise<Commander.Command> {
  const program = new commander.Command();
  program
    .name('redgreen')
    .description(PROGRAM_DESCRIPTION)
    .version(harnessVersion(), VERSION_OPTION.flags, VERSION_OPTION.description)
    .helpOption(HELP_OPTION.flags, HELP_OPTION.description)
    // Parse errors are printed by cli.ts, one line each (cli/usage-error.ts).
    .configureOutput({ outputError: () => undefined })
    .addHelpText('after', PROGRAM_HELP_AFTER)
    .exitOverride();

  const requested = requestedCommand(args);
  for (const entry of COMMANDS) {
    if (entry === requested) await entry.register(program);
    else program.command(entry.name).usage(entry.usage).summary(entry.summary);
  }
  return program;
}
