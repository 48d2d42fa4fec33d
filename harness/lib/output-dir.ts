import { lstat, mkdtemp, readlink, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { type InputError, inputError } from './input-error.js';
import { err, ok, type Result } from './result.js';

type Stats = Awaited<ReturnType<typeof stat>>;

async function statOrCode(
  file: string,
  follow: boolean,
): Promise<{ stats: Stats } | { code: string }> {
  try {
    return { stats: follow ? await stat(file) : await lstat(file) };
  } catch (error) {
    return { code: (error as NodeJS.ErrnoException).code ?? 'EIO' };
  }
}

/** Can a directory be created in `dir`? Tried for real with a probe directory, removed at once. */
async function probeWritable(dir: string): Promise<string | undefined> {
  try {
    await rmdir(await mkdtemp(path.join(dir, '.redgreen-probe-')));
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'EIO';
  }
}

/**
 * Check, before any work, that a directory the user named for output either
 * is a directory redgreen can write in or can be created: its nearest
 * existing ancestor must be a writable directory. Creates nothing that stays
 * (writability is probed with a directory removed at once). Catches what
 * would otherwise fail late or never finish: a path under /proc (where
 * Node's recursive mkdir never returns), a regular file on the way, a
 * dangling symlink, an immutable or read-only directory.
 */
export async function checkOutputDir(
  dir: string,
  input: string,
): Promise<Result<void, InputError>> {
  const target = path.resolve(dir);
  const fix = 'choose a directory you can create and write';
  let current = target;
  for (;;) {
    const link = await statOrCode(current, false);
    if ('stats' in link) {
      const followed = link.stats.isSymbolicLink() ? await statOrCode(current, true) : link;
      if (!('stats' in followed)) {
        const to = await readlink(current).catch(() => '?');
        return err(
          inputError(
            `${input} ${dir}`,
            `${current} is a symlink to ${to}, which does not exist (${followed.code})`,
            'create the link target, or choose another directory',
          ),
        );
      }
      if (!followed.stats.isDirectory()) {
        return err(
          inputError(
            `${input} ${dir}`,
            current === target
              ? `${target} exists and is not a directory`
              : `${current} is a file, so ${target} cannot be created below it`,
            fix,
          ),
        );
      }
      const problem = await probeWritable(current);
      if (problem === undefined) return ok(undefined);
      return err(
        inputError(
          `${input} ${dir}`,
          current === target
            ? `${target} is not writable (${problem})`
            : `${target} cannot be created: ${current} does not accept new directories (${problem})`,
          fix,
        ),
      );
    }
    if (link.code !== 'ENOENT' && link.code !== 'ENOTDIR') {
      return err(
        inputError(`${input} ${dir}`, `${current} cannot be examined (${link.code})`, fix),
      );
    }
    const parent = path.dirname(current);
    if (parent === current) {
      return err(inputError(`${input} ${dir}`, 'no part of the path exists', fix));
    }
    current = parent;
  }
}
