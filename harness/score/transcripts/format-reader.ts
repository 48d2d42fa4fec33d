/**
 * The shape every format reader has, so read-transcript.ts can try each in
 * turn: a name for messages, a positive test on the content (a file is read
 * as format X only when its lines show X), and the reader itself. Readers
 * are pure: the files' texts come in, a SessionTranscript or an InputError
 * comes out.
 */
import type { InputError } from '../../lib/input-error.js';
import { parseJsonLine } from '../../lib/json-line.js';
import type { Result } from '../../lib/result.js';
import type { SessionTranscript, TranscriptFormat } from './session-transcript.js';

/** One file of a session, as read from disk (or stdin). */
export interface TranscriptSource {
  /** How the user named it (errors and `files` use this). */
  readonly name: string;
  readonly text: string;
}

/** A file an ATIF document links to, read by atif-links.ts: its text, or why it was not read. */
export type LinkedFile = { readonly text: string } | { readonly problem: string };

export interface ReadOptions {
  /** An ATIF document's linked trajectories, by the trajectory_path its links name. */
  readonly linked?: ReadonlyMap<string, LinkedFile> | undefined;
}

/** What a recogniser looks at: the file's first lines parsed, and the whole text as one JSON document. */
export interface ContentSample {
  /** The first non-blank lines, parsed (undefined: not JSON). */
  readonly lines: readonly unknown[];
  /** The whole text parsed as one JSON value; undefined when it is not one. */
  readonly document: unknown;
}

export interface FormatReader {
  /** What the format is called in messages ("Codex CLI rollout"). */
  readonly label: string;
  /** The format names its transcripts carry. */
  readonly formats: readonly TranscriptFormat[];
  /** Whether the content shows this format. */
  readonly recognises: (sample: ContentSample) => boolean;
  /** Whether several files can be one session (a session log and its subagents' logs). */
  readonly multiFile: boolean;
  readonly read: (
    sources: readonly TranscriptSource[],
    options: ReadOptions,
  ) => Result<SessionTranscript, InputError>;
}

/** How many lines a recogniser sees: enough for every format's first records. */
const SAMPLE_LINES = 400;

/** The sample of a text the recognisers look at. */
export function sampleOf(text: string): ContentSample {
  const lines: unknown[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    lines.push(parseJsonLine(line));
    if (lines.length >= SAMPLE_LINES) break;
  }
  const trimmed = text.trim();
  const document =
    trimmed.startsWith('{') || trimmed.startsWith('[') ? parseJsonLine(trimmed) : undefined;
  return { lines, document };
}

/** A value's own record, when it is a JSON object. */
export function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Each non-blank line of a text, numbered from 1, parsed (value undefined: not JSON). */
export function* jsonLines(
  text: string,
): Generator<{ readonly line: number; readonly value: unknown; readonly error?: string }> {
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    try {
      yield { line: index + 1, value: JSON.parse(line) as unknown };
    } catch (error) {
      yield { line: index + 1, value: undefined, error: (error as Error).message };
    }
  }
}
