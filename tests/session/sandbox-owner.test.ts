/**
 * Handing a tree to the sandbox's user (redgreen started by root): every
 * entry is re-owned, a symlink itself and never what it points at, at any
 * depth, so a session's links cannot give it a host file.
 */
import { lstatSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNPRIVILEGED_USER } from '../../harness/sandbox/sandbox.js';
import { handOverTree } from '../../harness/sandbox/sandbox-owner.js';
import { makeTempDir } from '../helpers/temp-dir.js';

describe('handing a tree to the sandbox user', () => {
  it('re-owns every entry and each symlink itself, never a link’s target', async (test) => {
    if (process.getuid?.() !== 0) {
      console.log('skipped: only root can give files to another user');
      test.skip();
    }
    const base = makeTempDir();
    const host = path.join(base, 'host-file');
    const hostDir = path.join(base, 'host-dir');
    writeFileSync(host, 'host\n');
    mkdirSync(hostDir);
    writeFileSync(path.join(hostDir, 'inside'), 'host\n');
    const tree = path.join(base, 'repo');
    mkdirSync(path.join(tree, 'a/b'), { recursive: true });
    writeFileSync(path.join(tree, 'a/b/file'), 'x\n');
    symlinkSync(host, path.join(tree, 'a/to-file'));
    symlinkSync(hostDir, path.join(tree, 'a/b/to-dir'));
    await handOverTree(tree, UNPRIVILEGED_USER);
    for (const entry of ['', 'a', 'a/b', 'a/b/file', 'a/to-file', 'a/b/to-dir'])
      expect(lstatSync(path.join(tree, entry)).uid, entry).toBe(UNPRIVILEGED_USER.uid);
    for (const hostEntry of [host, hostDir, path.join(hostDir, 'inside')])
      expect(statSync(hostEntry).uid, hostEntry).toBe(0);
    // And back, the same way.
    await handOverTree(tree, { uid: 0, gid: 0 });
    expect(lstatSync(path.join(tree, 'a/b/file')).uid).toBe(0);
  });
});
