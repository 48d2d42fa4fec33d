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
 * After each reply the user may also send one of its declared turns
 * (harness/score/user-turns.ts says which), and every message after the
 * prompt, answer or turn, starts a conversation turn recorded as a
 * `user_turn` event with the reply it follows, so each turn's calls and
 * reply can be scored on their own.
 *
 * A `complete` session always has a scripted user: without a `user` block
 * it gives the default answer, at most DEFAULT_MAX_ANSWERS times.
 *
 * With a player (played-user.ts: a model playing the user on a live run)
 * the answers and the declared turns' words are the player's; which turn is
 * due, the answer limit and `last` stay the script's, and a compaction turn
 * is sent as it is. The player sees only the conversation since the prompt
 * (the replies and questions, and what the user said). When the player
 * fails, nothing more is said (the session ends there) and `failure` holds
 * why, for the backend to record the rep indeterminate.
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
import { compactTurn, turnAfterReply, turnText, type UserTurn } from '../score/user-turns.js';
import type { SeenMessage, UserPlayer } from './played-user.js';
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
 * What the user sends after a reply: an answer to the question it ended on,
 * or one of the user's declared turns. The transcript's copy of that message
 * carries `answers_question` (the question's id) or `user_turn` (the turn's
 * id), so no reader takes it for the session's prompt.
 */
export type ReplyAnswer =
  | { readonly text: string; readonly questionId: string; readonly turnId?: undefined }
  | {
      readonly text: string;
      readonly turnId: string;
      readonly questionId?: undefined;
      /** The turn asks the engine to compact its context (user-turns.ts). */
      readonly compact: boolean;
    };

/** The marker on the transcript's copy of a message the user sent after a reply. */
export function replyAnswerMarker(
  answer: ReplyAnswer,
): { answers_question: string } | { user_turn: string } {
  return answer.turnId === undefined
    ? { answers_question: answer.questionId }
    : { user_turn: answer.turnId };
}

export class ScriptedUserSession {
  readonly #user: ScriptedUser;
  readonly #transcript: TranscriptSink;
  readonly #sessionId: () => string;
  readonly #player: UserPlayer | undefined;
  readonly #onFailure: ((reason: string) => void) | undefined;
  #asked = 0;
  #answered = 0;
  readonly #byRule = new Map<string, number>();
  readonly #sent = new Set<string>();
  /** What the user has seen since the prompt, for a player. */
  readonly #seen: SeenMessage[] = [];
  /** The conversation turn under way (1: the prompt's). */
  #turn = 1;
  /** A last turn was sent: its reply ends the session. */
  #lastSent = false;
  #failure: string | undefined;

  /**
   * `sessionId` names the session in each record (the engine's id is known
   * only once it runs); `player`, when given, plays the user (played-user.ts),
   * and `onFailure` hears when it fails.
   */
  constructor(
    user: ScriptedUser,
    transcript: TranscriptSink,
    sessionId: () => string,
    played?: { readonly player: UserPlayer; readonly onFailure?: (reason: string) => void },
  ) {
    this.#user = user;
    this.#transcript = transcript;
    this.#sessionId = sessionId;
    this.#player = played?.player;
    this.#onFailure = played?.onFailure;
  }

  /** Why the model playing the user gave no words, when it failed; else undefined. */
  get failure(): string | undefined {
    return this.#failure;
  }

