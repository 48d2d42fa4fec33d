/**
 * Which files a Bash command writes, read from the command text (never run):
 * output redirections (`>`, `>>`, `&>`, `>|`, also into a here-document's
 * program), `tee`, in-place edits (`sed -i`, `perl -i`), `cp`/`mv`/`install`/
 * `ln` onto a destination (the last operand, or `-t DIR`), `touch`,
 * `truncate`, and `dd of=`. A leading `cd DIR` moves where later relative
 * paths of the same command point. Redirections to `/dev/…` and to file
 * descriptors (`2>&1`) write no file.
 *
 * Each write keeps the simple command it is in (its position inside the
 * command, as commandParts counts), so two events of one compound command
 * (`pytest && git commit`, `cat > test.js … && cat > impl.js …`) are ordered
 * left to right. Not a shell: variables, globs and command substitutions in
 * a path are kept as written (a path with `$` is still a write, whose path
 * no glob of a real file matches).
 */
import { basename, commandParts, programOf, type SimpleCommand } from './shell-words.js';

export interface ShellWrite {
  /** The path as the command names it, resolved against a preceding `cd` when relative. */
  readonly path: string;
  /** The simple command's index in the command line. */
  readonly part: number;
  /** How: `>`, `>>`, `tee`, `sed -i`, `cp`, … */
  readonly how: string;
}

const REDIRECT_ALONE = /^(?:\d*|&)>>?\|?$/;
const REDIRECT_JOINED = /^(?:\d*|&)(>>?\|?)(.+)$/;

function isFlag(word: string): boolean {
  return word.startsWith('-') && word !== '-';
}

/** Redirection targets among a simple command's words, and the words left. */
function redirections(words: readonly string[]): { targets: string[]; rest: string[] } {
  const targets: string[] = [];
  const rest: string[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? '';
    if (REDIRECT_ALONE.test(word)) {
      const target = words[index + 1];
      if (target !== undefined) targets.push(target);
      index += 1;
      continue;
    }
    const joined = REDIRECT_JOINED.exec(word);
    if (joined?.[2] !== undefined && !word.startsWith('<')) {
      targets.push(joined[2]);
      continue;
    }
    rest.push(word);
  }
  return { targets: targets.filter((target) => !/^&|^\/dev\//.test(target)), rest };
}

/** The files the program of one simple command writes (its redirections aside). */
function programWrites(command: SimpleCommand): { path: string; how: string }[] {
  const { program, args } = programOf(command);
  const name = basename(program);
  const operands = args.filter((arg) => !isFlag(arg));
  switch (name) {
    case 'tee':
      return operands.map((path) => ({ path, how: 'tee' }));
    case 'touch':
      return operands.map((path) => ({ path, how: 'touch' }));
    case 'truncate': {
      const files = args.filter(
        (arg, i) => !isFlag(arg) && !/^-s$|^--size$/.test(args[i - 1] ?? ''),
      );
      return files.map((path) => ({ path, how: 'truncate' }));
    }
    case 'sed':
    case 'perl': {
      if (!args.some((arg) => /^-[a-zA-Z]*i/.test(arg) || arg.startsWith('--in-place'))) return [];
      const scripted = args.some((arg) => arg === '-e' || arg === '--expression');
      const files = args.filter(
        (arg, i) => !isFlag(arg) && !/^(?:-e|--expression)$/.test(args[i - 1] ?? ''),
      );
      return (scripted ? files : files.slice(1)).map((path) => ({ path, how: `${name} -i` }));
    }
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln': {
      const target = args.findIndex((arg) => arg === '-t' || arg === '--target-directory');
      if (target >= 0 && args[target + 1] !== undefined) {
        return [{ path: args[target + 1] as string, how: name }];
      }
      const last = operands.at(-1);
      return operands.length >= 2 && last !== undefined ? [{ path: last, how: name }] : [];
    }
    case 'dd':
      return args
        .filter((arg) => arg.startsWith('of='))
        .map((arg) => ({ path: arg.slice(3), how: 'dd' }));
    default:
      return [];
  }
}

function joinPath(dir: string, path: string): string {
  if (path.startsWith('/') || dir === '') return path;
  return `${dir.replace(/\/+$/, '')}/${path}`;
}

/** Every file a Bash command line writes, in order. */
export function shellWrites(commandLine: string): ShellWrite[] {
  const writes: ShellWrite[] = [];
  let cwd = '';
  for (const [part, command] of commandParts(commandLine).entries()) {
    const { targets, rest } = redirections(command.words);
    if (rest[0] === 'cd' && rest[1] !== undefined) {
      cwd = joinPath(cwd, rest[1]);
      continue;
    }
    for (const target of targets) writes.push({ path: joinPath(cwd, target), part, how: '>' });
    for (const write of programWrites({ words: rest })) {
      writes.push({ path: joinPath(cwd, write.path), part, how: write.how });
    }
  }
  return writes;
}
