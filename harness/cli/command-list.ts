import { COMMANDS } from './command-table.js';

/**
 * What `redgreen --help` (and bare `redgreen`) prints: the program's usage,
 * description, options and command list. Rendered here, without loading
 * commander, because listing the commands is the one answer that needs no
 * argument parsing, and commander is a third of a bare Node start. The text
 * is commander's own layout, byte for byte (tests/cli/help.test.ts compares
 * it with commander's rendering of the same program at several widths);
 * cli.ts builds that commander program from the same constants.
 */
export const PROGRAM_DESCRIPTION =
  'Evaluate agent skill text: run fresh model sessions against the released (RED) and the changed ' +
  '(GREEN) SKILL.md on truthful fixture repos, score what they decided, and gate the change on the numbers.';

export const VERSION_OPTION = { flags: '-V, --version', description: 'print the redgreen version' };
export const HELP_OPTION = {
  flags: '-h, --help',
  description: 'show help for redgreen or a command',
};

export const PROGRAM_HELP_AFTER = [
  '',
  "Run `redgreen <command> --help` for a command's options and exit codes.",
  'With no command, redgreen prints this list to stderr and exits 2 (a usage error).',
].join('\n');

/** commander's implicit `help` command, listed last. */
const HELP_COMMAND = { term: 'help [command]', description: 'display help for command' };
/** Below this many columns for a description, commander stops wrapping. */
const MIN_WIDTH_TO_WRAP = 40;

/** Greedy wrap at whitespace, as commander's Help.boxWrap does. */
function boxWrap(text: string, width: number): string {
  if (width < MIN_WIDTH_TO_WRAP) return text;
  const lines: string[] = [];
  for (const line of text.split(/\r\n|\n/)) {
    const chunks = line.match(/[\s]*[^\s]+/g);
    if (chunks === null) {
      lines.push('');
      continue;
    }
    let current = chunks[0] ?? '';
    for (const chunk of chunks.slice(1)) {
      if (current.length + chunk.length <= width) {
        current += chunk;
      } else {
        lines.push(current);
        current = chunk.trimStart();
      }
    }
    lines.push(current);
  }
  return lines.join('\n');
}

function formatItem(term: string, termWidth: number, description: string, width: number): string {
  const remaining = width - termWidth - 4;
  const wrapped =
    remaining < MIN_WIDTH_TO_WRAP
      ? description
      : boxWrap(description, remaining).replace(/\n/g, `\n${' '.repeat(termWidth + 2)}`);
  return `  ${term.padEnd(termWidth)}  ${wrapped.replace(/\n/g, '\n  ')}`;
}

/** The command list at `width` columns (commander uses the terminal's, else 80). */
export function commandListHelp(width = 80): string {
  const options = [VERSION_OPTION, HELP_OPTION];
  const commands = [
    ...COMMANDS.map((entry) => ({ term: entry.name, description: entry.summary })),
    HELP_COMMAND,
  ];
  const termWidth = Math.max(
    ...options.map((option) => option.flags.length),
    ...commands.map((command) => command.term.length),
  );
  return [
    'Usage: redgreen [options] [command]',
    '',
    boxWrap(PROGRAM_DESCRIPTION, width),
    '',
    'Options:',
    ...options.map((option) => formatItem(option.flags, termWidth, option.description, width)),
    '',
    'Commands:',
    ...commands.map((command) => formatItem(command.term, termWidth, command.description, width)),
    `${PROGRAM_HELP_AFTER}\n`,
  ].join('\n');
}
