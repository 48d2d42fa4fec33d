import { spawn } from 'node:child_process';
import type { GitOutput, GitRunner } from '../fixture/index.js';
import { gitEnvironmentFor } from '../lib/git-env.js';
import { trackDetachedChild } from '../lib/live-children.js';
import { noteChildExit } from '../lib/outside-signals.js';
import { confinedArgv, type Sandbox } from '../sandbox/sandbox.js';

const GIT_TIMEOUT_MS = 60_000;

/**
 * A git runner for inspecting a repository a session has had its hands on:
 * under bubblewrap with the repository read-only, no network and a clean
 * environment (so even a program the repository's config names could not
 * reach the API key, the network, or anything but that repository); without
 * bubblewrap, at least with a clean environment.
 */
export function confinedGitRunner(sandbox: Sandbox): GitRunner {
  return (repoDir: string, args: readonly string[]): Promise<GitOutput> => {
    const [file, ...argv] = confinedArgv(
      sandbox,
      {
        readWrite: [],
        readOnly: [repoDir],
        home: '/tmp/home',
        cwd: repoDir,
        // The repository is the sandbox user's, or root's seen from inside: either way it is
        // the only one there, and git must not refuse it for its owner.
        env: {
          ...gitEnvironmentFor(repoDir),
          GIT_CONFIG_COUNT: '1',
          GIT_CONFIG_KEY_0: 'safe.directory',
          GIT_CONFIG_VALUE_0: '*',
        },
      },
      ['git', ...args],
    ) as [string, ...string[]];
    return new Promise((resolve, reject) => {
      const child = spawn(file, argv, {
        cwd: repoDir,
        env: {},
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      trackDetachedChild(child);
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      const timer = setTimeout(() => {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      }, GIT_TIMEOUT_MS);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        noteChildExit(signal);
        resolve({
          exitCode: code ?? -1,
          stdout: Buffer.concat(stdout),
          stderr: Buffer.concat(stderr).toString('utf8').trim(),
        });
      });
    });
  };
}
