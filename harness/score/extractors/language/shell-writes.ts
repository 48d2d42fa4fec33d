/**
 * Which files a Bash command writes, read from the command text (never run):
 * output redirections (`>`, `>>`, `&>`, `>|`, also glued to a word, `x>f`,
 * and into a here-document's program; a quoted `>` is an argument), `tee`,
 * in-place edits (`sed -i`, `perl -i`), `cp`/`mv`/`install`/`ln` onto a
 * destination (the last operand, or `-t DIR`; onto a directory, each
 * source's name in it), `touch`, `truncate`, `dd of=`, a script given to
 * `bash -c`/`sh -c`/`eval` (read the same way), a patch fed to `git apply`
 * or `patch` in a here-document (its `+++` paths), and the paths an inline
 * Python, Node, Perl or Ruby program (`-c`/`-e`, or a here-document) opens
 * for writing (interpreter-writes.ts). A leading `cd DIR` moves where later
 * relative paths of the same command point. Redirections to `/dev/…` and to
 * file descriptors (`2>&1`) write no file.
 *
 * Each write keeps the simple command it is in (its position inside the
 * command, as commandParts counts), so two events of one compound command
 * (`pytest && git commit`, `cat > test.js … && cat > impl.js …`) are ordered
 * left to right. Not a shell: variables, globs and command substitutions in
 * a path are kept as written (a path with `$` is still a write, whose path
 * no glob of a real file matches), and a program that writes files it does
 * not name (a build, a script file, `git apply fix.patch`) is not seen here:
 * the `order` verb checks the snapshots for such writes.
 */
import path from 'node:path';
import { codeWrites, heredocProgramWrites, inlinePrograms } from './interpreter-writes.js';
import {
  basename,
  heredocsOpened,
  programOf,
  type SimpleCommand,
  simpleCommands,
  splitHeredocs,
} from './shell-words.js';

export interface ShellWrite {
  /** The path as the command names it, resolved against a preceding `cd` when relative. */
  readonly path: string;
  /** The simple command's index in the command line. */
  readonly part: number;
  /** How: `>`, `>>`, `tee`, `sed -i`, `cp`, … */
  readonly how: string;
}

const REDIRECT_ALONE = /^(?:\d*|&)>>?\|?$/;
/** A word holding an output redirection: what comes before it (an argument, or a file descriptor), and its target. */
const REDIRECT_IN_WORD = /^([^<>]*?)(?:\d+|&)?>>?\|?(.+)$/;

function isFlag(word: string): boolean {
  return word.startsWith('-') && word !== '-';
}

