import type { Command } from 'commander';
import { addCheckFlags, requestFromCheckFlags } from './check-flags.js';
import { ExitCode, failWithInputError } from './exit.js';

export interface ScoreReplyOptions {
  readonly scenario: string;
  readonly json?: boolean;
  /** The values of the flags packs add (check-flags.ts), by option name. */
  readonly [packFlag: string]: unknown;
}

/** Where the command writes; injectable so it can be tested in-process. */
export interface ScoreReplyOutput {
  readonly stdout: (text: string) => void;
}

/**
 * Run `redgreen score-reply`: shorthand for `redgreen check <scenario> --reply
 * <file>` that judges the reply checks only (every other check is reported
 * as not assessed). Returns the exit code.
 */
export async function runScoreReply(
  replyPath: string,
  options: ScoreReplyOptions,
  output: ScoreReplyOutput = { stdout: (text) => process.stdout.write(text) },
): Promise<number> {
  const { checkSession, formatCheckReport } = await import('../check/check-session.js');
  const scored = await checkSession({
    scenario: options.scenario,
    reply: replyPath,
    ...requestFromCheckFlags(options),
    command: 'score-reply',
  });
  if (!scored.ok) return failWithInputError(scored.error);
  output.stdout(
    options.json === true
      ? `${JSON.stringify(scored.value, null, 2)}\n`
      : formatCheckReport(scored.value),
  );
  return ExitCode.ok;
}

export function registerScoreReplyCommand(program: Command): void {
  const command = program
    .command('score-reply')
    .description(
      "score one standalone reply against a scenario's reply checks (shorthand for `redgreen check <scenario> " +
        '--reply <file>` judging only what a reply can show); file, git, transcript and dispatch checks are ' +
        'reported as not assessed. Exits 0 whatever the verdict, 2 on bad input.',
    )
    .argument(
      '<reply>',
      "reply file: the runner's reply.md (first line = tool_uses) or a bare reply; - reads it from stdin",
    )
    .requiredOption('--scenario <id>', 'scenario whose checks to apply (scenarios/<id>/), e.g. s1')
    .option('--json', 'print the score as one JSON object instead of text');
  addCheckFlags(command).action(async (reply: string, options: ScoreReplyOptions) => {
    process.exitCode = await runScoreReply(reply, options);
  });
}
