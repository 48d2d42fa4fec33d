/**
 * The skill texts redgreen ships (`skills-under-test/<name>`): a bare name
 * (no `/`) in a calibration run, a campaign arm or `--arm` names one of
 * them, as a bare recipe name names a shipped fixture.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from './package-root.js';

/** Where the shipped skill text of this name is (whether or not it exists). */
export function shippedSkillDir(name: string): string {
  return path.join(packageRoot(), 'skills-under-test', name);
}

/** The names of the skill texts redgreen ships, sorted. */
export function shippedSkillNames(): string[] {
  const root = path.join(packageRoot(), 'skills-under-test');
  try {
    return readdirSync(root)
      .filter((name) => existsSync(path.join(root, name, 'SKILL.md')))
      .sort();
  } catch {
    return [];
  }
}
