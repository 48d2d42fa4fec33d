#!/usr/bin/env node
/**
 * The redgreen command line. This file only wires commands together: each
 * command lives in `harness/cli/<name>.ts`, parses its own flags, and calls
 * into the rooms (fixture, model-server, session, campaign, score, report).
 */
import { createRequire } from 'node:module';
import type * as Commander from 'commander';
import { COMMANDS, requestedCommand } from './cli/command-table.js';
import { ExitCode } from './cli/exit-codes.js';
import { harnessVersion } from './lib/package-root.js';

// commander is CommonJS. Loaded with `require`, it skips the ESM wrapper, which
// would parse its source once more to find the named exports: about 7 ms of
// every start-up (scripts/bench-cli.ts). Command modules import only its types.
const { Command, CommanderError } = createRequire(import.meta.url)('commander') as typeof Commander;

/**
 * The program with every command listed; only the command `args` ask for is
 * loaded and registered in full, the others stand in by name, usage and
 * summary (enough for the command list and for "did you mean").
 */
export async function buildProgram(args: readonly string[]): Promise<Commander.Command> {
  const program = new Command();
  program
    .name('redgreen')
    .description(
      'Evaluate agent skill text: run fresh model sessions against the released (RED) and the changed ' +
        '(GREEN) SKILL.md on truthful fixture repos, score what they decided, and gate the change on the numbers.',
    )
    .version(harnessVersion(), '-V, --version', 'print the redgreen version')
    .helpOption('-h, --help', 'show help for redgreen or a command')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText(
      'after',
      [
        '',
        "Run `redgreen <command> --help` for a command's options and exit codes.",
        'With no command, redgreen prints this list to stderr and exits 2 (a usage error).',
      ].join('\n'),
    )
    .exitOverride();

  const requested = requestedCommand(args);
  for (const entry of COMMANDS) {
    if (entry === requested) await entry.register(program);
    else program.command(entry.name).usage(entry.usage).summary(entry.summary);
  }
  return program;
}

async function main(argv: readonly string[]): Promise<number> {
  const program = await buildProgram(argv.slice(2));
  try {
    await program.parseAsync(argv as string[]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Asked for (--help, help <command>) or the version: exit 0.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') {
        return ExitCode.ok;
      }
      if (error.code === 'commander.help' && error.exitCode === 0) return ExitCode.ok;
      // Everything else, including bare `redgreen` (the command list printed to stderr
      // because no command was given), is a usage error; commander printed it.
      return ExitCode.usage;
    }
    throw error;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok;
}

// `redgreen ... | head` closes the pipe early: that is the reader's choice, not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `redgreen: internal error (a bug, please report it): ${String(error instanceof Error ? (error.stack ?? error.message) : error)}\n`,
    );
    process.exitCode = 70;
  },
);
