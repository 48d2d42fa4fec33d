/**
 * A Ctrl-C (SIGINT) or SIGTERM while `scenario lint` or `check --repo
 * --layout` works leaves nothing behind in the temp dir: the command's
 * `redgreen-lint-*` / `redgreen-check-*` directory is removed before the
 * signal ends the process, which still dies of that signal.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { cleanEnv, cliPath, repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const entries = (dir: string, prefix: string): string[] =>
  readdirSync(dir).filter((name) => name.startsWith(prefix));

/** Start the CLI with its own temp dir, signal it once its work dir exists, and return what is left. */
async function interruptOnceWorking(
  args: readonly string[],
  prefix: string,
  signal: NodeJS.Signals,
): Promise<{ left: string[]; signal: string | undefined; sawDir: boolean }> {
  const tmp = makeTempDir();
  const child = execa(process.execPath, [cliPath, ...args], {
    cwd: repoRoot,
    env: cleanEnv({ TMPDIR: tmp }),
    extendEnv: false,
    reject: false,
    timeout: 120_000,
  });
  let sawDir = false;
  let exited = false;
  void child.then(() => {
    exited = true;
  });
  while (!exited) {
    if (entries(tmp, prefix).length > 0) {
      sawDir = true;
      child.kill(signal);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const result = await child;
  return { left: entries(tmp, prefix), signal: result.signal, sawDir };
}

describe('an interrupted lint or check removes its temp work dir', () => {
  it('scenario lint, SIGINT', async () => {
    const got = await interruptOnceWorking(['scenario', 'lint', 's1'], 'redgreen-lint-', 'SIGINT');
    expect(got.sawDir).toBe(true);
    expect(got.signal).toBe('SIGINT');
    expect(got.left).toEqual([]);
  });

  it('check --repo --layout, SIGTERM', async () => {
    const repo = path.join(makeTempDir(), 'repo');
    const built = await runCli(['fixture', 's1', 'flat', repo]);
    expect(built.exitCode, built.stderr).toBe(0);
    const reply = path.join(makeTempDir(), 'reply.md');
    writeFileSync(reply, '3. FIRST DISPATCH: Task 1\n');
    const got = await interruptOnceWorking(
      ['check', 's1', '--reply', reply, '--repo', repo, '--layout', 'flat'],
      'redgreen-check-',
      'SIGTERM',
    );
    expect(got.sawDir).toBe(true);
    expect(got.signal).toBe('SIGTERM');
    expect(got.left).toEqual([]);
  });
});
