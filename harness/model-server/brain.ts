/**
 * Brains that are data, beside the built-in policies: a policy file's steps
 * (data-policy/) or a recorded session replayed (replay/). The server is
 * given them by name and answers `scripted:<name>` with them. Each is run as
 * a program replayed against the conversation (policies/next-turn.ts), from
 * what the request holds only: loading the file (and a replay's transcript)
 * happened before the server started.
 *
 * A brain that cannot go on (a replay met an outcome its recording never
 * saw, a capture found nothing) answers with an API error whose message
 * starts with BRAIN_FAILURE_MARK; the runner reads it back with
 * brainFailureIn and records the rep indeterminate at stage `brain` with
 * that reason, never a pass or a fail.
 */
import { sha256Hex } from '../lib/hash.js';
import { ok, type Result } from '../lib/result.js';
import type { ConversationHistory } from './conversation.js';
import { conversationKey } from './conversation-key.js';
import type { ConversationText } from './conversation-text.js';
import type { BrainAnswer } from './data-policy/brain-program.js';
import { dataPolicyProgram } from './data-policy/interpret.js';
import type { PolicyFile } from './data-policy/policy-schema.js';
import { sessionView } from './data-policy/session-view.js';
import { type ReplayDivergence, type ReplayedTurn, replayProgram } from './policies/next-turn.js';
import type { Recording } from './replay/recording.js';
import { replayProgram as recordedSession } from './replay/replay-program.js';

export type Brain =
  | { readonly kind: 'policy-file'; readonly name: string; readonly file: PolicyFile }
  | {
      readonly kind: 'replay';
      readonly name: string;
      /** The recording that answers a session: the same one for every session, or one per rep id. */
      readonly recordingFor: (sessionKey: string) => Recording | undefined;
    };

export interface BrainRequest {
  readonly sessionKey: string;
  readonly conversation: ConversationText;
  readonly history: ConversationHistory;
  readonly offeredTools: ReadonlySet<string>;
}

export function nextBrainTurn(
  brain: Brain,
  request: BrainRequest,
): Result<ReplayedTurn<BrainAnswer>, ReplayDivergence> {
  const view = sessionView(request.conversation, request.history);
  if (brain.kind === 'replay') {
    const recording = brain.recordingFor(request.sessionKey);
    if (recording === undefined) {
      return ok({
        kind: 'done',
        step: 0,
        value: {
          kind: 'failure',
          message: `replay diverged at turn 1: there is no recording of session ${request.sessionKey} (the recorded run has none it could read, or it is a subagent's, which is not replayed)`,
        },
      });
    }
    return replayProgram(recordedSession(recording, view, request.offeredTools), {
      key: request.sessionKey,
      label: brain.name,
      exchanges: request.history.exchanges,
    });
  }
  const seat = (brain.file.seats ?? []).some((candidate) =>
    new RegExp(candidate.prompt, 'mi').test(view.prompt),
  );
  return replayProgram(
    dataPolicyProgram(`scripted:${brain.name}`, brain.file, view, request.offeredTools),
    {
      // Claude Code sends its subagents' requests under the controller's session key.
      key: conversationKey({
        sessionKey: request.sessionKey,
        seat: seat ? sha256Hex(view.prompt).slice(0, 16) : undefined,
        userText: request.conversation.userMessages.flat().join('\n'),
      }),
      label: brain.name,
      exchanges: request.history.exchanges,
    },
  );
}

export const BRAIN_FAILURE_MARK = '[redgreen brain] ';

/** The API error message of a brain failure: one line, no quotes or backslashes (it travels inside JSON). */
export function brainFailureMessage(message: string): string {
  return `${BRAIN_FAILURE_MARK}${message.replace(/["\\]/g, "'").replace(/\s*\n\s*/g, ' ')}`;
}

/** The reason a brain failure left in an error text (a session's API error), if it holds one. */
export function brainFailureIn(text: string): string | undefined {
  const at = text.indexOf(BRAIN_FAILURE_MARK);
  if (at < 0) return undefined;
  const rest = text.slice(at + BRAIN_FAILURE_MARK.length);
  const end = rest.search(/["\n]/);
  return (end < 0 ? rest : rest.slice(0, end)).trim();
}
