import { spawn } from 'node:child_process';
import { type GitOutput, type GitRunner, gitEnvironmentFor } from '../fixture/index.js';
import { noteChildExit } from '../lib/outside-signals.js';
import { BWRAP, bubblewrapArgs, type Sandbox } from './sandbox.js';

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
    const env = gitEnvironmentFor(repoDir);
    const [file, argv] =
      sandbox.kind === 'bubblewrap'
        ? [
            BWRAP,
            [
              ...bubblewrapArgs({
                readWrite: [],
                readOnly: [repoDir],
                home: '/tmp/home',
                cwd: repoDir,
                env,
              }),
              '--',
              'git',
              ...args,
            ],
          ]
        : ['git', [...args]];
    return new Promise((resolve, reject) => {
      const child = spawn(file, argv, {
        cwd: repoDir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
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
