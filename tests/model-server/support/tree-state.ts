/**
 * Every path under a directory (including `.git/`) with a content hash, so a
 * test can prove a session changed nothing it was not allowed to change.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export function treeState(root: string): ReadonlyMap<string, string> {
  const state = new Map<string, string>();
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const relative = path.relative(root, full);
      if (entry.isDirectory()) {
        state.set(`${relative}/`, 'dir');
        visit(full);
      } else {
        const mode = statSync(full).mode.toString(8);
        state.set(
          relative,
          `${mode}:${createHash('sha256').update(readFileSync(full)).digest('hex')}`,
        );
      }
    }
  };
  visit(root);
  return state;
}

/** Paths added, removed or changed between two states, sorted. */
export function treeChanges(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): readonly string[] {
  const changed = new Set<string>();
  for (const [file, value] of after) if (before.get(file) !== value) changed.add(file);
  for (const file of before.keys()) if (!after.has(file)) changed.add(file);
  return [...changed].sort();
}
