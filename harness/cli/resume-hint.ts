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

/**
 * The exact command that finishes an interrupted or incomplete run. `--resume`
 * repeats what the results directory recorded, but not the flags that are
 * not the run's (judging as reps land): those given now are passed in
 * `extra`, so the reps still to come are judged as the first ones were.
 */
export function resumeCommand(
  outDir: string,
  cwd: string,
  argv?: readonly string[],
  extra: readonly string[] = [],
): string {
  return [
    `${redgreenCommand(cwd, argv)} run --resume ${shellWord(typedPath(outDir, cwd))}`,
    ...extra.map(shellWord),
  ].join(' ');
}

/** The judging flags of a run, as a resumed run must be given them again. */
export function judgeFlags(flags: { judge?: boolean; judgeModel?: string | undefined }): string[] {
  if (flags.judgeModel !== undefined) return ['--judge-model', flags.judgeModel];
  return flags.judge === true ? ['--judge'] : [];
}
