/**
 * The scripted user at work in one session (`stop: complete`): it answers
 * the controller's questions by the scenario's `user` block
 * (harness/score/scripted-user.ts) and records each question and answer in
 * the transcript (harness/score/user-question-record.ts). Both backends use
 * it, so a model gets the same answer text on either: a question tool call
 * (`AskUserQuestion`) is answered in the tool result Claude Code 2.1.332
 * writes for answered questions (questionToolResult); a reply that ends on a
 * question (extractors/language/closing-question.ts) gets the answer, as it
 * is, as the next user message.
 *
 * A `complete` session always has a scripted user: without a `user` block
 * it gives the default answer, at most DEFAULT_MAX_ANSWERS times.
 */

import { closingQuestion } from '../score/extractors/language/closing-question.js';
import {
  type ScriptedAnswer,
  type ScriptedUser,
  scriptedAnswer,
  scriptedUserSchema,
} from '../score/scripted-user.js';
import type { SeatRecord } from '../score/seat-record.js';
import type { StopMode } from '../score/stop-mode.js';
import type { UserEvent } from '../score/user-question-record.js';
import { askUserQuestionInputSchema } from './tools/dispatch-tools.js';
import type { TranscriptSink } from './transcript-sink.js';

/** The result a question call gets when the user answered none of its questions. */
export const UNANSWERED_RESULT = 'The user did not answer.';

/**
 * The tool result Claude Code gives the model for an AskUserQuestion call
 * whose `answers` were filled in (measured on 2.1.332): each answered
 * question and its answer, quoted.
 */
export function questionToolResult(answers: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(answers)
    .map(([question, answer]) => `"${question}"="${answer}"`)
    .join(', ');
  return `The user answered: ${pairs}. Read the answers carefully \u2014 they may request clarification, changes, or that you not proceed \u2014 and follow what they actually say.`;
}

/** The scripted user of a session in `stop` mode: the scenario's, the defaults, or none. */
export function scriptedUserFor(
  stop: StopMode,
  user: ScriptedUser | undefined,
): ScriptedUser | undefined {
  if (stop !== 'complete') return undefined;
  return user ?? scriptedUserSchema.parse({});
}

/** What the user said to one question tool call. */
export interface QuestionCallAnswer {
  /** By question text, the answers given (questions past the answer limit left out). */
  readonly answers: Readonly<Record<string, string>>;
  /** The tool result the model gets, as the engine words it. */
  readonly result: string;
  readonly isError: boolean;
}

/**
 * The answer to a reply that ended on a question: its text, sent as the next
 * user message, and the question it answers. The transcript's copy of that
 * message carries `answers_question` (the question's id), so no reader takes
 * it for the session's prompt.
 */
export interface ReplyAnswer {
  readonly text: string;
  readonly questionId: string;
}

export class ScriptedUserSession {
  readonly #user: ScriptedUser;
  readonly #transcript: TranscriptSink;
  readonly #sessionId: () => string;
  #asked = 0;
  #answered = 0;

  /** `sessionId` names the session in each record (the engine's id is known only once it runs). */
  constructor(user: ScriptedUser, transcript: TranscriptSink, sessionId: () => string) {
    this.#user = user;
    this.#transcript = transcript;
    this.#sessionId = sessionId;
  }

  #write(event: UserEvent): void {
    this.#transcript.write({ ...event, session_id: this.#sessionId() });
  }

  /** Record that the session has a scripted user (call once, at the start). */
  start(): void {
    this.#write({
      type: 'system',
      subtype: 'user_script',
      rules: this.#user.answers.map((rule) => rule.id),
      maxAnswers: this.#user.maxAnswers,
    });
  }

  /** Put one question to the user: recorded with its answer (or none, past the limit). */
  ask(
    via: 'tool' | 'reply',
    text: string,
    seat: SeatRecord,
    toolUseId: string | null,
  ): ScriptedAnswer {
    this.#asked += 1;
    const id = `q-${this.#asked}`;
    this.#write({
      type: 'system',
      subtype: 'user_question',
      question_id: id,
      via,
      text,
      seat,
      tool_use_id: toolUseId,
    });
    const answer = scriptedAnswer(this.#user, text, this.#answered);
    if (answer.answer !== null) this.#answered += 1;
    this.#write({
      type: 'system',
      subtype: 'user_answer',
      question_id: id,
      answer: answer.answer,
      source: answer.source.kind,
      rule: answer.source.kind === 'rule' ? answer.source.id : null,
    });
    return answer;
  }

  /**
   * Answer a question tool call whose input is valid (each of its
   * questions, in order). None answered: the call is refused.
   */
  answerQuestionCall(toolUseId: string, input: unknown, seat: SeatRecord): QuestionCallAnswer {
    const parsed = askUserQuestionInputSchema.parse(input);
    const answers: Record<string, string> = {};
    for (const question of parsed.questions) {
      const given = this.ask('tool', question.question, seat, toolUseId);
      if (given.answer !== null) answers[question.question] = given.answer;
    }
    return Object.keys(answers).length === 0
      ? { answers, result: UNANSWERED_RESULT, isError: true }
      : { answers, result: questionToolResult(answers), isError: false };
  }

  /**
   * The answer to a reply, when it ends on a question and the user still
   * answers; undefined when it does not (the session then ends there).
   */
  answerReply(reply: string, seat: SeatRecord): ReplyAnswer | undefined {
    const question = closingQuestion(reply);
    if (question === undefined) return undefined;
    const given = this.ask('reply', question, seat, null);
    return given.answer === null
      ? undefined
      : { text: given.answer, questionId: `q-${this.#asked}` };
  }
}