  #write(event: UserEvent): void {
    this.#transcript.write({ ...event, session_id: this.#sessionId() });
  }

  #fail(reason: string): void {
    if (this.#failure !== undefined) return;
    this.#failure = reason;
    this.#onFailure?.(reason);
  }

  /** Record that the session has a scripted user (call once, at the start). */
  start(): void {
    this.#write({
      type: 'system',
      subtype: 'user_script',
      rules: this.#user.answers.map((rule) => rule.id),
      maxAnswers: this.#user.maxAnswers,
      played_by: this.#player?.model ?? null,
    });
  }

  /** Put one question to the user: recorded with its answer (or none, past the limit). */
  async ask(
    via: 'tool' | 'reply',
    text: string,
    seat: SeatRecord,
    toolUseId: string | null,
    options: readonly string[] = [],
  ): Promise<ScriptedAnswer> {
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
    const answer = await this.#answer(text, options);
    if (answer.answer !== null) this.#answered += 1;
    if (answer.source.kind === 'rule') {
      this.#byRule.set(answer.source.id, (this.#byRule.get(answer.source.id) ?? 0) + 1);
    }
    this.#write({
      type: 'system',
      subtype: 'user_answer',
      question_id: id,
      answer: answer.answer,
      source: answer.source.kind,
      rule: answer.source.kind === 'rule' ? answer.source.id : null,
      played_by: answer.source.kind === 'played' ? answer.source.model : null,
    });
    return answer;
  }

  /** The script's answer, or the player's in its place (the script's limit holds for both). */
  async #answer(question: string, options: readonly string[]): Promise<ScriptedAnswer> {
    const scripted = scriptedAnswer(this.#user, question, this.#answered, this.#byRule);
    const player = this.#player;
    if (player === undefined || scripted.answer === null) return scripted;
    if (this.#failure !== undefined) return { answer: null, source: { kind: 'unanswered' } };
    const played = await player.say(this.#seen, { kind: 'question', question, options });
    if (!played.ok) {
      this.#fail(played.error);
      return { answer: null, source: { kind: 'unanswered' } };
    }
    return { answer: played.value, source: { kind: 'played', model: player.model } };
  }

  /**
   * Answer a question tool call whose input is valid (each of its
   * questions, in order). None answered: the call is refused.
   */
  async answerQuestionCall(
    toolUseId: string,
    input: unknown,
    seat: SeatRecord,
  ): Promise<QuestionCallAnswer> {
    const parsed = askUserQuestionInputSchema.parse(input);
    const answers: Record<string, string> = {};
    for (const question of parsed.questions) {
      const options = question.options.map((option) => option.label);
      this.#seen.push({
        from: 'session',
        text: `${question.question}${options.length === 0 ? '' : ` (${options.join(' / ')})`}`,
      });
      const given = await this.ask('tool', question.question, seat, toolUseId, options);
      if (given.answer !== null) {
        answers[question.question] = given.answer;
        this.#seen.push({ from: 'user', text: given.answer });
      }
    }
    return Object.keys(answers).length === 0
      ? { answers, result: UNANSWERED_RESULT, isError: true }
      : { answers, result: questionToolResult(answers), isError: false };
  }

  /**
   * What the user sends after a reply (user-turns.ts: a declared turn whose
   * pattern the reply matches, else the answer to the question it ends on,
   * else the next unconditional turn); undefined when nothing (the session
   * then ends there), and always after the reply to a last turn.
   */
  async answerReply(reply: string, seat: SeatRecord): Promise<ReplyAnswer | undefined> {
    if (this.#lastSent || this.#failure !== undefined) return undefined;
    this.#seen.push({ from: 'session', text: reply });
    const turns = this.#user.turns;
    const conditional = turnAfterReply(turns, this.#sent, reply, 'conditional');
    if (conditional !== undefined) return this.#sendTurn(conditional, reply);
    const question = closingQuestion(reply);
    if (question !== undefined) {
      const given = await this.ask('reply', question, seat, null);
      if (given.answer === null) return undefined;
      const answer: ReplyAnswer = { text: given.answer, questionId: `q-${this.#asked}` };
      this.#startTurn(answer, reply, given.source.kind === 'played' ? given.source.model : null);
      return answer;
    }
    const next = turnAfterReply(turns, this.#sent, reply, 'unconditional');
    return next === undefined ? undefined : this.#sendTurn(next, reply);
  }

  async #sendTurn(turn: UserTurn, reply: string): Promise<ReplyAnswer | undefined> {
    this.#sent.add(turn.id);
    if (turn.last === true) this.#lastSent = true;
    const compact = compactTurn(turn);
    let text = turnText(turn);
    let playedBy: string | null = null;
    if (this.#player !== undefined && !compact) {
      const played = await this.#player.say(this.#seen, { kind: 'turn', gist: text });
      if (!played.ok) {
        this.#fail(played.error);
        return undefined;
      }
      text = played.value;
      playedBy = this.#player.model;
    }
    const answer: ReplyAnswer = { text, turnId: turn.id, compact };
    this.#startTurn(answer, reply, playedBy);
    return answer;
  }

  #startTurn(answer: ReplyAnswer, reply: string, playedBy: string | null): void {
    this.#turn += 1;
    // What the user said is part of what a player sees next; a compaction command is not said.
    if (answer.turnId === undefined || !answer.compact) {
      this.#seen.push({ from: 'user', text: answer.text });
    }
    this.#write({
      type: 'system',
      subtype: 'user_turn',
      turn: this.#turn,
      turn_id: answer.turnId ?? null,
      question_id: answer.questionId ?? null,
      reply,
      text: answer.text,
      played_by: playedBy,
    });
  }
}
