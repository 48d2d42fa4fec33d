/**
 * The skill texts an imported campaign compares, copied into its folder so
 * a run (and a resume, a rescore, a judge) reads the same bytes whatever
 * happens to the repository afterwards:
 *
 * - `new`: the working tree as it is, the files git tracks or would track
 *   (ignored ones left out), or every file when the skill is in no
 *   repository;
 * - `old`: the skill at a git ref (default `HEAD` of its repository), read
 *   with `git archive`, never from a working tree; or a directory;
 * - neither copies the skill's own `evals/` folder (where the file sits in
 *   the skill), so no session can read the expectations it is graded on.
 *
 * Where each came from (a commit, a directory) is recorded in import.json.
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { chmod, copyFile, lstat, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { isolatedGitEnvironment } from '../lib/git-env.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import type { SkillUnderTest } from './locate-skill.js';

export interface TextProvenance {
  /** `working tree`, `git <ref> (<commit>)`, or `directory <path>`. */
  readonly text: string;
  readonly commit?: string | undefined;
}

async function git(
  repo: string,
  args: readonly string[],
): Promise<{ ok: boolean; stdout: string }> {
  const result = await execa('git', ['-C', repo, ...args], {
    env: isolatedGitEnvironment(),
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
  });
  return { ok: result.exitCode === 0, stdout: String(result.stdout) };
}

/** Paths (relative to the skill) a copy leaves out: the skill's own evals folder, when the eval file is in it. */
export function excludedFolders(skill: SkillUnderTest, evalFile: string | undefined): string[] {
  if (evalFile === undefined) return [];
  const relative = path.relative(skill.dir, path.dirname(evalFile));
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return [];
  return [relative.split(path.sep)[0] ?? relative];
}

function excluded(relative: string, folders: readonly string[]): boolean {
  const first = relative.split('/')[0] ?? '';
  return first === '.git' || folders.includes(first);
}

async function copyOne(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  await copyFile(from, to);
  await chmod(to, (await lstat(from)).mode & 0o777);
}

async function copyTreeExcept(
  from: string,
  to: string,
  folders: readonly string[],
  prefix = '',
): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (excluded(relative, folders)) continue;
    if (entry.isDirectory())
      await copyTreeExcept(
        path.join(from, entry.name),
        path.join(to, entry.name),
        folders,
        relative,
      );
    else if (entry.isFile()) await copyOne(path.join(from, entry.name), path.join(to, entry.name));
  }
}

/** Copy the skill's working tree into `dest`. */
export async function copyWorkingTree(
  skill: SkillUnderTest,
  folders: readonly string[],
  dest: string,
): Promise<TextProvenance> {
  if (skill.repoRoot === undefined) {
    await copyTreeExcept(skill.dir, dest, folders);
    return { text: `working tree ${skill.dir}` };
  }
  // What git tracks or would track: ignored files (build output, node_modules) are no part of the text.
  const listed = await git(skill.repoRoot, [
    'ls-files',
    '-z',
    '--cached',
    '--others',
    '--exclude-standard',
    '--',
    skill.subdir === '' ? '.' : skill.subdir,
  ]);
  const files = listed.stdout.split('\0').filter((file) => file !== '');
  await mkdir(dest, { recursive: true });
  for (const file of files) {
    const relative = skill.subdir === '' ? file : file.slice(skill.subdir.length + 1);
    if (excluded(relative, folders)) continue;
    const source = path.join(skill.repoRoot, file);
    if (!existsSync(source) || !statSync(source).isFile()) continue; // deleted in the working tree
    await copyOne(source, path.join(dest, relative));
  }
  return { text: `working tree ${skill.dir}` };
}

function untar(dest: string, archive: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('tar', ['-x', '-C', dest], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    if (child.stdin) archive.pipe(child.stdin);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`tar failed: ${stderr.trim()}`)),
    );
  });
}

/**
 * The skill as it was at a ref, or in a directory: `git:<repo>@<ref>[:<subdir>]`,
 * a bare ref (`HEAD`, `v1.2`: in the skill's own repository, at the skill's
 * own folder), or a directory. Undefined `spec`: HEAD.
 */
export async function copyOldText(
  skill: SkillUnderTest,
  spec: string | undefined,
  folders: readonly string[],
  dest: string,
  input: string,
): Promise<Result<TextProvenance, InputError>> {
  const given = spec ?? 'HEAD';
  const gitSpec = /^git:(.+?)@([^@:]+)(?::(.*))?$/.exec(given);
  const isRef = gitSpec === null && !given.includes('/') && !existsSync(given);
  if (gitSpec === null && !isRef) {
    const dir = path.resolve(given);
    if (!existsSync(path.join(dir, 'SKILL.md'))) {
      return err(
        inputError(
          input,
          `${dir} has no SKILL.md`,
          "give the old text as a skill directory, a git ref of the skill's repository, or git:<repo>@<ref>:<subdir>",
        ),
      );
    }
    await copyTreeExcept(dir, dest, folders);
    return ok({ text: `directory ${dir}` });
  }
  const repo = gitSpec === null ? skill.repoRoot : path.resolve(gitSpec[1] ?? '');
  const ref = gitSpec === null ? given : (gitSpec[2] ?? '');
  const subdir = gitSpec === null ? skill.subdir : (gitSpec[3] ?? '').replace(/^\/+|\/+$/g, '');
  if (repo === undefined) {
    return err(
      inputError(
        input,
        `the skill is in no git repository, so it has no ${given} to compare against`,
        'give the old text as a directory (--old <dir>), or compare against no skill (--arms without,new)',
      ),
    );
  }
  const commit = await git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (!commit.ok) {
    return err(
      inputError(
        input,
        `${ref} is no commit of ${repo}`,
        'commit the skill first, or give another ref (--old <ref>)',
      ),
    );
  }
  const sha = commit.stdout.trim();
  const treeish = subdir === '' ? `${sha}^{tree}` : `${sha}:${subdir}`;
  const listed = await git(repo, ['ls-tree', '--name-only', treeish]);
  if (!listed.ok || !listed.stdout.split('\n').includes('SKILL.md')) {
    return err(
      inputError(
        input,
        `${subdir === '' ? 'the repository root' : subdir} has no SKILL.md at ${ref} (${sha.slice(0, 12)}): the skill is not committed there yet`,
        'commit it, give the old text another way (--old <ref or dir>), or compare against no skill (--arms without,new)',
      ),
    );
  }
  await mkdir(dest, { recursive: true });
  const archive = spawn('git', ['-C', repo, 'archive', '--format=tar', treeish], {
    env: isolatedGitEnvironment(),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await untar(dest, archive.stdout);
  for (const folder of [...folders, '.git'])
    await rm(path.join(dest, folder), { recursive: true, force: true });
  return ok({ text: `git ${ref} of ${repo} (${sha.slice(0, 12)})`, commit: sha });
}
