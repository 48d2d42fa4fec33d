/**
 * An arm whose text is a whole skills library: a directory or `git:` source
 * holding `skills/<name>/SKILL.md` (and, where present, a Claude Code plugin
 * manifest `.claude-plugin/plugin.json` and `hooks/hooks.json`, as
 * obra/superpowers ships them), plus overrides that replace named skills
 * with another source's (the skill under test at the branch ref, the rest of
 * the library at the released ref).
 *
 * resolveLibrary checks the sources without copying anything; composeLibrary
 * writes the library with its overrides into a directory (git sources
 * through `git archive`, never a working tree); readLibrary reads what a
 * composed library holds: its plugin name, each skill's name, description,
 * text and content hash, and its SessionStart hooks.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { sha256Hex } from '../lib/hash.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { removeTree } from '../lib/remove-tree.js';
import { err, ok, type Result } from '../lib/result.js';
import { libraryTreeProblem } from './library-tree.js';
import {
  materialiseSkill,
  resolveSkillSource,
  resolveSourceTree,
  type SkillSource,
  sourceEntries,
} from './skill-source.js';
import { directoryTreeId } from './tree-id.js';

/** A library arm's sources, checked. */
export interface ResolvedLibrary {
  readonly source: SkillSource;
  /** Skills replaced from another source, by the directory name under `skills/`. */
  readonly overrides: readonly { readonly skill: string; readonly source: SkillSource }[];
  /** The plugin name when the library has no manifest (the arm's `library.name`). */
  readonly name: string | undefined;
  /** The input it came from, as errors name it (`<campaign>: arms[1].library.source`). */
  readonly input: string;
}

/** The name a library without a manifest installs under, the same for every arm. */
export const DEFAULT_LIBRARY_NAME = 'skills';

/** Check a library source and its overrides; `baseDir` resolves relative paths. */
export async function resolveLibrary(
  spec: {
    readonly source: string;
    readonly overrides: Readonly<Record<string, string>>;
    readonly name?: string | undefined;
  },
  baseDir: string,
  inputName: string,
  /** Where an override came from when not from `inputName` (`--arm green:tdd`), by skill. */
  overrideInputs: Readonly<Record<string, string>> = {},
): Promise<Result<ResolvedLibrary, InputError>> {
  const resolved = await resolveSourceTree(spec.source, baseDir, inputName, 'skills library');
  if (!resolved.ok) return resolved;
  const source = resolved.value;
  const skills = await sourceEntries(source, 'skills');
  const names = (skills ?? []).filter((entry) => entry.directory).map((entry) => entry.name);
  if (names.length === 0) {
    // One skill's folder given for a whole library: say how to replace one skill instead.
    const oneSkill = (await sourceEntries(source, ''))?.some(
      (entry) => entry.name === 'SKILL.md' && !entry.directory,
    );
    return err(
      inputError(
        inputName,
        `${spec.source} holds no skills/<name>/ directory${oneSkill === true ? ' (it is one skill: it holds a SKILL.md)' : ''}`,
        oneSkill === true
          ? "to replace one skill of the library, name it: --arm <arm>:<skill>=<source>, or the arm's library.overrides"
          : 'point at a skills library: a directory (or git: source) with skills/<name>/SKILL.md',
      ),
    );
  }
  const overrides: { skill: string; source: SkillSource }[] = [];
  for (const [skill, overrideSpec] of Object.entries(spec.overrides)) {
    const where = Object.hasOwn(overrideInputs, skill)
      ? (overrideInputs[skill] as string)
      : `${inputName} overrides.${skill}`;
    if (!names.includes(skill)) {
      return err(
        inputError(
          where,
          `the library has no skill "${skill}" to replace`,
          `name one of ${names.join(', ')}`,
        ),
      );
    }
    const override = await resolveSkillSource(overrideSpec, baseDir, where);
    if (!override.ok) return override;
    overrides.push({ skill, source: override.value });
  }
  return ok({ source, overrides, name: spec.name, input: inputName });
}

/** A library composed in a directory: its tree id and what it holds. */
export interface ComposedLibrary {
  readonly tree: string;
  readonly contents: LibraryContents;
}

/**
 * Write the library with its overrides into `dest`, files read-only, and
 * read what it holds. Refused (with the entry named) when the library holds
 * what may not be installed (library-tree.ts: a link out of it, a device or
 * FIFO), checked before an override replaces anything, or no skill at all.
 */
export async function composeLibrary(
  library: ResolvedLibrary,
  dest: string,
): Promise<Result<ComposedLibrary, InputError>> {
  const refused = (problem: string): Result<ComposedLibrary, InputError> =>
    err(
      inputError(
        library.input,
        `${library.source.spec}: ${problem}`,
        'a library may hold only files, directories and links that stay inside it: replace the entry with the file it stands for',
      ),
    );
  await materialiseSkill(library.source, dest);
  const base = await libraryTreeProblem(dest);
  if (base !== undefined) return refused(base);
  for (const override of library.overrides) {
    const target = path.join(dest, 'skills', override.skill);
    await removeTree(target);
    await materialiseSkill(override.source, target);
  }
  const composed = await libraryTreeProblem(dest);
  if (composed !== undefined) return refused(composed);
  const contents = await readLibrary(dest, library.name);
  if (!contents.ok) return refused(contents.error);
  if (contents.value.skills.length === 0) return refused('it holds no skills/<name>/SKILL.md');
  return ok({ tree: await directoryTreeId(dest), contents: contents.value });
}

