import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { chmod, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { didYouMean } from '../lib/did-you-mean.js';
import { isolatedGitEnvironment } from '../lib/git-env.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { shippedSkillDir, shippedSkillNames } from '../lib/shipped-skills.js';
import { directoryTreeId } from './tree-id.js';

/**
 * Where an arm's skill text comes from: a directory, or a subdirectory of a
 * git commit (`git:<repo>@<ref>:<subdir>`), which is always read through
 * `git archive` from the object store, never from a working tree.
 */
export type SkillSource =
  | { readonly kind: 'dir'; readonly spec: string; readonly dir: string }
  | {
      readonly kind: 'git';
      readonly spec: string;
      readonly repo: string;
      readonly ref: string;
      readonly subdir: string;
      /** The commit the ref resolved to. */
      readonly commit: string;
      /** The tree id of `<commit>:<subdir>`. */
      readonly tree: string;
    };

const GIT_SPEC = /^git:(.+)@([^@:]+)(?::(.*))?$/;

/** Git in the user's skills repository, isolated from the host's git setup like all of redgreen's git. */
async function git(
  repo: string,
  args: readonly string[],
): Promise<{ ok: boolean; stdout: string }> {
  const result = await execa('git', ['-C', repo, ...args], {
    env: isolatedGitEnvironment(),
    extendEnv: false,
    reject: false,
  });
  return { ok: result.exitCode === 0, stdout: String(result.stdout).trim() };
}

function isDirectory(dir: string): boolean {
  return existsSync(dir) && statSync(dir).isDirectory();
}

/**
 * What tables call a text an arm was given without a label: its source and
 * commit, `superpowers@main:skills/sdd (commit 0aff9eb8c1d2)`, or
 * `skills@0aff9eb8c1d2:skills/sdd` for a ref that is the commit; a
 * directory as given.
 */
export function skillSourceLabel(source: SkillSource): string {
  if (source.kind === 'dir') return source.spec;
  const commit = source.commit.slice(0, 12);
  const isCommit = /^[0-9a-f]{4,40}$/.test(source.ref) && source.commit.startsWith(source.ref);
  return `${path.basename(source.repo)}@${isCommit ? commit : source.ref}:${source.subdir}${isCommit ? '' : ` (commit ${commit})`}`;
}

/**
 * Parse a source and check that it names a directory, without copying
 * anything: a directory on this machine, or a repository, ref and
 * subdirectory that resolve to a tree. `baseDir` resolves relative paths;
 * `what` names the kind of directory in errors (`skill directory`).
 */
export async function resolveSourceTree(
  spec: string,
  baseDir: string,
  inputName: string,
  what: string,
): Promise<Result<SkillSource, InputError>> {
  const gitMatch = GIT_SPEC.exec(spec);
  if (spec.startsWith('git:')) {
    if (gitMatch === null) {
      return err(
        inputError(
          inputName,
          `"${spec}" is not a git source`,
          'write it as git:<repo>@<ref>:<subdir> (an empty <subdir> is the repository root)',
        ),
      );
    }
    const [, repoSpec = '', ref = '', subdirSpec = ''] = gitMatch;
    const repo = path.resolve(baseDir, repoSpec);
    const subdir = subdirSpec.replace(/^\/+|\/+$/g, '');
    if (!existsSync(repo)) {
      return err(
        inputError(
          inputName,
          `repository ${repo} does not exist`,
          'point at a git repository on this machine',
        ),
      );
    }
    const commit = await git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    if (!commit.ok) {
      return err(
        inputError(
          inputName,
          `ref "${ref}" does not resolve to a commit in ${repo}`,
          'use a branch, tag or commit hash that exists there (git log --oneline)',
        ),
      );
    }
    const treeish = subdir === '' ? `${commit.stdout}^{tree}` : `${commit.stdout}:${subdir}`;
    const tree = await git(repo, ['rev-parse', '--verify', '--quiet', treeish]);
    const type = tree.ok
      ? await git(repo, ['cat-file', '-t', tree.stdout])
      : { ok: false, stdout: '' };
    if (!tree.ok || type.stdout !== 'tree') {
      return err(
        inputError(
          inputName,
          `"${subdir}" is not a directory at ${ref} in ${repo}`,
          `name the ${what} relative to the repository root`,
        ),
      );
    }
    return ok({ kind: 'git', spec, repo, ref, subdir, commit: commit.stdout, tree: tree.stdout });
  }
  const dir = path.resolve(baseDir, spec);
  if (!isDirectory(dir)) {
    return err(inputError(inputName, `${what} ${dir} does not exist`, `point at a ${what}`));
  }
  return ok({ kind: 'dir', spec, dir });
}

/** The names of the entries of a directory inside a source (`''`: its root), or undefined when it is none. */
export async function sourceEntries(
  source: SkillSource,
  relative: string,
): Promise<readonly { name: string; directory: boolean }[] | undefined> {
  if (source.kind === 'git') {
    const treeish = relative === '' ? source.tree : `${source.tree}:${relative}`;
    const listed = await git(source.repo, ['ls-tree', treeish]);
    if (!listed.ok) return undefined;
    return listed.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const [meta = '', name = ''] = line.split('\t');
        return { name, directory: meta.split(' ')[1] === 'tree' };
      });
  }
  try {
    const entries = await readdir(path.join(source.dir, relative), { withFileTypes: true });
    return entries.map((entry) => ({ name: entry.name, directory: entry.isDirectory() }));
  } catch {
    return undefined;
  }
}

