/**
 * The run's private temporary directory (`$TMPDIR/redgreen-run-*`): every
 * file a session makes stays inside it, the engine's messaging socket too
 * (Claude Code falls back to a shared /tmp/cc-socks-<uid> when the socket
 * path would be too long for a Unix socket); `--keep-workdirs` says where it
 * is kept.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/temp-dir.js';
import { filesUnder, runOneRep } from './support.js';

/** Every directory under `dir` (recursively) whose name is `name`. */
function directoriesNamed(dir: string, name: string): string[] {
  const found: string[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const full = path.join(current, entry.name);
      if (entry.name === name) found.push(full);
      walk(full);
    }
  };
  walk(dir);
  return found;
}

describe('the private work directory', () => {
  it("holds the engine's socket directory even under a longish TMPDIR, and --keep-workdirs says where it is", async () => {
    // 50 characters: the socket path under the session's own TMPDIR would pass the 103-byte limit.
    const base = makeTempDir();
    const tmp = path.join(base, 'x'.repeat(Math.max(1, 50 - base.length - 1)));
    mkdirSync(tmp);
    expect(tmp.length).toBeGreaterThanOrEqual(50);
    const { out, run } = await runOneRep('1/4', ['--keep-workdirs'], { TMPDIR: tmp });
    expect(run.exitCode, run.stderr).toBe(0);
    const [workRoot, ...others] = readdirSync(tmp).filter((entry) =>
      entry.startsWith('redgreen-run-'),
    );
    expect(others).toEqual([]);
    expect(workRoot).toBeDefined();
    const kept = path.join(tmp, workRoot ?? '');
    expect(`${run.stdout}${run.stderr}`).toContain(`work dirs kept in ${kept}`);
    expect(directoriesNamed(kept, 'cc-socks').length, filesUnder(kept).join('\n')).toBe(1);
    expect(existsSync(out)).toBe(true);

    // A kept work dir is not a stale one: the next run leaves it alone.
    const next = await runOneRep('2/4', [], { TMPDIR: tmp });
    expect(next.run.exitCode, next.run.stderr).toBe(0);
    expect(existsSync(kept)).toBe(true);
    expect(next.run.stdout).not.toContain('stale work dir');
  });
});
