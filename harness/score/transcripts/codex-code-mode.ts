/**
 * The shell commands a Codex code-mode script runs. In code mode (the tool
 * surface of the current gpt-5.6 / gpt-6 catalogue entries) the model makes
 * one `exec` call whose input is JavaScript, and the script calls
 * `tools.exec_command({cmd: …})` as often as it likes. Each command is read
 * where the script spells it out: a string literal, a template literal whose
 * `${name}` parts are string constants the script declares, or such a
 * constant by name. A command the script computes (`cmd: parts.join(' ')`)
 * is counted as unread, never guessed.
 *
 * A small scanner, not a JavaScript parser: it knows strings, template
 * literals, comments and identifiers, which is all the pattern needs.
 */

type Token =
  | { readonly kind: 'string'; readonly value: string | undefined }
  | { readonly kind: 'word'; readonly text: string }
  | { readonly kind: 'punct'; readonly text: string };

const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  0: '\0',
};

/** A literal's body with its escapes decoded. */
function decode(body: string): string {
  return body.replace(
    /\\(?:u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(\r\n|\n)|(.))/g,
    (_all, brace: string, unicode: string, hex: string, newline: string, other: string) => {
      if (brace !== undefined) return String.fromCodePoint(Number.parseInt(brace, 16));
      if (unicode !== undefined) return String.fromCharCode(Number.parseInt(unicode, 16));
      if (hex !== undefined) return String.fromCharCode(Number.parseInt(hex, 16));
      if (newline !== undefined) return '';
      return ESCAPES[other] ?? other;
    },
  );
}

/** Where a quoted literal starting at `start` ends (the index after its closing quote). */
function endOfQuoted(script: string, start: number): number {
  const quote = script[start];
  let index = start + 1;
  while (index < script.length && script[index] !== quote) {
    index += script[index] === '\\' ? 2 : 1;
  }
  return index + 1;
}

/** Where a template literal starting at `start` ends, and its parts (text, `${…}` sources). */
function scanTemplate(
  script: string,
  start: number,
): { end: number; parts: { text: string; expression: string | undefined }[] } {
  const parts: { text: string; expression: string | undefined }[] = [];
  let index = start + 1;
  let text = '';
  while (index < script.length && script[index] !== '`') {
    if (script[index] === '\\') {
      text += script.slice(index, index + 2);
      index += 2;
    } else if (script.startsWith('${', index)) {
      let depth = 1;
      let cursor = index + 2;
      while (cursor < script.length && depth > 0) {
        if (script[cursor] === '{') depth++;
        else if (script[cursor] === '}') depth--;
        cursor++;
      }
      parts.push({ text, expression: script.slice(index + 2, cursor - 1).trim() });
      text = '';
      index = cursor;
    } else {
      text += script[index];
      index++;
    }
  }
  parts.push({ text, expression: undefined });
  return { end: index + 1, parts };
}

function tokenize(script: string): Token[] {
  const tokens: Token[] = [];
  const constants = new Map<string, string>();
  let index = 0;
  while (index < script.length) {
    const char = script[index] ?? '';
    if (/\s/.test(char)) {
      index++;
    } else if (script.startsWith('//', index)) {
      const end = script.indexOf('\n', index);
      index = end === -1 ? script.length : end;
    } else if (script.startsWith('/*', index)) {
      const end = script.indexOf('*/', index + 2);
      index = end === -1 ? script.length : end + 2;
    } else if (char === '"' || char === "'") {
      const end = endOfQuoted(script, index);
      tokens.push({ kind: 'string', value: decode(script.slice(index + 1, end - 1)) });
      index = end;
    } else if (char === '`') {
      const { end, parts } = scanTemplate(script, index);
      let value: string | undefined = '';
      for (const part of parts) {
        value += decode(part.text);
        if (part.expression === undefined) continue;
        const bound = constants.get(part.expression);
        if (bound === undefined) {
          value = undefined;
          break;
        }
        value += bound;
      }
      tokens.push({ kind: 'string', value });
      index = end;
    } else if (/[A-Za-z_$]/.test(char)) {
      const word = /^[\w$]+/.exec(script.slice(index))?.[0] ?? char;
      tokens.push({ kind: 'word', text: word });
      index += word.length;
    } else {
      tokens.push({ kind: 'punct', text: char });
      index++;
    }
    // `const name = "literal"` binds a constant the template literals after it may use.
    const [declare, name, equals, literal] = tokens.slice(-4);
    if (
      declare?.kind === 'word' &&
      /^(?:const|let|var)$/.test(declare.text) &&
      name?.kind === 'word' &&
      equals?.kind === 'punct' &&
      equals.text === '=' &&
      literal?.kind === 'string' &&
      literal.value !== undefined
    ) {
      constants.set(name.text, literal.value);
    }
  }
  return tokens.map((token) =>
    token.kind === 'word' && constants.has(token.text)
      ? { kind: 'string', value: constants.get(token.text) }
      : token,
  );
}

/** Whether a token is the punctuation `text`. */
function isPunct(token: Token | undefined, text: string): boolean {
  return token?.kind === 'punct' && token.text === text;
}

/** The commands the script's `exec_command` calls run, in order, and how many could not be read. */
export function codeModeCommands(script: string): { commands: string[]; unread: number } {
  const tokens = tokenize(script);
  const commands: string[] = [];
  let unread = 0;
  for (const [index, token] of tokens.entries()) {
    if (token.kind !== 'word' || token.text !== 'exec_command') continue;
    if (!isPunct(tokens[index + 1], '(')) continue;
    let depth = 0;
    let found: string | undefined;
    let named = false;
    for (let cursor = index + 1; cursor < tokens.length; cursor++) {
      const inner = tokens[cursor];
      if (inner === undefined) break;
      if (inner.kind === 'punct' && '([{'.includes(inner.text)) depth++;
      if (inner.kind === 'punct' && ')]}'.includes(inner.text)) depth--;
      if (depth <= 0) break;
      if (
        depth === 2 &&
        inner.kind === 'word' &&
        inner.text === 'cmd' &&
        isPunct(tokens[cursor + 1], ':')
      ) {
        named = true;
        const next = tokens[cursor + 2];
        const after = tokens[cursor + 3];
        // Only a value that is the whole expression: `cmd: "a" + b` is computed.
        if (next?.kind === 'string' && (isPunct(after, ',') || isPunct(after, '}'))) {
          found = next.value;
        }
        break;
      }
    }
    if (named && found !== undefined) commands.push(found);
    else unread++;
  }
  return { commands, unread };
}
