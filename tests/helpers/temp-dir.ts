import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

const created: string[] = [];

/**
 * A fresh directory under the OS temp root, removed after the current test.
 * Others may pass through it (0711, as redgreen's own work roots under a
 * root run): bubblewrap run as an unprivileged user must reach what a test
 * mounts for a confined command.
 */
export function makeTempDir(prefix = 'redgreen-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  chmodSync(dir, 0o711);
  created.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});
