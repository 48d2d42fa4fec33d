/**
 * Keys and a line of text from a terminal in raw mode, for the adjudication
 * walk-through: one key chooses (no Enter needed), a line is typed and
 * edited with Backspace and ended with Enter. Ctrl-C and Ctrl-D read as
 * quit. The terminal is put back as it was on close.
 */
export const QUIT = '\u0003';

export class TerminalKeys {
  readonly #input: NodeJS.ReadStream;
  readonly #output: NodeJS.WritableStream;
  readonly #pending: string[] = [];
  #waiting: (() => void) | undefined;
  readonly #onData = (chunk: string): void => {
    this.#pending.push(...chunk);
    const wake = this.#waiting;
    this.#waiting = undefined;
    wake?.();
  };

  constructor(input: NodeJS.ReadStream, output: NodeJS.WritableStream) {
    this.#input = input;
    this.#output = output;
    input.setRawMode(true);
    input.setEncoding('utf8');
    input.on('data', this.#onData);
    input.resume();
  }

  async #next(): Promise<string> {
    while (this.#pending.length === 0) {
      await new Promise<void>((resolve) => {
        this.#waiting = resolve;
      });
    }
    return this.#pending.shift() as string;
  }

  /** The next key among `allowed` (lower-cased); Ctrl-C or Ctrl-D give QUIT. Other keys ring the bell. */
  async key(allowed: readonly string[]): Promise<string> {
    for (;;) {
      const char = await this.#next();
      if (char === '\u0003' || char === '\u0004') return QUIT;
      const lower = char.toLowerCase();
      if (allowed.includes(lower)) return lower;
      this.#output.write('\u0007');
    }
  }

  /** A line typed after `prompt`, echoed; Enter ends it; QUIT on Ctrl-C. */
  async line(prompt: string): Promise<string> {
    this.#output.write(prompt);
    let text = '';
    for (;;) {
      const char = await this.#next();
      if (char === '\u0003') {
        this.#output.write('\r\n');
        return QUIT;
      }
      if (char === '\r' || char === '\n') {
        this.#output.write('\r\n');
        return text;
      }
      if (char === '\u007f' || char === '\b') {
        if (text.length > 0) {
          text = text.slice(0, -1);
          this.#output.write('\b \b');
        }
        continue;
      }
      if (char < ' ') continue;
      text += char;
      this.#output.write(char);
    }
  }

  close(): void {
    this.#input.off('data', this.#onData);
    this.#input.setRawMode(false);
    this.#input.pause();
  }
}
