import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

/**
 * The environment redgreen runs git in: nothing from the caller's git setup
 * (no GIT_* variables, no global or system config, no hooks path, no
 * templates), a fixed locale and time zone. Any git process redgreen starts
 * for its own bookkeeping uses this, so results never depend on the host.
 */
export function isolatedGitEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    LANG: 'C',
    LC_ALL: 'C',
    TZ: 'UTC',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
  };
}

/**
 * HOME for git: a path that is never created (random per process), so git
 * finds no per-user files there and nothing is left behind to clean up.
 */
const absentHome = path.join(os.tmpdir(), `redgreen-absent-home-${randomUUID()}`);

/** The environment redgreen's git runs in: nothing of the host's git setup, a HOME that does not exist. */
export function isolatedGitEnvironment(): Record<string, string> {
  return isolatedGitEnv(absentHome);
}

/** The same, for a repository at `repoDir`, with no repository discovery above it. */
export function gitEnvironmentFor(repoDir: string): Record<string, string> {
  return {
    ...isolatedGitEnvironment(),
    GIT_CEILING_DIRECTORIES: path.dirname(path.resolve(repoDir)),
  };
}
