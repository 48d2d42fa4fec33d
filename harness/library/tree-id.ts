import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import { type EntryMode, makeObject, type TreeEntry, treeBody } from '../fixture/git-objects.js';

/**
 * The git tree id a directory's content would have if committed: the same id
 * `git rev-parse <commit>:<dir>` prints, so a skill copied from a directory
 * and the same skill taken from a git commit are recognisably the same text.
 * Executable files get mode 100755, symlinks 120000, empty directories vanish
 * (as in git).
 */
export async function directoryTreeId(dir: string): Promise<string> {
  const entries: TreeEntry[] = [];
  for (const dirent of await readdir(dir, { withFileTypes: true })) {
    if (dirent.name === '.git') continue;
    const child = path.join(dir, dirent.name);
    const info = await lstat(child);
    if (info.isSymbolicLink()) {
      const target = Buffer.from(await readlink(child), 'utf8');
      entries.push({
        name: dirent.name,
        mode: '120000' as EntryMode,
        id: makeObject('blob', target).id,
      });
    } else if (info.isDirectory()) {
      const sub = await directoryTreeId(child);
      if (sub !== EMPTY_TREE) entries.push({ name: dirent.name, mode: '40000', id: sub });
    } else if (info.isFile()) {
      const mode: EntryMode = (info.mode & 0o111) !== 0 ? '100755' : '100644';
      entries.push({ name: dirent.name, mode, id: makeObject('blob', await readFile(child)).id });
    }
  }
  return makeObject('tree', treeBody(entries)).id;
}

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
