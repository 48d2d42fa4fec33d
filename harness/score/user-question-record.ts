/**
 * The scripted user's records in a transcript, one schema for the session
 * room that writes them and the score room that reads them back. Three
 * `system` events:
 *
 * - `user_script`: at the start of a session that has a scripted user (its
 *   rule ids and answer limit), so a transcript without questions says "none
 *   asked" rather than "not recorded";
 * - `user_question`: a question put to the human (`via: tool`, an
 *   AskUserQuestion question, with its tool_use id; `via: reply`, a reply
 *   that ends on a question), its text and the seat that asked;
 * - `user_answer`: what the scripted user said to it (`source`: the rule by
 *   id, the default, or `unanswered` once maxAnswers answers were given;
 *   `played` with `played_by`, the model id, when a model played the user
 *   on a live run, harness/session/played-user.ts).
 *
 * - `user_turn`: the user sent the session another message after a reply,
 *   starting conversation turn `turn` (the prompt's is 1): an answer to the
 *   reply's question (`question_id`) or one of the user's declared turns
 *   (`turn_id`, user-turns.ts), with the reply it follows; `played_by`
 *   names the model that worded it when a model played the user.
 *
 * `user_script` says who plays the user: `played_by` (the model id) when a
 * model does, null or absent when the script does.
 *
 * The answer to a reply is also in the transcript as the user message the
 * session got, marked `answers_question: <question_id>`; a declared turn's
 * message is marked `user_turn: <turn_id>`.
 *
 * readQuestions validates each record; a record that does not match its
 * schema, or an answer to no recorded question, is a malformed line (never
 * fatal), as transcripts/claude-message-seats.ts treats seat records.
 */
import { z } from 'zod';
import { parseJsonLine } from '../lib/json-line.js';
import { seatRecordSchema } from './seat-record.js';
import type { MalformedLine } from './transcripts/malformed-line.js';

export const QUESTION_VIAS = ['tool', 'reply'] as const;
export const ANSWER_SOURCES = ['rule', 'default', 'unanswered', 'played'] as const;
export const USER_EVENT_SUBTYPES = [
  'user_script',
  'user_question',
  'user_answer',
  'user_turn',
] as const;

export const userEventSchema = z.discriminatedUnion('subtype', [
  z.looseObject({
    type: z.literal('system'),
    subtype: z.literal('user_script'),
    rules: z.array(z.string().min(1)),
    maxAnswers: z.number().int().nonnegative(),
    /** The model playing the user (`user.played` on a live run); null or absent: the script plays. */
    played_by: z.string().min(1).nullable().optional(),
  }),
  z.looseObject({
    type: z.literal('system'),
    subtype: z.literal('user_question'),
    /** `q-1`, `q-2`, … in the order the questions were asked. */
    question_id: z.string().min(1),
    via: z.enum(QUESTION_VIAS),
    text: z.string(),
    seat: seatRecordSchema,
    /** The AskUserQuestion call that asked it; null for a reply. */
    tool_use_id: z.string().min(1).nullable(),
  }),
  z.looseObject({
    type: z.literal('system'),
    subtype: z.literal('user_answer'),
    question_id: z.string().min(1),
    answer: z.string().nullable(),
    source: z.enum(ANSWER_SOURCES),
    /** The answer rule's id when `source` is `rule`; else null. */
    rule: z.string().min(1).nullable(),
    /** The model that gave the answer when `source` is `played`. */
    played_by: z.string().min(1).nullable().optional(),
  }),
  z.looseObject({
    type: z.literal('system'),
    subtype: z.literal('user_turn'),
    /** The conversation turn this message starts: 2, 3, … (the prompt's is 1). */
    turn: z.number().int().min(2),
    /** The declared turn's id (user-turns.ts); null for an answer to a reply's question. */
    turn_id: z.string().min(1).nullable(),
    /** The question this message answers; null for a declared turn. */
    question_id: z.string().min(1).nullable(),
    /** The reply that ended the turn before. */
    reply: z.string(),
    /** The message sent. */
    text: z.string(),
    /** The model that worded the message when a model played the user; null or absent: the script. */
    played_by: z.string().min(1).nullable().optional(),
  }),
]);
export type UserEvent = z.infer<typeof userEventSchema>;

/** One question the session asked, with the answer it got. */
export interface RecordedQuestion {
  readonly id: string;
  readonly via: (typeof QUESTION_VIAS)[number];
  readonly text: string;
  /** `controller`, or the agent id of the subagent that asked. */
  readonly seat: string;
  readonly toolUseId: string | null;
  /**
   * The id of the last tool call the transcript records before the question
   * (null when none came before it): where a question asked in a reply stands
   * among the session's calls, for ordering checks.
   */
  readonly afterCall?: string | null | undefined;
  /** The answer given; null when none was (unanswered, or no answer record). */
  readonly answer: string | null;
  readonly source: (typeof ANSWER_SOURCES)[number] | null;
  readonly rule: string | null;
  /** The model that played the answer (`source: played`); else null. */
  readonly playedBy?: string | null | undefined;
}

