/**
 * The session as an ordered list of events, the one list that ordering checks
 * (`order`) and event stops (`stop: { at: … }`) read:
 *
 * - `tool`: every tool call (dispatches are tool calls of `Agent`, `Task` or
 *   SendMessage);
 * - `skill`: every skill invocation (skill-invocations.ts: the Skill tool, a
 *   Read of a SKILL.md, a shell command reading one);
 * - `write`: every file a call writes: a tool whose input names the path it
 *   writes (Write, Edit, MultiEdit, NotebookEdit), and a Bash command's
 *   writes (extractors/language/shell-writes.ts: redirections, tee, sed -i,
 *   cp/mv onto a path, here-documents);
 * - `question`: a question to the human (an AskUserQuestion call, or a reply
 *   the scripted user answered), and `answer`: what the scripted user said.
 *
 * A Bash call is one tool event per simple command (its words, quotes
 * removed, are what an `input.command` pattern is matched against), so the
 * parts of `pytest && git commit` are two events, the test run first.
 *
 * Positions. Every event has a position `[call, part]`: the index of the call
 * among the session's calls (in transcript order) and, inside one compound
 * Bash command, the index of its simple command (what `;`, `&&`, `||`, `|`
 * and new lines separate), left to right: in `pytest && git commit` the test
 * run comes before the commit. The events of one simple command share a
 * position, and neither comes before the other. A question asked in a reply
 * stands after the calls before it; its answer right after it; the answer to
 * a question tool call right after that call.
 *
 * eventsOfCall derives one call's events, and is what a live session uses to
 * decide a stop on the call it is about to run, so both read calls the same way.
 */
import { diffSnapshots, type Snapshot } from '../fixture/snapshot-schema.js';
import type { Dispatch, Seat, TranscriptEvidence } from './evidence.js';
import { seatOf } from './evidence.js';
import { commandParts } from './extractors/language/shell-words.js';
import { shellWrites } from './extractors/language/shell-writes.js';
import { type SkillInvocation, skillInvocationsOfCall } from './skill-invocations.js';
import { bashCommand, stringField, type ToolCall } from './tool-call.js';
import { callTurns, PROMPT_TURN, type TurnPlace } from './turn-selector.js';
import type { RecordedQuestion } from './user-question-record.js';

/** `[call index, part]`, compared in that order. */
export type Position = readonly [number, number];

export function comparePositions(a: Position, b: Position): number {
  return a[0] - b[0] || a[1] - b[1];
}

export function positionText(at: Position): string {
  return at[1] === 0 ? `call ${at[0] + 1}` : `call ${at[0] + 1}, part ${at[1] + 1}`;
}

interface EventBase {
  readonly at: Position;
  readonly seat: Seat;
  /** The conversation turn it happened in; absent when the transcript records no turns. */
  readonly turn?: TurnPlace | undefined;
}

export type SessionEvent =
  | (EventBase & {
      readonly kind: 'tool';
      readonly call: ToolCall;
      /** For a Bash call, one simple command of it (its words): each is an event of its own. */
      readonly command?: string;
    })
  | (EventBase & {
      readonly kind: 'skill';
      readonly call: ToolCall;
      readonly invocation: SkillInvocation;
    })
  | (EventBase & {
      readonly kind: 'write';
      readonly call: ToolCall;
      /** Relative to the repository when it is inside it; else as written. */
      readonly path: string;
      readonly how: string;
    })
  | (EventBase & {
      readonly kind: 'question';
      readonly via: 'tool' | 'reply';
      readonly text: string;
      readonly call: ToolCall | null;
      /** A question asked in a reply: its id among the scripted user's records. */
      readonly questionId?: string;
    })
  | (EventBase & { readonly kind: 'answer'; readonly question: RecordedQuestion });

export type EventKind = SessionEvent['kind'];

/** Tools whose input names the file they write, and the field that names it. */
export const WRITING_TOOLS: Readonly<Record<string, string>> = {
  Write: 'file_path',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
};

/**
 * A path as the repository knows it: relative to `repoDir` when it is inside
 * it (`/work/repo/src/a.js` → `src/a.js`, `./src/a.js` → `src/a.js`), else
 * unchanged (an absolute path elsewhere matches no repository glob).
 */
export function repositoryPath(path: string, repoDir: string | null | undefined): string {
  const trimmed = path.trim();
  if (trimmed.startsWith('/')) {
    const root = (repoDir ?? '').replace(/\/+$/, '');
    if (root !== '' && trimmed.startsWith(`${root}/`)) return trimmed.slice(root.length + 1);
    return trimmed;
  }
  return trimmed.replace(/^(?:\.\/)+/, '');
}

