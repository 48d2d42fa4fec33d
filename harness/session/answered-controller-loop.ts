/**
 * The controller's tool loop on the `messages` backend with a scripted user
 * (`stop: complete`): when the controller's reply ends on a question the
 * user answers, the answer is appended to the conversation as the next user
 * message (and to the transcript, in the controller's seat) and the loop
 * runs again, on the turns the session has left. It ends on a reply that
 * asks nothing, or asks past the user's answer limit, or when the loop ends
 * any other way (a stop after a tool turn, the turn limit, a cut-short
 * reply). The user's declared turns (harness/score/user-turns.ts) are sent
 * the same way, after any reply. Without a scripted user it is the plain loop.
 *
 * Each run after an answer gets the whole turn budget again: the Claude
 * Code engine counts `maxTurns` per user message (measured on 2.1.332: a
 * session asking once under maxTurns 2 completes in 3 turns), and both
 * backends count alike. maxAnswers bounds how many runs there are.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { CONTROLLER_SEAT } from '../score/seat-record.js';
import { replyAnswerMarker, type ScriptedUserSession } from './scripted-user-session.js';
import type { ToolLoopResult } from './tool-loop.js';
import type { TranscriptSink } from './transcript-sink.js';

export async function runAnsweredControllerLoop(input: {
  readonly user: ScriptedUserSession | undefined;
  /** The controller's conversation; the loop and the answers append to it. */
  readonly messages: Anthropic.MessageParam[];
  /** The turn budget of each run (the session's maxTurns). */
  readonly maxTurns: number;
  readonly transcript: TranscriptSink;
  readonly sessionId: string;
  /** One run of the controller's tool loop with at most `maxTurns` turns. */
  readonly run: (maxTurns: number) => Promise<ToolLoopResult>;
}): Promise<ToolLoopResult> {
  let turns = 0;
  for (;;) {
    const loop = await input.run(input.maxTurns);
    turns += loop.turns;
    const result = { ...loop, turns };
    if (input.user === undefined || loop.end.kind !== 'reply' || loop.end.cutShort !== undefined) {
      return result;
    }
    const answer = await input.user.answerReply(loop.end.text, CONTROLLER_SEAT);
    if (answer === undefined) return result;
    const content: Anthropic.TextBlockParam[] = [{ type: 'text', text: answer.text }];
    input.messages.push({ role: 'user', content });
    input.transcript.write({
      type: 'user',
      message: { role: 'user', content },
      parent_tool_use_id: null,
      session_id: input.sessionId,
      seat: CONTROLLER_SEAT,
      ...replyAnswerMarker(answer),
    });
  }
}
