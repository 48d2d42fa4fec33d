/**
 * Just enough shell reading to tell what a Bash tool call ran: split a
 * command line into simple commands (at `;`, `&&`, `||`, `|`, newlines,
 * `$(`, backticks and subshell parentheses) and each simple command into
 * words, with quotes removed. Not a shell parser: it never executes or
 * expands anything, and it is generous rather than exact.
 */

/** One simple command: its words, with leading `VAR=value` assignments removed. */
export interface SimpleCommand {
  readonly words: readonly string[];
  /**
   * Which words were written in quotes, by index (absent: none known): a
   * quoted `>` is an argument, an unquoted one a redirection.
   */
  readonly quoted?: readonly boolean[] | undefined;
}

const SEPARATORS = /&&|\|\||[;|\n&]|\$\(|`|\(|\)|\bthen\b|\bdo\b|\belse\b/g;

function wordsOf(segment: string): { words: string[]; quoted: boolean[] } {
  const words: string[] = [];
  const quoted: boolean[] = [];
  for (const found of segment.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    const word = found[1] ?? found[2] ?? found[3] ?? '';
    words.push(word.replace(/^["']|["']$/g, ''));
    quoted.push(found[3] === undefined);
  }
  return { words, quoted };
}

/** The simple commands of a command line, in order. */
export function simpleCommands(commandLine: string): SimpleCommand[] {
  return commandLine
    .split(SEPARATORS)
    .map((segment) => wordsOf(segment))
    .map(({ words, quoted }) => {
      let start = 0;
      while (start < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[start] ?? '')) start++;
      return { words: words.slice(start), quoted: quoted.slice(start) };
    })
    .filter((command) => command.words.length > 0);
}

const RUNNERS = new Set([
  'bash',
  'sh',
  'zsh',
  'dash',
  'source',
  '.',
  'exec',
  'command',
  'env',
  'sudo',
  'time',
  'nice',
]);

/** The program a simple command runs (past `bash`, `env`, `time` and the like), and its arguments. */
export function programOf(command: SimpleCommand): { program: string; args: readonly string[] } {
  let index = 0;
  while (index < command.words.length - 1 && RUNNERS.has(command.words[index] ?? '')) {
    index++;
    while (index < command.words.length - 1 && /^-/.test(command.words[index] ?? '')) index++;
  }
  return { program: command.words[index] ?? '', args: command.words.slice(index + 1) };
}

/** `/a/b/run-tests` → `run-tests`. */
export function basename(word: string): string {
  return word.replace(/\/+$/, '').split('/').pop() ?? word;
}

const HEREDOC_OPENER = /<<-?\s*(?:'([^']+)'|"([^"]+)"|\\?([A-Za-z_][\w-]*))/g;

/**
 * A command line split into its commands and its here-document bodies: the
 * lines after a `<<WORD` (or `<<-WORD`, `<<'WORD'`, `<<"WORD"`) up to the
 * line that is WORD alone are data fed to a program, not commands. The line
 * holding the `<<` stays (its redirections and program are the command);
 * the bodies are kept in the order their openers appear.
 */
export function splitHeredocs(commandLine: string): {
  readonly commands: string;
  readonly bodies: readonly string[];
} {
  const kept: string[] = [];
  const bodies: string[] = [];
  let ends: string[] = [];
  let body: string[] = [];
  for (const line of commandLine.split('\n')) {
    if (ends.length > 0) {
      const first = ends[0] as string;
      if (line.replace(/^\t+/, '') === first) {
        bodies.push(body.join('\n'));
        body = [];
        ends = ends.slice(1);
      } else {
        body.push(line);
      }
      continue;
    }
    kept.push(line);
    ends = [...line.matchAll(HEREDOC_OPENER)].map(
      (found) => found[1] ?? found[2] ?? found[3] ?? '',
    );
  }
  if (ends.length > 0) bodies.push(body.join('\n'));
  return { commands: kept.join('\n'), bodies };
}

/** A command line without its here-document bodies (see splitHeredocs). */
export function withoutHeredocBodies(commandLine: string): string {
  return splitHeredocs(commandLine).commands;
}

/** How many here-documents a simple command opens (`<<EOF`, `<< EOF`; not a `<<<` here-string). */
export function heredocsOpened(command: SimpleCommand): number {
  return command.words.filter(
    (word, index) => word.startsWith('<<') && !word.startsWith('<<<') && !command.quoted?.[index],
  ).length;
}

/**
 * The simple commands of a command line as the event list counts them: its
 * here-document bodies left out, then split as simpleCommands splits. A
 * simple command's index here is its position inside the one tool call.
 */
export function commandParts(commandLine: string): SimpleCommand[] {
  return simpleCommands(withoutHeredocBodies(commandLine));
}
