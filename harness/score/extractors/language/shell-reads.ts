/**
 * What a tool call read or ran, from its input only (never its prose: a
 * reply can echo a skill's text without having done what it says):
 *
 * - runsProgram: a Bash command whose simple commands run a program of that
 *   name (`/x/bin/name args`, `bash name`, `env X=1 name`).
 * - readsPath: a Bash command running a reading program (`cat`, `ls`, `head`,
 *   `grep`, …) on an argument the pattern matches, or a Read/Glob/Grep/LS
 *   call whose path field it matches.
 * - readsCommitContent: a command that prints the content of one of the given
 *   commits: `git show`, `git diff`, `git log -p` or `git cat-file -p` naming
 *   one (prefix match either way), or `git show <hash>:<path>`; `git log -p`
 *   with no revision at all also counts (it prints every commit's patch).
 *   Summary-only forms (`git show --stat`, `--name-only`, `-s`,
 *   `git log --oneline`) are not content.
 */

import { bashCommand, stringField, type ToolCall } from '../../tool-call.js';
import { basename, programOf, type SimpleCommand, simpleCommands } from './shell-words.js';

/** Reading programs that print a file's text, or part of it. */
export const TEXT_PROGRAMS: ReadonlySet<string> = new Set([
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'sed',
  'awk',
  'grep',
  'egrep',
  'rg',
  'nl',
  'bat',
  'xxd',
  'od',
  'diff',
  'strings',
  'tac',
  'cut',
  'sort',
  'uniq',
  'jq',
]);

/** Reading programs that look at a file without printing its text: its name, size, a checksum, a test. */
const METADATA_PROGRAMS: ReadonlySet<string> = new Set([
  'ls',
  'test',
  '[',
  '[[',
  'stat',
  'find',
  'file',
  'wc',
  'tree',
  'readlink',
  'realpath',
  'cmp',
  'sha256sum',
  'md5sum',
]);

export const READ_PROGRAMS: ReadonlySet<string> = new Set([...TEXT_PROGRAMS, ...METADATA_PROGRAMS]);

const SUMMARY_ONLY_FLAGS = new Set([
  '-s',
  '--no-patch',
  '--stat',
  '--numstat',
  '--shortstat',
  '--name-only',
  '--name-status',
  '--summary',
  '--dirstat',
  '--quiet',
  '--exit-code',
]);
const PATCH_FLAGS = new Set([
  '-p',
  '-u',
  '--patch',
  '--patch-with-stat',
  '--patch-with-raw',
  '--cc',
]);

/** Git's own options before the subcommand, with the ones that take a separate value. */
const GIT_OPTIONS_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace']);

function gitInvocation(
  command: SimpleCommand,
): { sub: string; args: readonly string[] } | undefined {
  const { program, args } = programOf(command);
  if (basename(program) !== 'git') return undefined;
  let index = 0;
  while (index < args.length) {
    const word = args[index] ?? '';
    if (GIT_OPTIONS_WITH_VALUE.has(word)) {
      index += 2;
      continue;
    }
    if (word.startsWith('-')) {
      index++;
      continue;
    }
    return { sub: word, args: args.slice(index + 1) };
  }
  return undefined;
}

/** The hex-run pattern for each minimum length, compiled once (matchAll works on a copy). */
const hexPatterns = new Map<number, RegExp>();

function hexRuns(word: string, minLength: number): string[] {
  let pattern = hexPatterns.get(minLength);
  if (pattern === undefined) {
    pattern = new RegExp(`(?<![0-9a-fA-F])[0-9a-fA-F]{${minLength},40}(?![0-9a-fA-F])`, 'g');
    hexPatterns.set(minLength, pattern);
  }
  return [...word.matchAll(pattern)].map((found) => found[0].toLowerCase());
}

function citedIn(word: string, cited: readonly string[], minLength: number): string | undefined {
  for (const run of hexRuns(word, minLength)) {
    const hit = cited.find((hash) => hash.startsWith(run) || run.startsWith(hash));
    if (hit !== undefined) return run;
  }
  return undefined;
}

function hasFlag(args: readonly string[], flags: ReadonlySet<string>): boolean {
  return args.some((arg) => flags.has(arg.split('=')[0] ?? arg));
}

/** Short flags bundled like `-1p`, `-pU3`: does the bundle contain `p` or `u`? */
function hasBundledPatchFlag(args: readonly string[]): boolean {
  return args.some((arg) => /^-[A-Za-z0-9]*[pu][A-Za-z0-9]*$/.test(arg) && !arg.startsWith('--'));
}

