/**
 * The obra/superpowers mirror, when this machine has one: SUPERPOWERS_REPO,
 * else the nearest `.mirror/obra+superpowers/repo` above the checkout. No
 * test may need it: the tests that use it skip, saying why, without it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './cli.js';

export function findSuperpowersMirror(): string | undefined {
  const fromEnv = process.env.SUPERPOWERS_REPO;
  if (fromEnv !== undefined && fromEnv !== '') return existsSync(fromEnv) ? fromEnv : undefined;
  for (let dir = repoRoot; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, '.mirror', 'obra+superpowers', 'repo');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}
