import path from 'node:path';

/** Quote a word for a POSIX shell when it needs it. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A path as the user would type it from `cwd`: relative below it, absolute elsewhere. */
function typedPath(target: string, cwd: string): string {
  const relative = path.relative(cwd, target);
  return relative === '' ? '.' : relative.startsWith('..') ? target : relative;
}

/**
 * How this redgreen was started, so a printed command can be pasted as is:
 * `redgreen` when it ran under that name (npm's bin link), else
 * `node <script>`.
 */
export function redgreenCommand(cwd: string, argv: readonly string[] = process.argv): string {
  const script = argv[1];
  if (script === undefined || path.basename(script) === 'redgreen') return 'redgreen';
  return `node ${shellWord(typedPath(script, cwd))}`;
}

/** The exact command that finishes an interrupted or incomplete run. */
export function resumeCommand(outDir: string, cwd: string, argv?: readonly string[]): string {
  return `${redgreenCommand(cwd, argv)} run --resume ${shellWord(typedPath(outDir, cwd))}`;
}