/** The tool, skill and write events of one call at `index` (questions and answers aside). */
export function eventsOfCall(
  call: ToolCall,
  index: number,
  repoDir: string | null | undefined,
): SessionEvent[] {
  const seat = seatOf(call);
  const command = bashCommand(call);
  const parts = command === undefined ? [] : commandParts(command);
  const events: SessionEvent[] =
    parts.length === 0
      ? [{ kind: 'tool', at: [index, 0], seat, call }]
      : parts.map((part, at) => ({
          kind: 'tool' as const,
          at: [index, at] as const,
          seat,
          call,
          command: part.words.join(' '),
        }));
  for (const invocation of skillInvocationsOfCall(call)) {
    events.push({ kind: 'skill', at: [index, invocation.part], seat, call, invocation });
  }
  const field = Object.hasOwn(WRITING_TOOLS, call.name) ? WRITING_TOOLS[call.name] : undefined;
  const written = field === undefined ? undefined : stringField(call.input, field);
  if (written !== undefined) {
    events.push({
      kind: 'write',
      at: [index, 0],
      seat,
      call,
      path: repositoryPath(written, repoDir),
      how: call.name,
    });
  }
  if (command !== undefined) {
    for (const write of shellWrites(command)) {
      events.push({
        kind: 'write',
        at: [index, write.part],
        seat,
        call,
        path: repositoryPath(write.path, repoDir),
        how: write.how,
      });
    }
  }
  return events;
}

function questionSeat(question: RecordedQuestion): Seat {
  return question.seat === 'controller' ? 'controller' : 'subagent';
}

/** Every event of a session, in order. */
export function sessionEvents(transcript: TranscriptEvidence): SessionEvent[] {
  const events = transcript.calls.flatMap((call, index) =>
    eventsOfCall(call, index, transcript.repoDir),
  );
  const indexOf = new Map(transcript.calls.map((call, index) => [call.id, index]));
  for (const call of transcript.calls) {
    if (call.name !== 'AskUserQuestion') continue;
    const index = indexOf.get(call.id) ?? 0;
    const text = questionTexts(call.input).join(' / ');
    events.push({ kind: 'question', at: [index, 0], seat: seatOf(call), via: 'tool', text, call });
  }
  for (const question of transcript.questions ?? []) {
    const seat = questionSeat(question);
    if (question.via === 'reply') {
      const after =
        question.afterCall === null || question.afterCall === undefined
          ? -1
          : (indexOf.get(question.afterCall) ?? -1);
      // Between the call before it and the next one: after every part of the call before.
      const at: Position = [after, Number.MAX_SAFE_INTEGER - 1];
      events.push({
        kind: 'question',
        at,
        seat,
        via: 'reply',
        text: question.text,
        call: null,
        questionId: question.id,
      });
      events.push({ kind: 'answer', at: [after, Number.MAX_SAFE_INTEGER], seat, question });
    } else if (question.toolUseId !== null) {
      const index = indexOf.get(question.toolUseId);
      if (index !== undefined) {
        events.push({ kind: 'answer', at: [index, Number.MAX_SAFE_INTEGER], seat, question });
      }
    }
  }
  return withTurns(events, transcript).sort((a, b) => comparePositions(a.at, b.at));
}

/**
 * Each event with its conversation turn: a call's events (and a question
 * tool call's answer) by the call's turn; a question asked in a reply, and
 * its answer, in the turn that reply ended: the turn before the one its
 * answer started, else (unanswered, the session's end) the last turn.
 */
function withTurns(events: SessionEvent[], transcript: TranscriptEvidence): SessionEvent[] {
  const turns = transcript.turns;
  const byCall = callTurns(transcript);
  if (turns === undefined || byCall === undefined) return events;
  const indexOf = new Map(transcript.calls.map((call, index) => [call.id, index]));
  const places: TurnPlace[] = [
    PROMPT_TURN,
    ...turns.map((one) => ({ turn: one.turn, id: one.id })),
  ];
  const last = places.at(-1) ?? PROMPT_TURN;
  const ofReplyQuestion = (id: string): TurnPlace => {
    const started = turns.findIndex((one) => one.questionId === id);
    return started < 0 ? last : (places[started] ?? last);
  };
  return events.map((event) => {
    if (event.kind === 'answer' && event.question.via === 'reply') {
      return { ...event, turn: ofReplyQuestion(event.question.id) };
    }
    if (event.kind === 'question' && event.via === 'reply' && event.questionId !== undefined) {
      return { ...event, turn: ofReplyQuestion(event.questionId) };
    }
    const callId =
      event.kind === 'answer'
        ? (event.question.toolUseId ?? undefined)
        : event.call === null
          ? undefined
          : event.call.id;
    const index = callId === undefined ? undefined : indexOf.get(callId);
    return { ...event, turn: index === undefined ? last : byCall[index] };
  });
}

/** The question texts of an AskUserQuestion input. */
function questionTexts(input: unknown): string[] {
  const questions = (input as { questions?: unknown } | null)?.questions;
  if (!Array.isArray(questions)) return [];
  return questions.flatMap((question) => {
    const text = (question as { question?: unknown } | null)?.question;
    return typeof text === 'string' ? [text] : [];
  });
}

/**
 * Files the session added or changed (by the snapshots before and after it)
 * that no write event names: written by something the event list cannot
 * read (a build, a script file, `git apply fix.patch`), at a time it cannot
 * place. Empty when a snapshot is missing.
 */
export function unplacedWrites(
  events: readonly SessionEvent[],
  before: Snapshot | undefined,
  after: Snapshot | undefined,
): string[] {
  if (before === undefined || after === undefined) return [];
  const named = new Set(events.flatMap((event) => (event.kind === 'write' ? [event.path] : [])));
  return diffSnapshots(before, after)
    .fileChanges.filter((change) => change.kind !== 'removed' && !named.has(change.path))
    .map((change) => change.path);
}

/** The dispatches a seat selector may name, passed along for matching. */
export type EventDispatches = readonly Dispatch[];
