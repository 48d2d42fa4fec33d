/**
 * The one immutable value a check reads: what the session replied (with the
 * values the report contract extracted), the tool calls it made (with their
 * seats) and the dispatches among them, the work tree before and after, the
 * file contents captured at rep time, and the outcomes of commands run at
 * rep time. Each part is optional: a standalone reply has no transcript, a
 * transcript scored elsewhere has no snapshots. A verb declares the parts it
 * reads; when one is missing the engine answers "not assessed" (undecided)
 * without calling the verb.
 */
import { z } from 'zod';
import { pathRecord, type Snapshot } from '../fixture/snapshot-schema.js';
import type { ToolCall } from './tool-call.js';
import type { RecordedQuestion, RecordedTurn } from './user-question-record.js';

/** The parts of the evidence, each of which may be missing. */
export const EVIDENCE_KINDS = [
  'reply',
  'transcript',
  'before',
  'after',
  'contents',
  'commands',
  'judgement',
] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** What an extractor read, or why it could not read anything. */
export type Reading<T> =
  | { readonly ok: true; readonly value: T; readonly quote: string }
  | { readonly ok: false; readonly why: string };

/**
 * One value read from one reply section: an object whose `kind` names the
 * extractor that read it (its other fields are that extractor's, checked by
 * its value schema when a score.json is read back).
 */
export interface ExtractedValue {
  readonly kind: string;
}

export interface ReplyEvidence {
  readonly text: string;
  /** Each section's text as the reply wrote it, by section name (absent sections left out). */
  readonly sections: Readonly<Record<string, string>>;
  /** By section name, as the scenario's report contract declares them. */
  readonly values: Readonly<Record<string, Reading<ExtractedValue>>>;
}

/** Where a tool call was made: by the controller, or inside a subagent it started. */
export type Seat = 'controller' | 'subagent';

/** A subagent dispatch the controller made: a fresh agent (`Agent`/`Task`) or a message to a live one. */
export interface Dispatch {
  /** 1-based position among the controller's dispatches, in transcript order. */
  readonly index: number;
  readonly callId: string;
  readonly tool: string;
  readonly kind: 'fresh' | 'resume';
  readonly subagentType: string | null;
  readonly model: string | null;
  readonly description: string | null;
  readonly prompt: string | null;
  /**
   * The subagent it reaches: for a fresh dispatch the agent id its result
   * names (`agentId: …`), for a resume the `to` it is sent to; null or absent
   * when unknown.
   */
  readonly agentId?: string | null;
  /** A fresh dispatch's `name`, which a resume may use in place of the agent id. */
  readonly agentName?: string | null;
  /** What each installed pack read from it (dispatch-reading.ts), by pack. */
  readonly readings: Readonly<Record<string, unknown>>;
}

export interface TranscriptEvidence {
  readonly calls: readonly ToolCall[];
  readonly dispatches: readonly Dispatch[];
  /** The controller's model, when the transcript or the run says; a dispatch without a model inherits it. */
  readonly model: string | null;
  /**
   * The session's working directory (its repository), from the transcript's
   * init message: file writes named by absolute path are read relative to it.
   * Null or absent when unknown: only relative paths are then repository paths.
   */
  readonly repoDir?: string | null | undefined;
  /** The directory of the skill under test as the session was given it; null or absent when unknown. */
  readonly skillDir?: string | null | undefined;
  /**
   * True when lines of the transcript could not be read: calls may be
   * missing, so a check that asserts an absence cannot be decided.
   */
  readonly partial?: boolean | undefined;
  /**
   * The seats whose calls the transcript's files do not hold: `controller`
   * (a subagent's own log read alone), or a subagent seat by the dispatch
   * that created it (its log was not given). A check that looks at such a
   * seat cannot be decided by an absence there, as with `partial`.
   */
  readonly unknownSeats?: readonly string[] | undefined;
  /**
   * The questions the session put to its scripted user, with the answers
   * (user-question-record.ts); undefined when the transcript records no
   * scripted user.
   */
  readonly questions?: readonly RecordedQuestion[] | undefined;
  /**
   * The conversation turns after the first (user-question-record.ts), which
   * `turn` selectors read (turn-selector.ts); undefined when the transcript
   * records no scripted user.
   */
  readonly turns?: readonly RecordedTurn[] | undefined;
}

