/**
 * The files of one session as a user names them, read from disk for
 * read-transcript.ts: files (`-` is stdin), or a directory. A directory is
 * read as Claude Code stores a session: the `.jsonl` and `.json` files in it,
 * its `subagents/agent-*.jsonl`, and, for a `<session>/` directory, the
 * `<session>.jsonl` log beside it. A Claude Code session log named alone
 * brings its `<session>/subagents/agent-*.jsonl` along when they are there,
 * and an ATIF file the trajectories it links to (atif-links.ts). Files found
 * this way are read only as regular files inside the directory, at most
 * MAX_TRANSCRIPT_BYTES each; files named are read as readTextInput reads any
 * input (a pipe too).
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { type InputError, inputError } from '../../lib/input-error.js';
import { readRegularFileInside } from '../../lib/regular-file.js';
import { err, ok, type Result } from '../../lib/result.js';
import { readTextInput } from '../../lib/text-input.js';
import { readLinkedTrajectories } from './atif-links.js';
import { claudeCodeSessionReader } from './claude-code-session.js';
import { type ReadOptions, recordOf, sampleOf, type TranscriptSource } from './format-reader.js';
import { FORMATS_TRIED, readSessionFiles } from './read-transcript.js';
import type { SessionTranscript } from './session-transcript.js';

/** The largest transcript file read: a long session's stream-json runs to tens of MB. */
export const MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024;

const FIX = `give a session's transcript file(s) or its directory (${FORMATS_TRIED}), or - for stdin`;

async function isDirectory(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isDirectory() === true;
}

/** The transcript files directly in `dir` matching `pattern`, sorted. */
async function filesIn(dir: string, pattern: RegExp): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => !entry.isDirectory() && pattern.test(entry.name))
    .map((entry) => path.join(dir, entry.name))
    .sort();
}

/** Read a file found (not named) inside `root`; an error names it. */
async function readFound(
  root: string,
  file: string,
): Promise<Result<TranscriptSource, InputError>> {
  const read = await readRegularFileInside(root, file, MAX_TRANSCRIPT_BYTES);
  return read.ok ? ok({ name: file, text: read.value }) : err(inputError(file, read.error, FIX));
}

/** A directory's session files: its logs, its subagents' logs, and a `<dir>.jsonl` beside it. */
async function readDirectory(dir: string): Promise<Result<TranscriptSource[], InputError>> {
  const resolved = path.resolve(dir);
  const beside = `${resolved.replace(/[/\\]+$/, '')}.jsonl`;
  const files = [
    ...((await stat(beside).catch(() => undefined))?.isFile() === true ? [beside] : []),
    ...(await filesIn(resolved, /\.jsonl?$/)),
    ...(await filesIn(path.join(resolved, 'subagents'), /^agent-.*\.jsonl$/)),
  ];
  if (files.length === 0) {
    return err(inputError(dir, 'holds no .jsonl or .json file (nor subagents/agent-*.jsonl)', FIX));
  }
  const sources: TranscriptSource[] = [];
  for (const file of files) {
    const root = file === beside ? path.dirname(resolved) : resolved;
    const read = await readFound(root, file);
    if (!read.ok) return read;
    sources.push(read.value);
  }
  return ok(sources);
}

/** The subagents' logs Claude Code keeps beside a session log (`<session>/subagents/agent-*.jsonl`). */
async function subagentLogsOf(
  source: TranscriptSource,
): Promise<Result<TranscriptSource[], InputError>> {
  if (source.name === '-' || !source.name.endsWith('.jsonl')) return ok([]);
  const sessionDir = source.name.slice(0, -'.jsonl'.length);
  const logs = await filesIn(path.join(sessionDir, 'subagents'), /^agent-.*\.jsonl$/);
  if (logs.length === 0 || !claudeCodeSessionReader.recognises(sampleOf(source.text)))
    return ok([]);
  const found: TranscriptSource[] = [];
  for (const file of logs) {
    const read = await readFound(sessionDir, file);
    if (!read.ok) return read;
    found.push(read.value);
  }
  return ok(found);
}

/** An ATIF document's linked trajectories, when the one source is an ATIF document. */
async function linkedOf(sources: readonly TranscriptSource[]): Promise<ReadOptions> {
  const [only, second] = sources;
  if (only === undefined || second !== undefined) return {};
  const { document } = sampleOf(only.text);
  const version = recordOf(document)?.schema_version;
  if (typeof version !== 'string' || !version.startsWith('ATIF-')) return {};
  return { linked: await readLinkedTrajectories(document, only.name) };
}

/** Read one session from the paths a user gave (files, `-`, or a directory). */
export async function readTranscriptInputs(
  paths: readonly string[],
): Promise<Result<SessionTranscript, InputError>> {
  if (paths.length === 0) throw new Error('readTranscriptInputs: no path given');
  if (paths.filter((one) => one === '-').length > 1) {
    return err(inputError('-', 'is given twice', 'read at most one file from stdin'));
  }
  const sources: TranscriptSource[] = [];
  for (const given of paths) {
    if (given !== '-' && (await isDirectory(given))) {
      const read = await readDirectory(given);
      if (!read.ok) return read;
      sources.push(...read.value);
      continue;
    }
    const text = await readTextInput(given, {
      maxBytes: MAX_TRANSCRIPT_BYTES,
      what: 'a session transcript',
      fix: FIX,
    });
    if (!text.ok) return text;
    sources.push({ name: given, text: text.value });
  }
  if (paths.length === 1 && sources.length === 1 && sources[0] !== undefined) {
    const logs = await subagentLogsOf(sources[0]);
    if (!logs.ok) return logs;
    sources.push(...logs.value);
  }
  const unique = sources.filter(
    (source, index) =>
      sources.findIndex((other) => path.resolve(other.name) === path.resolve(source.name)) ===
        index || source.name === '-',
  );
  return readSessionFiles(unique, await linkedOf(unique));
}