/**
 * Parse and check a skill source without copying anything: the directory
 * exists and holds SKILL.md, or the repository, ref and subdirectory resolve
 * to a tree with SKILL.md. `baseDir` resolves relative paths; a bare name
 * that is no directory there names a skill text redgreen ships.
 */
export async function resolveSkillSource(
  spec: string,
  baseDir: string,
  inputName: string,
): Promise<Result<SkillSource, InputError>> {
  // A bare name (no /) is a folder beside the campaign, else a skill text redgreen ships, as in calibration.
  const bare = !spec.startsWith('git:') && !spec.includes('/');
  const shipped =
    bare && !isDirectory(path.resolve(baseDir, spec)) ? shippedSkillDir(spec) : undefined;
  if (shipped !== undefined && !isDirectory(shipped)) {
    const names = shippedSkillNames();
    return err(
      inputError(
        inputName,
        `skill directory ${path.resolve(baseDir, spec)} does not exist, and redgreen ships no skill text "${spec}"`,
        `${didYouMean(spec, names)}point at a directory that holds SKILL.md, or name a shipped text: ${names.join(', ')}`,
      ),
    );
  }
  const resolved = await resolveSourceTree(shipped ?? spec, baseDir, inputName, 'skill directory');
  if (!resolved.ok) return resolved;
  // The source keeps the name it was given (tables name an unlabelled arm by it).
  const source: SkillSource =
    resolved.value.kind === 'dir' ? { ...resolved.value, spec } : resolved.value;
  const entries = await sourceEntries(source, '');
  if (!(entries ?? []).some((entry) => entry.name === 'SKILL.md' && !entry.directory)) {
    return err(
      source.kind === 'git'
        ? inputError(
            inputName,
            `${source.subdir || '(root)'} at ${source.ref} has no SKILL.md`,
            'point at a skill directory',
          )
        : inputError(
            inputName,
            `${source.dir} has no SKILL.md`,
            'point at a skill directory (the one that holds SKILL.md)',
          ),
    );
  }
  return ok(source);
}

function run(
  command: string,
  args: readonly string[],
  stdinFrom?: NodeJS.ReadableStream,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: [stdinFrom ? 'pipe' : 'ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    if (stdinFrom && child.stdin) stdinFrom.pipe(child.stdin);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed: ${stderr.trim()}`)),
    );
  });
}

/**
 * Make every file of a copied skill read-only. Directories stay writable by
 * their owner (0755): a results directory must stay removable with `rm -rf`
 * by the user who ran the campaign, and only root ignores a read-only
 * directory. Sessions never see this copy; each gets its own, mounted
 * read-only.
 */
async function makeFilesReadOnly(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) await makeFilesReadOnly(child);
    else if (entry.isFile()) await chmod(child, (await stat(child)).mode & 0o555);
  }
  await chmod(dir, 0o755);
}

export interface MaterialisedSkill {
  readonly dir: string;
  /** Git tree id of the copied text (for git sources: the source tree itself). */
  readonly tree: string;
}

/**
 * Copy a skill source into `dest` (inside the results directory) and make the
 * copy's files read-only. Git sources come from `git archive`, so uncommitted edits in
 * the source repository's working tree can never leak into a run.
 */
export async function materialiseSkill(
  source: SkillSource,
  dest: string,
): Promise<MaterialisedSkill> {
  await mkdir(dest, { recursive: true });
  if (source.kind === 'git') {
    const archive = spawn('git', ['-C', source.repo, 'archive', '--format=tar', source.tree], {
      env: isolatedGitEnvironment(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await run('tar', ['-x', '-C', dest], archive.stdout);
  } else {
    await run('cp', ['-R', `${source.dir}/.`, dest]);
  }
  const tree = await directoryTreeId(dest);
  await makeFilesReadOnly(dest);
  return { dir: dest, tree };
}