/** What a transcript check says when what it looked for is absent from a partial transcript. */
export const PARTIAL_ABSENCE =
  'not decidable: lines of the transcript could not be read, so a missing call may be among them';

/** What a transcript check says when what it looked for is absent, and a seat it looks at is not in the files. */
export const UNDESCRIBED_DISPATCH_ABSENCE =
  "not decidable: it selects subagents by their dispatch description, and a dispatch here records none (the engine gives none, as Codex's spawn_agent does), so a missing call may be in that seat";

export const UNKNOWN_SEAT_ABSENCE =
  'not decidable: the files given do not hold the calls of a seat it looks at, so a missing call may be among them';

export const capturedFileSchema = z.union([
  z.object({ text: z.string() }).strict(),
  z.object({ omitted: z.string() }).strict(),
]);
export type CapturedFile = z.infer<typeof capturedFileSchema>;

/** `files-before.json` / `files-after.json`: text contents by repo path, captured at rep time (any path a repository holds, `__proto__` too). */
export const capturedFilesSchema = z
  .object({
    schemaVersion: z.literal(1),
    files: pathRecord(capturedFileSchema),
  })
  .strict();
export type CapturedFiles = z.infer<typeof capturedFilesSchema>;

export const commandOutcomeSchema = z
  .object({
    phase: z.enum(['pre', 'post']),
    command: z.string(),
    /** False when the command could not be started at all (no sandbox, no shell). */
    started: z.boolean(),
    exitCode: z.number().int().nullable(),
    timedOut: z.boolean(),
    durationMs: z.number().nonnegative(),
    /** The end of its output, for the reader. */
    output: z.string(),
  })
  .strict();
export type CommandOutcome = z.infer<typeof commandOutcomeSchema>;

/** `commands.json`: every command-succeeds command run at rep time, with its outcome. */
export const commandRecordSchema = z
  .object({ schemaVersion: z.literal(1), commands: z.array(commandOutcomeSchema) })
  .strict();
export type CommandRecord = z.infer<typeof commandRecordSchema>;

/**
 * A judge's answers on a rep, as far as checks read them: each rubric item's
 * verdict and quote, by item id. Only a judgement that fits the scenario's
 * rubric as it is now is evidence (score-rep-dir.ts).
 */
export interface JudgementEvidence {
  readonly model: string;
  readonly items: Readonly<
    Record<string, { readonly verdict: 'pass' | 'fail' | 'unsure'; readonly quote: string }>
  >;
}

/** Everything checks may read about one rep (or one phase of it). Immutable. */
export interface Evidence {
  readonly reply?: ReplyEvidence | undefined;
  readonly transcript?: TranscriptEvidence | undefined;
  /** The work tree and git state before the session. */
  readonly before?: Snapshot | undefined;
  /** The work tree and git state the checks judge (after the session; for pre-checks, before it). */
  readonly after?: Snapshot | undefined;
  /** Text of files in the state `after` describes. */
  readonly contents?: Readonly<Record<string, CapturedFile>> | undefined;
  readonly commands?: readonly CommandOutcome[] | undefined;
  /** The judge's answers on this rep, for checks a judge decides (`judged`). */
  readonly judgement?: JudgementEvidence | undefined;
}

/** The evidence kinds present in `evidence`. */
export function presentKinds(evidence: Evidence): Set<EvidenceKind> {
  return new Set(EVIDENCE_KINDS.filter((kind) => evidence[kind] !== undefined));
}

/**
 * The entry for `path` in a record keyed by repository paths (snapshot
 * files, captured texts), own entries only: a plain object would answer
 * `constructor` or `__proto__` for a file the repository does not hold.
 */
export function fileEntry<T>(files: Readonly<Record<string, T>>, path: string): T | undefined {
  return Object.hasOwn(files, path) ? files[path] : undefined;
}

/** A part of the evidence the engine promised a verb; missing means the engine has a bug. */
export function required<T>(part: T | undefined, kind: EvidenceKind): T {
  if (part === undefined)
    throw new Error(`evidence "${kind}" is missing although the verb reads it`);
  return part;
}

/** The seat of a tool call: `parentToolUseId` set means a subagent made it. */
export function seatOf(call: ToolCall): Seat {
  return call.parentToolUseId === undefined || call.parentToolUseId === null
    ? 'controller'
    : 'subagent';
}
