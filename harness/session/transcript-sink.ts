import { createWriteStream, type WriteStream } from 'node:fs';

/**
 * Writes every message of a session to `transcript.jsonl` as it arrives, one
 * JSON object per line. Secrets (the API key) are replaced before anything
 * touches the disk; `redactions` counts how often that happened, so a leak
 * into a tool's environment shows up in results instead of being hidden.
 */
export class TranscriptSink {
  readonly path: string;
  #stream: WriteStream;
  #secrets: readonly string[];
  #redactions = 0;
  #lines = 0;

  constructor(path: string, secrets: readonly string[]) {
    this.path = path;
    this.#stream = createWriteStream(path, { flags: 'wx' });
    this.#secrets = secrets.filter((secret) => secret.length >= 8);
  }

  get redactions(): number {
    return this.#redactions;
  }

  get lines(): number {
    return this.#lines;
  }

  /** Append one message exactly as received (after redaction). */
  write(message: unknown): void {
    let line = JSON.stringify(message);
    for (const secret of this.#secrets) {
      if (line.includes(secret)) {
        this.#redactions += line.split(secret).length - 1;
        line = line.split(secret).join('[REDACTED]');
      }
    }
    this.#lines += 1;
    this.#stream.write(`${line}\n`);
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#stream.end((error?: Error | null) => (error ? reject(error) : resolve()));
    });
  }
}
