/**
 * A fixture's project skills (`.claude/skills/<name>/SKILL.md`), read for a
 * session whose scenario opts in (`claudeDir: [skills]`, claude-dir.ts), and
 * how each backend gives them. Read from the rep's own fixture copy the way
 * an untrusted tree is read (contained-file.ts): no link is followed (a
 * skill directory or SKILL.md that is a symlink is refused, not read), only
 * regular files, capped. Only SKILL.md is given: a skill's other files stay
 * where they are in the repository.
 *
 * Measured on Claude Code 2.1.332 (README "Project instructions and
 * `.claude/`"): the engine loads `.claude/skills` only with the `project`
 * setting source, which cannot be narrowed (it also reads the fixture's
 * settings files: hooks, permissions, status line), and not from
 * `additionalDirectories`; the `user` source loads skills from the
 * session's private config directory, listed by their bare names as a
 * project's are. So the claude-code backend copies the opted-in SKILL.md
 * files there and turns on the `user` source (that directory is the
 * harness's own: no settings file is written to it); the messages backend
 * lists them and answers the Skill tool for them.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { containedDirectoryProblem, readContainedSync } from '../lib/contained-file.js';
import { splitSkillFile } from '../library/library-source.js';
import type { InstalledSkill } from './installed-library.js';

export const PROJECT_SKILLS_DIR = '.claude/skills';
const MAX_SKILL_BYTES = 256 * 1024;

/** One project skill given to a session, and the file it came from. */
export interface ProjectSkill extends InstalledSkill {
  /** Its SKILL.md, relative to the repository. */
  readonly file: string;
  readonly sha256: string;
  /** The whole SKILL.md (front matter included), as the engine is given it. */
  readonly text: string;
}

/**
 * The project skills of `repo`, in name order, and what could not be given
 * (one line each). A repository without `.claude/skills` gives none.
 */
export async function readProjectSkills(
  repo: string,
): Promise<{ readonly skills: ProjectSkill[]; readonly problems: string[] }> {
  const dirProblem = await containedDirectoryProblem(repo, PROJECT_SKILLS_DIR);
  if (dirProblem !== undefined) {
    return {
      skills: [],
      problems: dirProblem.absent ? [] : [`${PROJECT_SKILLS_DIR}: ${dirProblem.problem}`],
    };
  }
  const skills: ProjectSkill[] = [];
  const problems: string[] = [];
  const entries = await readdir(path.join(repo, PROJECT_SKILLS_DIR));
  for (const entry of entries.sort()) {
    const relativeDir = `${PROJECT_SKILLS_DIR}/${entry}`;
    const stats = await lstat(path.join(repo, relativeDir));
    if (!stats.isDirectory()) {
      if (stats.isSymbolicLink()) problems.push(`${relativeDir} is a symlink (not followed)`);
      continue;
    }
    const file = `${relativeDir}/SKILL.md`;
    const read = readContainedSync(repo, file, MAX_SKILL_BYTES);
    if (!read.ok) {
      if (!read.absent) problems.push(`${file} cannot be given to the session (${read.problem})`);
      continue;
    }
    const text = read.bytes.toString('utf8');
    const { fields, body } = splitSkillFile(text);
    const name = (
      typeof fields.name === 'string' && fields.name.trim() !== '' ? fields.name : entry
    ).trim();
    if (skills.some((skill) => skill.name === name)) {
      problems.push(`${file} is named ${name}, as another project skill is`);
      continue;
    }
    skills.push({
      name,
      description: typeof fields.description === 'string' ? fields.description.trim() : '',
      dir: path.join(repo, relativeDir),
      body,
      file,
      sha256: createHash('sha256').update(read.bytes).digest('hex'),
      text,
    });
  }
  return { skills, problems };
}

/** Where the claude-code engine finds user-level skills in a session's private config directory. */
export function userSkillsDir(configDir: string): string {
  return path.join(configDir, 'skills');
}

/** Copy the project skills into the engine's private config directory (claude-code backend). */
export async function installProjectSkills(
  configDir: string,
  skills: readonly ProjectSkill[],
): Promise<void> {
  for (const skill of skills) {
    const dir = path.join(userSkillsDir(configDir), path.basename(skill.dir));
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'SKILL.md'), skill.text, { flag: 'wx' });
  }
}
