/**
 * Where an eval's `files` are, and where they go. Each entry is looked for,
 * in this order, relative to the skill directory (skill-creator's rule), the
 * eval file's folder, the nearest `evals/` folder above it, and the
 * repository root (SHAPES.md found authors using each); the first that holds
 * it wins. A directory brings every file under it. Each goes into the
 * fixture's work tree at the path as written, so a prompt that names
 * `evals/cases/cnt.vhd` finds it there.
 *
 * The skill's own SKILL.md is not copied: every arm brings its own version of
 * the skill, and a copy in the work tree would give the old text the new one
 * (or give the no-skill baseline a skill). Nor is the eval file itself (named,
 * or inside a directory an entry names): it holds the expectations the
 * session is graded on. An entry that exists in none of
 * the places, an absolute path, a placeholder, or a path that climbs out of
 * the repository is a load error naming the entry and the places looked in.
 */
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { EvalFileEntry } from './eval-file.js';
import type { SkillUnderTest } from './locate-skill.js';
import { type Refusal, refusal } from './refusal.js';

/** One file that goes into the work tree. */
export interface InputFile {
  /** Its path in the work tree (`/`-separated, relative). */
  readonly workPath: string;
  /** Absolute path it is copied from. */
  readonly source: string;
  readonly bytes: number;
}

/** What one `files` entry became. */
export interface ResolvedEntry {
  readonly entry: string;
  readonly field: string;
  /** Which place it was found in. */
  readonly from: 'skill directory' | 'eval file folder' | 'evals folder' | 'repository root';
  readonly kind: 'file' | 'directory';
  /** The files it brings into the work tree (none for the skill's own SKILL.md). */
  readonly files: readonly InputFile[];
  /** Why it brings nothing, when it does not. */
  readonly skipped: string | undefined;
}

/** A cap on what one case copies into its fixture: inputs, not data sets. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

const PLACEHOLDER = /[<>{}$*?]|^~/;

function filesUnder(dir: string, prefix: string): InputFile[] {
  const out: InputFile[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    if (entry.name === '.git') continue;
    const full = path.join(dir, entry.name);
    const workPath = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...filesUnder(full, workPath));
    else if (entry.isFile()) out.push({ workPath, source: full, bytes: statSync(full).size });
  }
  return out;
}

/** The places an entry is looked for, in order. */
export function searchRoots(
  skill: SkillUnderTest,
  evalFile: string,
): { readonly place: ResolvedEntry['from']; readonly dir: string }[] {
  const evalDir = path.dirname(evalFile);
  let evalsFolder: string | undefined;
  for (let at = evalDir; at !== path.dirname(at); at = path.dirname(at)) {
    if (path.basename(at) === 'evals') {
      evalsFolder = at;
      break;
    }
    if (skill.repoRoot !== undefined && at === skill.repoRoot) break;
  }
  const roots: { place: ResolvedEntry['from']; dir: string }[] = [
    { place: 'skill directory', dir: skill.dir },
    { place: 'eval file folder', dir: evalDir },
    ...(evalsFolder === undefined ? [] : [{ place: 'evals folder' as const, dir: evalsFolder }]),
    ...(skill.repoRoot === undefined
      ? []
      : [{ place: 'repository root' as const, dir: skill.repoRoot }]),
  ];
  return roots.filter(
    (root, index) => roots.findIndex((other) => other.dir === root.dir) === index,
  );
}

/** Resolve one case's `files`, or refuse the first entry that cannot be. */
export function resolveFiles(
  entries: readonly EvalFileEntry[],
  skill: SkillUnderTest,
  evalFile: string,
): ResolvedEntry[] | Refusal {
  const roots = searchRoots(skill, evalFile);
  const boundary = realpathSync(skill.repoRoot ?? skill.dir);
  const skillFile = realpathSync(path.join(skill.dir, 'SKILL.md'));
  const ownEvalFile = realpathSync(evalFile);
  const out: ResolvedEntry[] = [];
  const placed = new Map<string, string>();
  let total = 0;
  for (const { entry, field } of entries) {
    if (path.isAbsolute(entry) || PLACEHOLDER.test(entry)) {
      return refusal(
        field,
        `"${entry}" is ${path.isAbsolute(entry) ? 'an absolute path' : 'a placeholder or a pattern, not a path'}: no fixture can hold it`,
        "name the input relative to the skill directory (skill-creator's rule), and keep it in the repository",
      );
    }
    const normal = path.posix
      .normalize(entry.replace(/\\/g, '/'))
      .replace(/^\.\//, '')
      .replace(/\/+$/, '');
    if (normal === '..' || normal.startsWith('../') || normal === '.' || normal === '') {
      return refusal(
        field,
        `"${entry}" climbs out of the skill`,
        "name a file inside the skill's repository",
      );
    }
    const found = roots
      .map((root) => ({ ...root, full: path.join(root.dir, normal) }))
      .find((root) => existsSync(root.full));
    if (found === undefined) {
      return refusal(
        field,
        `"${entry}" does not exist: looked in the ${roots.map((root) => `${root.place} (${root.dir})`).join(', the ')}`,
        'add the file to the repository, or fix the path (skill-creator resolves files against the skill directory)',
      );
    }
    const real = realpathSync(found.full);
    if (real !== boundary && !real.startsWith(`${boundary}${path.sep}`)) {
      return refusal(
        field,
        `"${entry}" leads outside the repository (${real})`,
        'keep eval inputs inside the repository',
      );
    }
    if (lstatSync(found.full).isDirectory()) {
      const files = filesUnder(found.full, normal).filter((file) => {
        const source = realpathSync(file.source);
        return source !== skillFile && source !== ownEvalFile;
      });
      out.push({
        entry,
        field,
        from: found.place,
        kind: 'directory',
        files,
        skipped: files.length === 0 ? 'an empty directory' : undefined,
      });
    } else if (real === skillFile || real === ownEvalFile) {
      out.push({
        entry,
        field,
        from: found.place,
        kind: 'file',
        files: [],
        skipped:
          real === skillFile
            ? "the skill's own SKILL.md: every arm brings its own version (a copy would give one arm's text to all)"
            : 'the eval file itself: it holds the expectations the session is graded on, so no session is given it',
      });
      continue;
    } else {
      out.push({
        entry,
        field,
        from: found.place,
        kind: 'file',
        files: [{ workPath: normal, source: found.full, bytes: statSync(found.full).size }],
        skipped: undefined,
      });
    }
    for (const file of out.at(-1)?.files ?? []) {
      const other = placed.get(file.workPath);
      if (other !== undefined && realpathSync(other) !== realpathSync(file.source)) {
        return refusal(
          field,
          `puts ${file.workPath} in the work tree, and another entry puts a different file there (${other})`,
          'name each input once',
        );
      }
      if (other === undefined) total += file.bytes;
      placed.set(file.workPath, file.source);
    }
    if (total > MAX_INPUT_BYTES) {
      return refusal(
        field,
        `brings the case's inputs to ${Math.round(total / 1048576)} MiB, over the ${MAX_INPUT_BYTES / 1048576} MiB a fixture holds`,
        'give the case smaller inputs',
      );
    }
  }
  return out;
}
