/**
 * Keys and a line of text from a terminal in raw mode, for the adjudication
 * walk-through: one key chooses (no Enter needed), a line is typed and
 * edited with Backspace and ended with Enter. Ctrl-C and Ctrl-D read as
 * quit, at a key and in a line. An escape sequence (an arrow, a function
 * key: ESC [ … final, ESC O x) is one keystroke, which is no choice and
 * adds nothing to a line. The terminal is put back as it was on close.
 */
export const QUIT = '\u0003';

/** A chunk read from the terminal as keystrokes: each escape sequence whole, every other character alone. */
export function keystrokes(chunk: string): string[] {
  const chars = [...chunk];
  const out: string[] = [];
  for (let at = 0; at < chars.length; ) {
    const char = chars[at] as string;
    if (char !== '\u001b' || at + 1 >= chars.length) {
      out.push(char);
      at += 1;
      continue;
    }
    const next = chars[at + 1] as string;
    let end = at + 2;
    if (next === '[') {
      // CSI: parameter and intermediate bytes, then one final byte in @..~.
      while (end < chars.length && !/[@-~]/.test(chars[end] as string)) end += 1;
      end = Math.min(end + 1, chars.length);
    } else if (next === 'O') {
      end = Math.min(at + 3, chars.length);
    }
    out.push(chars.slice(at, end).join(''));
    at = end;
  }
  return out;
}

export class TerminalKeys {
  readonly #input: NodeJS.ReadStream;
  readonly #output: NodeJS.WritableStream;
  readonly #pending: string[] = [];
  #waiting: (() => void) | undefined;
  readonly #onData = (chunk: string): void => {
    this.#pending.push(...keystrokes(chunk));
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

  /** A line typed after `prompt`, echoed; Enter ends it; QUIT on Ctrl-C or Ctrl-D. */
  async line(prompt: string): Promise<string> {
    this.#output.write(prompt);
    let text = '';
    for (;;) {
      const char = await this.#next();
      if (char === '\u0003' || char === '\u0004') {
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
      if (char < ' ' || char.startsWith('\u001b') || char === '\u007f') continue;
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