/** Why this simple command reads a cited commit's content, or undefined. */
function forensicReason(
  command: SimpleCommand,
  cited: readonly string[],
  minLength: number,
): string | undefined {
  const git = gitInvocation(command);
  if (git === undefined) return undefined;
  const { sub, args } = git;
  const operands = args.filter((arg) => !arg.startsWith('-'));
  const named = operands
    .map((arg) => ({ arg, hash: citedIn(arg, cited, minLength) }))
    .find((entry) => entry.hash !== undefined);
  const patchForced = hasFlag(args, PATCH_FLAGS) || hasBundledPatchFlag(args);
  const summaryOnly = hasFlag(args, SUMMARY_ONLY_FLAGS) && !patchForced;

  switch (sub) {
    case 'show': {
      if (named === undefined) return undefined;
      if (/^[0-9a-fA-F]+[~^0-9]*:/.test(named.arg)) return `git show ${named.arg}`;
      return summaryOnly ? undefined : `git show ${named.arg}`;
    }
    case 'diff':
      return named !== undefined && !summaryOnly ? `git diff ${named.arg}` : undefined;
    case 'log': {
      if (!patchForced) return undefined;
      if (named !== undefined) return `git log -p ${named.arg}`;
      const dashDash = args.indexOf('--');
      const beforePaths =
        dashDash < 0 ? operands : args.slice(0, dashDash).filter((a) => !a.startsWith('-'));
      return beforePaths.length === 0 ? 'git log -p over the whole history' : undefined;
    }
    case 'cat-file': {
      if (named === undefined) return undefined;
      const prints =
        args.includes('-p') ||
        operands.some((arg) => arg === 'blob' || arg === 'commit' || arg === 'tree');
      return prints ? `git cat-file ${args.join(' ')}` : undefined;
    }
    default:
      return undefined;
  }
}

/** A loop or xargs that feeds cited hashes to a content-reading git command. */
function loopForensicReason(
  commandLine: string,
  cited: readonly string[],
  minLength: number,
): string | undefined {
  if (!/\b(?:for|while|xargs)\b/.test(commandLine)) return undefined;
  if (
    !/\bgit\s+(?:[-\w=]+\s+)*(?:show|diff|cat-file\s+-p|log\s+(?:\S+\s+)*-(?:p|-patch)\b)/.test(
      commandLine,
    )
  ) {
    return undefined;
  }
  const hash = citedIn(commandLine, cited, minLength);
  return hash === undefined ? undefined : `loop over cited commits (${hash})`;
}

/** The Bash command's simple commands, or undefined for any other call. */
function commandsOf(call: ToolCall): SimpleCommand[] | undefined {
  const command = bashCommand(call);
  return command === undefined ? undefined : simpleCommands(command);
}

/** Why this call runs a program named `name`, or undefined. */
export function runsProgram(call: ToolCall, name: string): string | undefined {
  for (const simple of commandsOf(call) ?? []) {
    if (basename(programOf(simple).program) === name) return `ran ${name}`;
  }
  return undefined;
}

/** Tool inputs that name what a reading tool reads. */
const PATH_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Read: ['file_path'],
  Glob: ['pattern', 'path'],
  Grep: ['path', 'glob'],
  LS: ['path'],
};

/** Why this call reads something `pattern` matches, or undefined. */
export function readsPath(call: ToolCall, pattern: RegExp): string | undefined {
  const simples = commandsOf(call);
  if (simples !== undefined) {
    for (const simple of simples) {
      const { program, args } = programOf(simple);
      if (READ_PROGRAMS.has(basename(program)) && args.some((arg) => pattern.test(arg))) {
        return `${basename(program)} ${args.find((arg) => pattern.test(arg)) ?? ''}`.trim();
      }
    }
    return undefined;
  }
  for (const field of PATH_FIELDS[call.name] ?? []) {
    const value = stringField(call.input, field);
    if (value !== undefined && pattern.test(value)) return `${call.name} ${value}`;
  }
  return undefined;
}

/** The hashes of `citations` (a citation may be a `base..head` range) at least `minLength` long. */
export function citedHashes(citations: readonly string[], minLength: number): string[] {
  return [...new Set(citations.flatMap((citation) => hexRuns(citation, minLength)))];
}

/** Why this call prints the content of one of the `cited` commits (see citedHashes), or undefined. */
export function readsCommitContent(
  call: ToolCall,
  cited: readonly string[],
  minLength: number,
): string | undefined {
  const command = bashCommand(call);
  if (command === undefined || cited.length === 0) return undefined;
  return (
    simpleCommands(command)
      .map((simple) => forensicReason(simple, cited, minLength))
      .find((reason) => reason !== undefined) ?? loopForensicReason(command, cited, minLength)
  );
}
