import { createWriteStream, type WriteStream } from 'node:fs';
import type { SecretRedactor } from './secret-redactor.js';

/**
 * Writes every message of a session to `transcript.jsonl` as it arrives, one
 * JSON object per line. Secrets (the API key) are replaced before anything
 * touches the disk; the redactor counts how often that happened, so a leak
 * into a tool's environment shows up in results instead of being hidden.
 */
export class TranscriptSink {
  readonly path: string;
  readonly #stream: WriteStream;
  readonly #redactor: SecretRedactor;
  #lines = 0;
  /** The first write error (a full disk): kept, and thrown by close(), never left unhandled. */
  #failure: Error | undefined;

  constructor(path: string, redactor: SecretRedactor) {
    this.path = path;
    this.#stream = createWriteStream(path, { flags: 'wx' });
    this.#stream.on('error', (error) => {
      this.#failure ??= error;
    });
    this.#redactor = redactor;
  }

  get lines(): number {
    return this.#lines;
  }

  /** Append one message exactly as received (after redaction). */
  write(message: unknown): void {
    this.#lines += 1;
    if (this.#failure !== undefined || this.#stream.destroyed) return;
    this.#stream.write(`${this.#redactor.redact(JSON.stringify(message))}\n`);
  }

  /** Finish the file; rejects with the first write error, if any. */
  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      const settle = (error?: Error | null): void => {
        const failure = this.#failure ?? error ?? undefined;
        if (failure === undefined) resolve();
        else reject(failure);
      };
      if (this.#stream.destroyed) settle();
      else this.#stream.end(settle);
    });
  }
}
