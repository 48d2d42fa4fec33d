/**
 * What a skills library may hold to be installed: directories, regular
 * files, and symbolic links that resolve inside the library (obra/superpowers
 * ships `AGENTS.md -> CLAUDE.md`). The harness reads a library's SKILL.md
 * files and hooks as root, outside any sandbox, writes the plugin's manifest
 * and hooks into each rep's copy, replaces overridden skills, and the engine
 * loads skills from it unconfined; so a link that leaves the library (an
 * absolute target, `../..`, or a chain through another link), or a device,
 * FIFO or socket (a read of one never returns), would let a library read,
 * replace or delete files of the host. Each is refused, naming the entry.
 */
import { lstat, readdir, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';

function inside(root: string, target: string): boolean {
  return target === root || target.startsWith(`${root}${path.sep}`);
}

/** The first entry of the library at `dir` it may not hold, described; undefined when there is none. */
export async function libraryTreeProblem(dir: string): Promise<string | undefined> {
  const root = await realpath(dir);
  const walk = async (at: string): Promise<string | undefined> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const file = path.join(at, entry.name);
      const shown = path.relative(root, file);
      if (entry.isDirectory()) {
        const problem = await walk(file);
        if (problem !== undefined) return problem;
      } else if (entry.isSymbolicLink()) {
        const target = await readlink(file);
        // A link that resolves is judged by where it ends; a dangling one by where it points.
        const resolved =
          (await realpath(file).catch(() => undefined)) ?? path.resolve(path.dirname(file), target);
        if (!inside(root, resolved)) {
          return `${shown} is a symbolic link to ${target}, outside the library`;
        }
      } else if (!entry.isFile()) {
        return `${shown} is not a regular file, a directory or a link`;
      }
    }
    return undefined;
  };
  const problem = await walk(root);
  if (problem !== undefined) return problem;
  // Redgreen writes into these in each rep's copy: they must be the library's own directories.
  for (const name of ['.claude-plugin', 'hooks']) {
    const info = await lstat(path.join(root, name)).catch(() => undefined);
    if (info !== undefined && !info.isDirectory()) {
      return `${name} is not a directory (the plugin's ${name === 'hooks' ? 'hooks' : 'manifest'} live in one)`;
    }
  }
  return undefined;
}
