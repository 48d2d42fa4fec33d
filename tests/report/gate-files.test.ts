/**
 * `gate --junit <file> --summary <file>`: the files are checked before the
 * gate prints anything. A path that is a directory, or the same path for
 * both, is bad input (one line naming the flag, exit 2, nothing written); a
 * file already there is overwritten, as the README says.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedOneRep } from '../campaign/support.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let root = '';
let run = '';

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-gate-files-'));
  run = path.join(root, 'run');
  // The run is shared with other files (shared-runs.ts); this file keeps its own copy.
  const shared = await sharedOneRep('1/4', ['--no-report']);
  expect(shared.run.exitCode, shared.run.stderr).toBe(0);
  cpSync(shared.out, run, { recursive: true });
}, 300_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  return lines[0] ?? '';
}

describe('gate output files', () => {
  for (const flag of ['--summary', '--junit']) {
    it(`${flag} naming a directory is refused before the gate prints anything`, async () => {
      const dir = makeTempDir();
      mkdirSync(path.join(dir, 'a-dir'));
      const target = path.join(dir, 'a-dir');
      const gate = await runCli(['gate', run, flag, target]);
      expect(gate.exitCode, gate.stderr).toBe(2);
      expect(gate.stdout).toBe('');
      expect(oneLine(gate.stderr)).toMatch(new RegExp(`^redgreen: ${flag} .*is a directory`));
      expect(readdirSync(dir)).toEqual(['a-dir']);
      expect(readdirSync(target)).toEqual([]);
    });
  }

  it('--junit and --summary naming the same file are refused', async () => {
    const dir = makeTempDir();
    const same = path.join(dir, 'gate.out');
    const gate = await runCli(['gate', run, '--junit', same, '--summary', `${dir}/./gate.out`]);
    expect(gate.exitCode, gate.stderr).toBe(2);
    expect(gate.stdout).toBe('');
    expect(oneLine(gate.stderr)).toMatch(/--junit.*--summary.*same file/);
    expect(existsSync(same)).toBe(false);
  });

  it('overwrites files that are already there', async () => {
    const dir = makeTempDir();
    const junit = path.join(dir, 'junit.xml');
    const summary = path.join(dir, 'summary.md');
    writeFileSync(junit, 'old');
    writeFileSync(summary, 'old');
    const gate = await runCli(['gate', run, '--junit', junit, '--summary', summary]);
    expect([0, 1, 2]).toContain(gate.exitCode);
    expect(readFileSync(junit, 'utf8')).toMatch(/^<\?xml/);
    expect(readFileSync(summary, 'utf8')).not.toBe('old');
  });
});
