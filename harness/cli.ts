#!/usr/bin/env node
/**
 * The redgreen command line. This file only wires commands together: each
 * command lives in `harness/cli/<name>.ts`, parses its own flags, and calls
 * into the rooms (fixture, model-server, session, campaign, score, report).
 */
import { Command, CommanderError } from 'commander';
import { discardOutputOnceClosed } from './cli/closed-output.js';
import { registerDoctorCommand } from './cli/doctor.js';
import { ExitCode } from './cli/exit.js';
import { registerExportCommand } from './cli/export.js';
import { registerFixtureCommand } from './cli/fixture.js';
import {
  registerGateCommand,
  registerMergeCommand,
  registerReportCommand,
  registerScoreCommand,
} from './cli/report-commands.js';
import { registerRunCommand } from './cli/run.js';
import { registerScoreReplyCommand } from './cli/score-reply.js';
import { registerServeModelCommand } from './cli/serve-model.js';
import { harnessVersion } from './lib/package-root.js';

export function buildProgram(): Command {
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
    .exitOverride();

  registerRunCommand(program);
  registerFixtureCommand(program);
  registerServeModelCommand(program);
  registerScoreCommand(program);
  registerScoreReplyCommand(program);
  registerReportCommand(program);
  registerGateCommand(program);
  registerMergeCommand(program);
  registerExportCommand(program);
  registerDoctorCommand(program);
  for (const command of program.commands) {
    if (command.summary() === '') command.summary(firstSentence(command.description()));
  }
  return program;
}

/** The command list shows each command's first sentence; `<command> --help` shows all of it. */
function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.;](\s|$)/);
  return end === -1 ? flat : flat.slice(0, end);
}

async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv as string[]);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') {
        return ExitCode.ok;
      }
      if (error.code === 'commander.help') return ExitCode.ok;
      // Commander already printed the one-line message; usage errors exit 2.
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
  (error: unknown) => {
    process.stderr.write(
      `redgreen: internal error (a bug, please report it): ${String(error instanceof Error ? (error.stack ?? error.message) : error)}\n`,
    );
    process.exitCode = 70;
  },
);