/** One skill of a library, as the engine lists it. */
export interface LibrarySkill {
  /** Its directory under `skills/`. */
  readonly dir: string;
  /** The SKILL.md's `name:` (else the directory name). */
  readonly name: string;
  readonly description: string;
  /** SKILL.md after its front matter: what loading the skill gives the model. */
  readonly body: string;
  readonly sha256: string;
}

/** A SessionStart command hook of the library's plugin. */
export interface LibraryHook {
  readonly event: 'SessionStart';
  readonly matcher: string | undefined;
  readonly command: string;
}

/** What a composed library holds. */
export interface LibraryContents {
  /** The plugin name its skills are qualified with (`superpowers:brainstorming`). */
  readonly pluginName: string;
  /** Whether it ships `.claude-plugin/plugin.json` (else redgreen writes one when installing). */
  readonly hasManifest: boolean;
  readonly skills: readonly LibrarySkill[];
  readonly hooks: readonly LibraryHook[];
  /** Hook events of the plugin that redgreen does not run (only SessionStart is run). */
  readonly hooksNotRun: readonly string[];
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** A SKILL.md's front matter fields and the text after it. */
export function splitSkillFile(text: string): {
  readonly fields: Record<string, unknown>;
  readonly body: string;
} {
  const found = FRONT_MATTER.exec(text);
  if (found === null) return { fields: {}, body: text };
  let fields: Record<string, unknown> = {};
  try {
    const parsed = parseYaml(found[1] ?? '') as unknown;
    if (typeof parsed === 'object' && parsed !== null) fields = parsed as Record<string, unknown>;
  } catch {
    fields = {};
  }
  return { fields, body: text.slice(found[0].length) };
}

async function readJsonObject(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The command hooks of a hooks.json object, by event. */
function hooksOf(value: unknown): { hooks: LibraryHook[]; notRun: string[] } {
  const events = (value as { hooks?: unknown } | undefined)?.hooks;
  if (typeof events !== 'object' || events === null) return { hooks: [], notRun: [] };
  const hooks: LibraryHook[] = [];
  const notRun: string[] = [];
  for (const [event, groups] of Object.entries(events as Record<string, unknown>)) {
    if (event !== 'SessionStart') {
      notRun.push(event);
      continue;
    }
    for (const group of Array.isArray(groups) ? groups : []) {
      const matcher = (group as { matcher?: unknown }).matcher;
      for (const hook of ((group as { hooks?: unknown }).hooks as unknown[] | undefined) ?? []) {
        const { type, command } = hook as { type?: unknown; command?: unknown };
        if (type === 'command' && typeof command === 'string') {
          hooks.push({
            event: 'SessionStart',
            matcher: typeof matcher === 'string' ? matcher : undefined,
            command,
          });
        }
      }
    }
  }
  return { hooks, notRun };
}

/** A file of the library by a path its manifest gives, when it stays inside the library. */
function libraryFile(dir: string, relative: string): string | undefined {
  const file = path.resolve(dir, relative);
  return file.startsWith(`${path.resolve(dir)}${path.sep}`) ? file : undefined;
}

/**
 * Read what a composed library in `dir` holds (its links already checked to
 * stay inside it: library-tree.ts); a problem when its manifest names hooks
 * outside it.
 */
export async function readLibrary(
  dir: string,
  fallbackName: string | undefined,
): Promise<Result<LibraryContents, string>> {
  const manifest = await readJsonObject(path.join(dir, '.claude-plugin', 'plugin.json'));
  const named = manifest?.name;
  const pluginName =
    typeof named === 'string' && named.trim() !== ''
      ? named.trim()
      : (fallbackName ?? DEFAULT_LIBRARY_NAME);
  const skills: LibrarySkill[] = [];
  const skillsDir = path.join(dir, 'skills');
  for (const entry of (await readdir(skillsDir, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    const file = path.join(skillsDir, entry.name, 'SKILL.md');
    // A SKILL.md may be a link inside the library; only a regular file is read.
    if (!entry.isDirectory() || !(await stat(file).catch(() => undefined))?.isFile()) continue;
    const bytes = await readFile(file);
    const { fields, body } = splitSkillFile(bytes.toString('utf8'));
    const name =
      typeof fields.name === 'string' && fields.name.trim() !== ''
        ? fields.name.trim()
        : entry.name;
    const description =
      typeof fields.description === 'string' ? fields.description.trim().replace(/\s+/g, ' ') : '';
    skills.push({ dir: entry.name, name, description, body, sha256: sha256Hex(bytes) });
  }
  const inline = manifest?.hooks;
  // The manifest's hooks: inline, or one file (or several) it names, else hooks/hooks.json.
  const namedFiles =
    typeof inline === 'string'
      ? [inline]
      : Array.isArray(inline) && inline.every((entry) => typeof entry === 'string')
        ? (inline as string[])
        : undefined;
  const declared: unknown[] = [];
  if (typeof inline === 'object' && inline !== null && !Array.isArray(inline)) {
    declared.push({ hooks: inline });
  } else if (namedFiles !== undefined) {
    for (const relative of namedFiles) {
      const file = libraryFile(dir, relative);
      if (file === undefined) {
        return err(`its manifest names hooks at ${relative}, outside the library`);
      }
      declared.push(await readJsonObject(file));
    }
  } else {
    declared.push(await readJsonObject(path.join(dir, 'hooks', 'hooks.json')));
  }
  const read = declared.map(hooksOf);
  return ok({
    pluginName,
    hasManifest: manifest !== undefined,
    skills,
    hooks: read.flatMap((part) => part.hooks),
    hooksNotRun: [...new Set(read.flatMap((part) => part.notRun))],
  });
}
