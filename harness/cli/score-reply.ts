import type { Command } from 'commander';
import { ExitCode, failWithInputError } from './exit.js';

export interface ScoreReplyOptions {
  readonly scenario: string;
  readonly json?: boolean;
  readonly plan?: string;
}

/** Where the command writes; injectable so it can be tested in-process. */
export interface ScoreReplyOutput {
  readonly stdout: (text: string) => void;
}

/** Run `redgreen score-reply`; returns the exit code. */
export async function runScoreReply(
  replyPath: string,
  options: ScoreReplyOptions,
  output: ScoreReplyOutput = { stdout: (text) => process.stdout.write(text) },
): Promise<number> {
  const { formatStandaloneScore, scoreReplyFile } = await import('../score/score-reply.js');
  const scored = await scoreReplyFile({
    scenario: options.scenario,
    replyPath,
    ...(options.plan === undefined ? {} : { ownPlan: options.plan }),
  });
  if (!scored.ok) return failWithInputError(scored.error);
  output.stdout(
    options.json === true
      ? `${JSON.stringify(scored.value, null, 2)}\n`
      : formatStandaloneScore(scored.value),
  );
  return ExitCode.ok;
}

export function registerScoreReplyCommand(program: Command): void {
  program
    .command('score-reply')
    .description(
      "score one standalone reply against a scenario's reply criteria (first dispatch, tasks " +
        'claimed complete, ledgers adopted); with no transcript or snapshots, integrity, scope and ' +
        'resolution shape are not assessed. Exits 0 whatever the verdict, 2 on bad input.',
    )
    .argument(
      '<reply>',
      "reply file: the runner's reply.md (first line = tool_uses) or a bare reply",
    )
    .requiredOption(
      '--scenario <id>',
      'scenario whose scoring spec to apply (scenarios/<id>/scoring.json), e.g. s1',
    )
    .option('--json', 'print the score as one JSON object instead of text')
    .option(
      '--plan <path>',
      "the controller's own plan path (default: the scenario spec's ownPlan)",
    )
    .action(async (reply: string, options: ScoreReplyOptions) => {
      process.exitCode = await runScoreReply(reply, options);
    });
}
