/**
 * Reading a session another tool ran (or redgreen did) into the seated event
 * list scoring needs, whatever format it was recorded in. One reader per
 * format, each recognising its own content positively: a file is read as
 * format X only when its lines show X, and a file no reader recognises, or
 * that two readers both claim, is refused with one line naming the formats
 * tried. Several files are one session only for a format whose sessions span
 * files (a Claude Code session log with its subagents' logs, a Codex root
 * rollout with its spawned threads').
 *
 * Pure: texts in, a SessionTranscript or an InputError out
 * (transcript-input.ts reads the files).
 */
import { type InputError, inputError } from '../../lib/input-error.js';
import { err, type Result } from '../../lib/result.js';
import { atifReader } from './atif.js';
import { claudeCodeSessionReader } from './claude-code-session.js';
import { codexRolloutReader } from './codex-rollout.js';
import { cursorStreamJsonReader } from './cursor-stream-json.js';
import {
  type FormatReader,
  type LinkedFile,
  type ReadOptions,
  sampleOf,
  type TranscriptSource,
} from './format-reader.js';
import type { SessionTranscript } from './session-transcript.js';
import { streamJsonReader } from './stream-json.js';

export type { SessionTranscript, TranscriptFormat } from './session-transcript.js';

/** Every reader, in the order they are named in messages. */
export const FORMAT_READERS: readonly FormatReader[] = [
  streamJsonReader,
  claudeCodeSessionReader,
  cursorStreamJsonReader,
  codexRolloutReader,
  atifReader,
];

/** The formats, as a refusal names them. */
export const FORMATS_TRIED = FORMAT_READERS.map((reader) => reader.label).join(', ');

const GIVE = `give a transcript in one of these formats: ${FORMATS_TRIED}`;

/** Which reader reads one file, or why none does. */
function readerFor(source: TranscriptSource): Result<FormatReader, InputError> {
  const content = source.text.replace(/^\uFEFF/, '');
  if (content.trim() === '') return err(inputError(source.name, 'is empty', GIVE));
  const sample = sampleOf(content);
  const claimed = FORMAT_READERS.filter((reader) => reader.recognises(sample));
  const [only, second] = claimed;
  if (only !== undefined && second === undefined) return { ok: true, value: only };
  if (second !== undefined) {
    return err(
      inputError(
        source.name,
        `shows lines of ${claimed.length} formats (${claimed.map((reader) => reader.label).join('; ')}), so it is read as none of them`,
        'give the file one tool wrote, unmixed',
      ),
    );
  }
  return err(inputError(source.name, whyNone(content, sample.lines), GIVE));
}

/** Why no reader recognised a text, as specifically as the text allows. */
function whyNone(content: string, lines: readonly unknown[]): string {
  const trimmed = content.trim();
  if (lines.every((line) => line === undefined)) {
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        JSON.parse(trimmed);
      } catch (error) {
        return `is not valid JSON (${(error as Error).message}); a document cut short reads so`;
      }
    }
    return 'is not JSON lines or a JSON document, so it is no transcript';
  }
  return 'is in no transcript format redgreen reads';
}

/**
 * Read one session from its files: each file's format is recognised on its
 * own, and several files are read together only when they are all of one
 * format whose sessions span files.
 */
export function readSessionFiles(
  sources: readonly TranscriptSource[],
  options: ReadOptions = {},
): Result<SessionTranscript, InputError> {
  const [first] = sources;
  if (first === undefined) throw new Error('readSessionFiles: no file given');
  const readers: FormatReader[] = [];
  for (const source of sources) {
    const reader = readerFor(source);
    if (!reader.ok) return reader;
    readers.push(reader.value);
  }
  const reader = readers[0] as FormatReader;
  const other = readers.findIndex((one) => one !== reader);
  if (other !== -1) {
    return err(
      inputError(
        sources[other]?.name ?? 'transcript',
        `is a ${readers[other]?.label}, while ${first.name} is a ${reader.label}; one session's files are of one format`,
        "give one session's files",
      ),
    );
  }
  if (sources.length > 1 && !reader.multiFile) {
    return err(
      inputError(
        sources[1]?.name ?? 'transcript',
        `is a second file, but a ${reader.label} session is one file`,
        'give one file',
      ),
    );
  }
  return reader.read(
    sources.map((source) => ({ ...source, text: source.text.replace(/^\uFEFF/, '') })),
    options,
  );
}

/** Read one transcript text; `source` names it in errors. */
export function readSessionTranscript(
  text: string,
  source = 'transcript',
  options: { readonly linked?: ReadonlyMap<string, LinkedFile> } = {},
): Result<SessionTranscript, InputError> {
  return readSessionFiles([{ name: source, text }], options);
}
