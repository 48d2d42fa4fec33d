import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

/**
 * Compile once so tests can run the real CLI (`dist/harness/cli.js`) as a subprocess, and
 * give the run a directory for the campaign runs several test files share
 * (tests/helpers/shared-runs.ts), removed when the run ends.
 */
export default function setup(project: TestProject): () => void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  const sharedRuns = mkdtempSync(path.join(os.tmpdir(), 'redgreen-shared-runs-'));
  chmodSync(sharedRuns, 0o711);
  project.provide('sharedRunsDir', sharedRuns);
  return () => rmSync(sharedRuns, { recursive: true, force: true });
}