/**
 * A conversation turn after the first: what started it and where it stands
 * among the session's calls.
 */
export interface RecordedTurn {
  /** 2, 3, … (turn 1 is the prompt's). */
  readonly turn: number;
  /** The declared turn's id, or null for an answer to a reply's question. */
  readonly id: string | null;
  readonly questionId: string | null;
  /** The reply that ended the turn before this one. */
  readonly reply: string;
  readonly text: string;
  /** The model that worded the message when a model played the user; else null. */
  readonly playedBy?: string | null | undefined;
  /** The id of the last tool call before the turn began (null when none): later calls are its. */
  readonly afterCall: string | null;
}

export interface QuestionsRead {
  /** Undefined when the transcript records no scripted user (nothing can be said about answers). */
  readonly questions: readonly RecordedQuestion[] | undefined;
  /** The turns after the first, in order; undefined when the transcript records no scripted user. */
  readonly turns: readonly RecordedTurn[] | undefined;
  readonly malformed: readonly MalformedLine[];
}

/** The questions and answers a JSON-lines transcript records. */
export function readQuestions(text: string): QuestionsRead {
  const malformed: MalformedLine[] = [];
  const questions: RecordedQuestion[] = [];
  const turns: RecordedTurn[] = [];
  let scripted = false;
  let lastCall: string | null = null;
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line.includes('"tool_use"')) lastCall = lastToolUseId(line) ?? lastCall;
    if (line === '' || !line.includes('"user_')) continue;
    const value = parseJsonLine(line);
    if (typeof value !== 'object' || value === null) continue;
    const message = value as Record<string, unknown>;
    if (
      message.type !== 'system' ||
      !(USER_EVENT_SUBTYPES as readonly unknown[]).includes(message.subtype)
    ) {
      continue;
    }
    const event = userEventSchema.safeParse(message);
    if (!event.success) {
      const issue = event.error.issues[0];
      const where = issue === undefined ? '' : `${issue.path.map(String).join('.')}: `;
      malformed.push({
        line: index + 1,
        problem: `${String(message.subtype)} event: ${where}${issue?.message ?? 'does not match its schema'}`,
      });
      continue;
    }
    const data = event.data;
    if (data.subtype === 'user_script') {
      scripted = true;
    } else if (data.subtype === 'user_turn') {
      turns.push({
        turn: data.turn,
        id: data.turn_id,
        questionId: data.question_id,
        reply: data.reply,
        text: data.text,
        ...(typeof data.played_by === 'string' ? { playedBy: data.played_by } : {}),
        afterCall: lastCall,
      });
    } else if (data.subtype === 'user_question') {
      questions.push({
        id: data.question_id,
        via: data.via,
        text: data.text,
        seat: data.seat.kind === 'controller' ? 'controller' : data.seat.agentId,
        toolUseId: data.tool_use_id,
        afterCall: lastCall,
        answer: null,
        source: null,
        rule: null,
      });
    } else {
      const at = questions.findIndex((question) => question.id === data.question_id);
      const asked = questions[at];
      if (asked === undefined) {
        malformed.push({
          line: index + 1,
          problem: `user_answer event for ${data.question_id}, which no user_question asked`,
        });
        continue;
      }
      questions[at] = {
        ...asked,
        answer: data.answer,
        source: data.source,
        rule: data.rule,
        ...(typeof data.played_by === 'string' ? { playedBy: data.played_by } : {}),
      };
    }
  }
  const recorded = scripted || questions.length > 0 || turns.length > 0;
  return {
    questions: recorded ? questions : undefined,
    turns: recorded ? turns : undefined,
    malformed,
  };
}

/** The id of the last tool_use block of an assistant message line, or undefined. */
function lastToolUseId(line: string): string | undefined {
  const value = parseJsonLine(line) as { type?: unknown; message?: { content?: unknown } } | null;
  if (value === null || typeof value !== 'object' || value.type !== 'assistant') return undefined;
  const content = value.message?.content;
  if (!Array.isArray(content)) return undefined;
  const ids = content
    .filter(
      (block): block is { type: 'tool_use'; id: string } =>
        typeof block === 'object' &&
        block !== null &&
        (block as { type?: unknown }).type === 'tool_use' &&
        typeof (block as { id?: unknown }).id === 'string',
    )
    .map((block) => block.id);
  return ids.at(-1);
}
