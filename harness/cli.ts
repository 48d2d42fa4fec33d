#!/usr/bin/env node
/**
 * The redgreen command line. This file only wires commands together: each
 * command lives in `harness/cli/<name>.ts`, parses its own flags, and calls
 * into the rooms (fixture, model-server, session, campaign, score, report).
 */
import { discardOutputOnceClosed } from './cli/closed-output.js';
import { commandListHelp } from './cli/command-list.js';
import { requestedCommand } from './cli/command-table.js';
import { ExitCode } from './cli/exit-codes.js';

/** Columns commander would wrap help to on this stream: the terminal's, else 80. */
function helpWidth(stream: NodeJS.WriteStream): number {
  return stream.isTTY ? stream.columns : 80;
}

/**
 * Answers that need no argument parsing, so no commander: the command list
 * (`--help`, `-h`, `help`; bare `redgreen` is a usage error and gets it on
 * stderr) and the version. Undefined for anything else. Everything else is
 * imported only when needed: start-up time is every command's cost.
 */
async function answerWithoutParsing(args: readonly string[]): Promise<number | undefined> {
  const [only, ...rest] = args;
  if (rest.length > 0) return undefined;
  if (only === undefined) {
    process.stderr.write(commandListHelp(helpWidth(process.stderr)));
    return ExitCode.usage;
  }
  if (only === '--help' || only === '-h' || only === 'help') {
    process.stdout.write(commandListHelp(helpWidth(process.stdout)));
    return ExitCode.ok;
  }
  if (only === '--version' || only === '-V') {
    const { harnessVersion } = await import('./lib/package-root.js');
    process.stdout.write(`${harnessVersion()}\n`);
    return ExitCode.ok;
  }
  return undefined;
}

/**
 * `run` starts model sessions, git and sandboxes: it runs in a helper that
 * has left the terminal's process group, so a Ctrl-C reaches none of them
 * (cli/own-session.ts). This process, the one the terminal runs, only relays.
 */
function startsSessions(args: readonly string[]): boolean {
  return args.find((arg) => !arg.startsWith('-')) === 'run';
}

/**
 * The composition root: the one place that knows which packs ship. Every
 * command that parses arguments runs with them installed (harness/pack/).
 */
async function installShippedPacks(): Promise<void> {
  const [{ installPacks }, { SHIPPED_PACKS }] = await Promise.all([
    import('./pack/install-packs.js'),
    import('../packs/index.js'),
  ]);
  installPacks(SHIPPED_PACKS);
}

/** Commands whose help or flags the packs extend (policy names, check flags, recipe lines). */
const PACK_SHAPED_COMMANDS = new Set(['run', 'serve-model', 'check', 'score-reply']);

function packsShapeTheCommandLine(args: readonly string[]): boolean {
  if (args.includes('--help') || args.includes('-h') || args[0] === 'help') return true;
  const command = requestedCommand(args);
  return command !== undefined && PACK_SHAPED_COMMANDS.has(command.name);
}

async function main(argv: readonly string[]): Promise<number> {
  const answered = await answerWithoutParsing(argv.slice(2));
  if (answered !== undefined) return answered;
  if (startsSessions(argv.slice(2))) {
    const session = await import('./cli/own-session.js');
    if (session.isSessionHelper()) session.listenAsSessionHelper();
    else return session.runInOwnSession(argv);
  }
  const args = argv.slice(2);
  // Help and the commands whose options come from the packs install them before
  // parsing; every other command when its action starts, so a usage error costs none.
  if (packsShapeTheCommandLine(args)) await installShippedPacks();
  const { buildProgram, loadCommander } = await import('./cli/program.js');
  const commander = loadCommander();
  const program = await buildProgram(args, commander);
  const { LOADS_PACKS_ITSELF, setPackInstaller } = await import('./cli/pack-loader.js');
  setPackInstaller(installShippedPacks);
  program.hook('preAction', async (_program, action) => {
    if (!LOADS_PACKS_ITSELF.has(action.name())) await installShippedPacks();
  });
  try {
    await program.parseAsync(argv as string[]);
  } catch (error) {
    if (error instanceof commander.CommanderError) {
      // Asked for (--help, help <command>) or the version: exit 0.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') {
        return ExitCode.ok;
      }
      if (error.code === 'commander.help' && error.exitCode === 0) return ExitCode.ok;
      // Everything else is a usage error: one line, as every bad input gets.
      if (error.code !== 'commander.help') {
        const { usageErrorLine } = await import('./cli/usage-error.js');
        process.stderr.write(usageErrorLine(error.message, requestedCommand(argv.slice(2))?.name));
      }
      return ExitCode.usage;
    }
    throw error;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok;
}

// `redgreen ... | head` closes the pipe early: the work goes on, its output discarded.
discardOutputOnceClosed(process.stdout, () =>
  process.stderr.write('redgreen: stdout was closed; carrying on with its output discarded\n'),
);
discardOutputOnceClosed(process.stderr);

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  async (error: unknown) => {
    const { isDiskFull, diskFullLine } = await import('./lib/disk-full.js');
    if (isDiskFull(error)) {
      process.stderr.write(diskFullLine(error));
      process.exitCode = ExitCode.usage;
      return;
    }
    process.stderr.write(
      `redgreen: internal error (a bug, please report it): ${String(error instanceof Error ? (error.stack ?? error.message) : error)}\n`,
    );
    process.exitCode = 70;
  },
);
