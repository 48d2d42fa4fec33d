/**
 * The request log: one JSON line per request (`--log requests.jsonl`), written
 * in arrival-completion order through one append stream. A line holds only
 * the fields listed in RequestLogEntry; no header is ever copied into it, and
 * as a second guard every line is scrubbed of the request's credential values
 * (`x-api-key`, `authorization`) before it is written, so a key cannot reach
 * the log even if a client puts it somewhere unexpected (a session header).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { type InputError, inputError } from '../lib/input-error.js';
import { checkOutputFile } from '../lib/output-file.js';
import { err, ok, type Result } from '../lib/result.js';

export interface RequestLogEntry {
  /** When the response finished (ISO 8601); this is a log, so wall-clock time is fine here. */
  readonly time: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly session: string | null;
  readonly sessionSource: string | null;
  readonly turn: number | null;
  readonly model: string | null;
  /** `scripted:<policy>` that answered, or null when no policy ran. */
  readonly policy: string | null;
  readonly messages: number | null;
  readonly stream: boolean | null;
  /** What happened: `tool_use:Read,Bash`, `text`, `fault:429`, `fault:drop`, `error:<type>`, `count_tokens`. */
  readonly action: string;
  /** Responses face only: Codex's thread (`thread-id`) and the request's kind (turn, subagent, compaction). */
  readonly thread?: string | null;
  readonly requestKind?: string | null;
  readonly durationMs: number;
}

export interface RequestLog {
  write(entry: RequestLogEntry, headers: IncomingHttpHeaders): void;
  close(): Promise<void>;
}

const redacted = '[redacted]';
const minimumSecretLength = 6;

export async function openRequestLog(file: string): Promise<Result<RequestLog, InputError>> {
  const writable = await checkOutputFile(file, `--log ${file}`);
  if (!writable.ok) return writable;
  const stream = createWriteStream(file, { flags: 'a' });
  const opened = await new Promise<Error | undefined>((resolve) => {
    stream.once('open', () => resolve(undefined));
    stream.once('error', (error) => resolve(error));
  });
  if (opened !== undefined) {
    return err(
      inputError(
        `--log ${file}`,
        `cannot be opened (${opened.message})`,
        'give a writable file path',
      ),
    );
  }
  return ok(logOn(stream));
}

function logOn(stream: WriteStream): RequestLog {
  let failed = false;
  stream.on('error', (error) => {
    if (!failed)
      process.stderr.write(`redgreen model server: request log write failed: ${error.message}\n`);
    failed = true;
  });
  return {
    write(entry, headers) {
      // A line for a connection closed during shutdown may arrive after the log is closed.
      if (failed || stream.writableEnded) return;
      stream.write(`${scrub(JSON.stringify(entry), credentialValues(headers))}\n`);
    },
    close() {
      return new Promise((resolve) => stream.end(() => resolve()));
    },
  };
}

/** The credential values a request carried: the API key and the authorization header (and its token). */
export function credentialValues(headers: IncomingHttpHeaders): readonly string[] {
  const values: string[] = [];
  for (const name of ['x-api-key', 'authorization', 'proxy-authorization']) {
    const raw = headers[name];
    for (const value of Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]) {
      values.push(value);
      const token = /^\s*\S+\s+(\S+)\s*$/.exec(value)?.[1];
      if (token !== undefined) values.push(token);
    }
  }
  return values.filter((value) => value.length >= minimumSecretLength);
}

export function scrub(line: string, secrets: readonly string[]): string {
  let scrubbed = line;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    scrubbed = scrubbed.split(secret).join(redacted);
    const asJson = JSON.stringify(secret).slice(1, -1);
    if (asJson !== secret) scrubbed = scrubbed.split(asJson).join(redacted);
  }
  return scrubbed;
}
