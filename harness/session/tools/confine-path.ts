import { realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * Resolve a path a model gave to a real path inside one of the allowed roots,
 * or explain why not. Symlinks are followed before the check, so a link in
 * the fixture cannot point a tool outside it.
 */
export async function confinePath(
  requested: string,
  roots: readonly string[],
): Promise<{ ok: true; path: string } | { ok: false; message: string }> {
  if (!path.isAbsolute(requested)) {
    return { ok: false, message: `path must be absolute: ${requested}` };
  }
  let resolved: string;
  try {
    resolved = await realpath(requested);
  } catch {
    // A path that does not exist yet: check its nearest existing parent.
    const parent = path.dirname(requested);
    if (parent === requested) return { ok: false, message: `no such path: ${requested}` };
    const inner = await confinePath(parent, roots);
    if (!inner.ok) return inner;
    return { ok: false, message: `File does not exist: ${requested}` };
  }
  for (const root of roots) {
    const realRoot = await realpath(root);
    if (resolved === realRoot || resolved.startsWith(`${realRoot}${path.sep}`)) {
      return { ok: true, path: resolved };
    }
  }
  return {
    ok: false,
    message: `access denied: ${requested} is outside this session's sandbox (${roots.join(', ')})`,
  };
}
