/**
 * `command-succeeds`: a shell command, run at rep time in the same sandbox
 * as the model's tools (with a timeout), exits 0. Its outcome is recorded in
 * the rep's `commands.json`, so a rescore reads it back. A command that was
 * not run, or could not start (no sandbox, exit 126/127: not executable, not
 * found), leaves the check undecided; a timeout fails.
 */
import { z } from 'zod';
import { required } from '../evidence.js';
import { nonBlank } from '../param-types.js';
import { defineVerb } from '../verb.js';

const NOT_STARTED_EXITS = new Set([126, 127]);
const TAIL = 200;

export const commandSucceeds = defineVerb({
  summary: "a shell command run at rep time in the tools' sandbox exits 0 within timeoutSeconds",
  params: z
    .object({
      command: nonBlank,
      timeoutSeconds: z.number().positive().max(600).default(60),
    })
    .strict(),
  reads: () => ['commands'],
  commands: (params) => [{ command: params.command, timeoutSeconds: params.timeoutSeconds }],
  run: (params, evidence) => {
    const outcome = required(evidence.commands, 'commands').find(
      (candidate) => candidate.command === params.command,
    );
    if (outcome === undefined) {
      return { outcome: 'undecided', detail: `\`${params.command}\` was not run at rep time` };
    }
    const tail = outcome.output.trim().slice(-TAIL);
    const said = tail === '' ? '' : `: ${tail}`;
    if (
      !outcome.started ||
      (outcome.exitCode !== null && NOT_STARTED_EXITS.has(outcome.exitCode))
    ) {
      return {
        outcome: 'undecided',
        observed: 'not started',
        detail: `\`${params.command}\` could not start${said}`,
      };
    }
    if (outcome.timedOut) {
      return {
        outcome: 'fail',
        observed: 'timed out',
        detail: `\`${params.command}\` timed out${said}`,
      };
    }
    return outcome.exitCode === 0
      ? { outcome: 'pass', observed: 'exit 0', detail: `\`${params.command}\` exited 0` }
      : {
          outcome: 'fail',
          observed: `exit ${outcome.exitCode ?? 'signal'}`,
          detail: `\`${params.command}\` exited ${outcome.exitCode ?? 'on a signal'}${said}`,
        };
  },
});
