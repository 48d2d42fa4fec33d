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
 * `npx redgreen` when it ran from a project's `node_modules/.bin` (installed
 * as a dependency, or run with npx: not on PATH), `redgreen` when it ran
 * under that name from anywhere else (a global install), else
 * `node <script>` (`npm start`, or the script run directly).
 */
export function redgreenCommand(cwd: string, argv: readonly string[] = process.argv): string {
  const script = argv[1];
  if (script === undefined) return 'redgreen';
  if (path.basename(script) === 'redgreen') {
    return /[\\/]node_modules[\\/]\.bin[\\/]redgreen$/.test(script) ? 'npx redgreen' : 'redgreen';
  }
  return `node ${shellWord(typedPath(script, cwd))}`;
}

/** The exact command that finishes an interrupted or incomplete run. */
export function resumeCommand(outDir: string, cwd: string, argv?: readonly string[]): string {
  return `${redgreenCommand(cwd, argv)} run --resume ${shellWord(typedPath(outDir, cwd))}`;
}
