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

/** The largest reply score-reply reads: replies are a few KB; this leaves room for pasted logs. */
const MAX_REPLY_BYTES = 4 * 1024 * 1024;

/** Run `redgreen score-reply`; returns the exit code. */
export async function runScoreReply(
  replyPath: string,
  options: ScoreReplyOptions,
  output: ScoreReplyOutput = { stdout: (text) => process.stdout.write(text) },
): Promise<number> {
  const { loadScoringSpec } = await import('../score/scoring-spec.js');
  const { formatStandaloneScore, scoreStandaloneReply } = await import('../score/score-reply.js');
  const { readTextInput } = await import('../lib/text-input.js');
  const spec = loadScoringSpec(options.scenario);
  if (!spec.ok) return failWithInputError(spec.error);
  if (options.plan !== undefined) {
    // The plans the scenario's fixture holds, as its scoring spec declares them.
    const plans = [spec.value.ownPlan, ...spec.value.knownForeignPlans];
    if (!plans.includes(options.plan)) {
      return failWithInputError({
        kind: 'input',
        input: `--plan ${options.plan}`,
        problem:
          options.plan.trim() === ''
            ? 'is empty'
            : `is not a plan of the ${options.scenario} fixture`,
        fix: `use one of ${plans.join(', ')}, or leave --plan off for ${spec.value.ownPlan}`,
      });
    }
  }
  const reply = await readTextInput(replyPath, {
    maxBytes: MAX_REPLY_BYTES,
    what: 'a reply',
    fix: 'pass a reply file (reply.md or a bare reply), or - to read it from stdin',
  });
  if (!reply.ok) return failWithInputError(reply.error);
  const scored = scoreStandaloneReply(spec.value, reply.value, options.plan);
  output.stdout(
    options.json === true ? `${JSON.stringify(scored, null, 2)}\n` : formatStandaloneScore(scored),
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
      "reply file: the runner's reply.md (first line = tool_uses) or a bare reply; - reads it from stdin",
    )
    .requiredOption(
      '--scenario <id>',
      'scenario whose scoring spec to apply (scenarios/<id>/scoring.json), e.g. s1',
    )
    .option('--json', 'print the score as one JSON object instead of text')
    .option(
      '--plan <path>',
      "the controller's own plan path, one of the scenario fixture's plans (default: the scenario spec's ownPlan)",
    )
    .action(async (reply: string, options: ScoreReplyOptions) => {
      process.exitCode = await runScoreReply(reply, options);
    });
}