/** Redirection targets among a simple command's words, and the words left. */
function redirections(command: SimpleCommand): { targets: string[]; rest: string[] } {
  const { words, quoted } = command;
  const targets: string[] = [];
  const rest: string[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? '';
    if (quoted?.[index] === true) {
      rest.push(word);
      continue;
    }
    if (REDIRECT_ALONE.test(word)) {
      const target = words[index + 1];
      if (target !== undefined) targets.push(target);
      index += 1;
      continue;
    }
    const joined = REDIRECT_IN_WORD.exec(word);
    if (joined?.[2] !== undefined && !word.startsWith('<')) {
      targets.push(joined[2]);
      if (joined[1] !== undefined && joined[1] !== '' && !/^\d+$/.test(joined[1])) {
        rest.push(joined[1]);
      }
      continue;
    }
    rest.push(word);
  }
  return { targets: targets.filter((target) => !/^&|^\/dev\//.test(target)), rest };
}

/** Where cp/mv/install/ln put their sources: the destination, or each source's name in it when it is a directory. */
function destinationWrites(name: string, args: readonly string[]): string[] {
  const target = args.findIndex((arg) => arg === '-t' || arg === '--target-directory');
  const operands = args.filter(
    (arg, index) =>
      !isFlag(arg) &&
      (target < 0 || index !== target + 1) &&
      !/^-m$|^--mode$/.test(args[index - 1] ?? ''),
  );
  const into = (dir: string, sources: readonly string[]): string[] =>
    sources.map((source) => `${dir.replace(/\/+$/, '')}/${basename(source)}`);
  if (target >= 0 && args[target + 1] !== undefined) {
    return into(args[target + 1] as string, operands);
  }
  const dest = operands.at(-1);
  if (operands.length < 2 || dest === undefined) return [];
  const sources = operands.slice(0, -1);
  if (dest.endsWith('/') || sources.length > 1) return into(dest, sources);
  // `cp a.js src`: a file named src, or a.js in the directory src; a name with no dot may be either.
  if (name !== 'ln' && !basename(dest).includes('.')) return [dest, ...into(dest, sources)];
  return [dest];
}

/** The paths a patch writes: its `+++` lines (`b/` and the like stripped, as `-p1` does). */
function patchWrites(patch: string): string[] {
  return [...patch.matchAll(/^\+\+\+ (\S+)/gm)]
    .map((found) => (found[1] ?? '').replace(/^[ab]\//, ''))
    .filter((file) => file !== '/dev/null' && file !== '');
}

/** The files the program of one simple command writes (its redirections aside). */
function programWrites(
  command: SimpleCommand,
  heredocs: readonly string[],
): { path: string; how: string }[] {
  const { program, args } = programOf(command);
  const name = basename(program);
  const operands = args.filter((arg) => !isFlag(arg));
  switch (name) {
    case 'tee':
      return operands.map((file) => ({ path: file, how: 'tee' }));
    case 'touch':
      return operands.map((file) => ({ path: file, how: 'touch' }));
    case 'truncate': {
      const files = args.filter(
        (arg, i) => !isFlag(arg) && !/^-s$|^--size$/.test(args[i - 1] ?? ''),
      );
      return files.map((file) => ({ path: file, how: 'truncate' }));
    }
    case 'sed':
    case 'perl': {
      if (args.some((arg) => /^-[a-zA-Z]*i/.test(arg) || arg.startsWith('--in-place'))) {
        const scripted = args.some((arg) => arg === '-e' || arg === '--expression');
        const files = args.filter(
          (arg, i) => !isFlag(arg) && !/^(?:-e|--expression)$/.test(args[i - 1] ?? ''),
        );
        return (scripted ? files : files.slice(1)).map((file) => ({
          path: file,
          how: `${name} -i`,
        }));
      }
      return name === 'perl' ? heredocProgramWrites(name, heredocs) : [];
    }
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln':
      return destinationWrites(name, args).map((file) => ({ path: file, how: name }));
    case 'dd':
      return args
        .filter((arg) => arg.startsWith('of='))
        .map((arg) => ({ path: arg.slice(3), how: 'dd' }));
    case 'patch':
      return heredocs.flatMap(patchWrites).map((file) => ({ path: file, how: 'patch' }));
    case 'git':
      return args[0] === 'apply'
        ? heredocs.flatMap(patchWrites).map((file) => ({ path: file, how: 'git apply' }))
        : [];
    default:
      return heredocProgramWrites(name, heredocs);
  }
}

const WRAPPERS = new Set(['env', 'sudo', 'time', 'nice', 'command', 'exec', 'nohup']);

/** `bash -c SCRIPT`, `sh -c SCRIPT` (past `env`, `sudo` and the like), `eval WORDS`: the script it runs, else undefined. */
function scriptOf(command: SimpleCommand): string | undefined {
  const { words } = command;
  let at = 0;
  while (
    at < words.length &&
    (WRAPPERS.has(words[at] ?? '') ||
      isFlag(words[at] ?? '') ||
      /^[A-Za-z_]\w*=/.test(words[at] ?? ''))
  ) {
    at += 1;
  }
  const first = words[at];
  if (first === 'eval') return words.slice(at + 1).join(' ');
  if (first === undefined || !/^(?:ba|z|da|k)?sh$/.test(basename(first))) return undefined;
  const rest = words.slice(at + 1);
  const flag = rest.findIndex((word) => /^-[a-z]*c[a-z]*$/.test(word));
  return flag >= 0 ? rest[flag + 1] : undefined;
}

function joinPath(dir: string, file: string): string {
  if (file.startsWith('/') || dir === '') return file;
  return path.posix.normalize(`${dir.replace(/\/+$/, '')}/${file}`);
}

/** The index of the simple command that the text at `at` belongs to. */
function partAt(commands: string, at: number): number {
  const before = commands.slice(0, at);
  const count = simpleCommands(before).length;
  // Text that ends mid-command (`env X=1 python3 -c …`) belongs to that command.
  return /(?:&&|\|\||[;|\n&(`]|\$\(|\bthen|\bdo|\belse)\s*$/.test(before) || count === 0
    ? count
    : count - 1;
}

/** Every file a Bash command line writes, in order (`cwd`: where a `cd` before it left the shell). */
export function shellWrites(commandLine: string, cwd = ''): ShellWrite[] {
  const writes: ShellWrite[] = [];
  const { commands, bodies } = splitHeredocs(commandLine);
  const simple = simpleCommands(commands);
  const dirs: string[] = [];
  let dir = cwd;
  let bodyIndex = 0;
  for (const [part, command] of simple.entries()) {
    dirs.push(dir);
    const opened = heredocsOpened(command);
    const heredocs = bodies.slice(bodyIndex, bodyIndex + opened);
    bodyIndex += opened;
    const script = scriptOf(command);
    if (script !== undefined) {
      // The script's own writes, all at this part: one simple command of the outer line.
      for (const write of shellWrites(script, dir)) writes.push({ ...write, part });
    }
    const { targets, rest } = redirections(command);
    if (rest[0] === 'cd' && rest[1] !== undefined) {
      dir = joinPath(dir, rest[1]);
      continue;
    }
    for (const target of targets) writes.push({ path: joinPath(dir, target), part, how: '>' });
    if (script !== undefined) continue;
    for (const write of programWrites({ words: rest }, heredocs)) {
      writes.push({ path: joinPath(dir, write.path), part, how: write.how });
    }
  }
  for (const inline of inlinePrograms(commands)) {
    const part = Math.min(partAt(commands, inline.at), Math.max(0, simple.length - 1));
    for (const write of codeWrites(inline.program, inline.code)) {
      writes.push({ path: joinPath(dirs[part] ?? cwd, write.path), part, how: write.how });
    }
  }
  return writes.sort((a, b) => a.part - b.part);
}
