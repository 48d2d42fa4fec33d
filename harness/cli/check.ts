import type { Command } from 'commander';
import { addCheckFlags, requestFromCheckFlags } from './check-flags.js';
import { ExitCode, failWithInputError } from './exit.js';
import { collect } from './parse-flags.js';

interface CheckFlags {
  readonly transcript?: string[];
  readonly reply?: string;
  readonly repo?: string;
  readonly layout?: string;
  readonly skillDir?: string;
  readonly json?: boolean;
  /** The values of the flags packs add (check-flags.ts), by option name. */
  readonly [packFlag: string]: unknown;
}

/** `redgreen check <scenario>`: score one session that ran elsewhere. */
export function registerCheckCommand(program: Command): void {
  const command = program
    .command('check')
    .description(
      "score one session that ran elsewhere with a scenario's checks: its transcript (in any format `redgreen transcript` " +
        'reads, detected from content), its reply, and the repository it left. ' +
        'Checks whose evidence is not given are reported as not assessed and leave a verdict indeterminate only when ' +
        'they could decide it. Exits 0 whatever the verdict, 2 on bad input.',
    )
    .argument('<scenario>', 'a scenario id (scenarios/<id>/) or a scenario folder')
    .option(
      '--transcript <file>',
      "the session transcript (see `redgreen transcript --help` for the formats), or its directory; repeat it for one session's files (a session log and its subagents' logs); - reads it from stdin",
      collect,
    )
    .option(
      '--reply <file>',
      "the final reply (reply.md or bare text; - reads it from stdin); default: the transcript's final reply",
    )
    .option(
      '--repo <dir>',
      'the work tree the session left, for file and git checks (read, never changed)',
    )
    .option(
      '--layout <name>',
      "the fixture layout the session ran on: with --repo, the fixture is built afresh as the before-snapshot (default: no before-snapshot; every layout's facts merged)",
    )
    .option(
      '--skill-dir <dir>',
      "the skill directory the session was given, as its tool calls name it, so skill-read counts only that skill (default: read from the session's prompt in the transcript; unknown: skill-read is undecided)",
    )
    .option('--json', 'print the report as one JSON object');
  addCheckFlags(command).action(async (scenario: string, flags: CheckFlags) => {
    const { checkSession, formatCheckReport } = await import('../check/check-session.js');
    const report = await checkSession({
      scenario,
      transcript: flags.transcript,
      reply: flags.reply,
      repo: flags.repo,
      layout: flags.layout,
      skillDir: flags.skillDir,
      ...requestFromCheckFlags(flags),
    });
    if (!report.ok) {
      process.exitCode = failWithInputError(report.error);
      return;
    }
    process.stdout.write(
      flags.json === true
        ? `${JSON.stringify(report.value, null, 2)}\n`
        : formatCheckReport(report.value),
    );
    process.exitCode = ExitCode.ok;
  });
}
