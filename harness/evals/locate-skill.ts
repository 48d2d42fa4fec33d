/**
 * The skill an eval file is about, and the eval file of a skill, found as
 * the survey found them (SHAPES.md, "Skill identity"): the file normally
 * sits at `<skill>/evals/evals.json`; in some repositories `evals/` is at the
 * repository root while SKILL.md is in a subfolder. From an eval file the
 * skill is the SKILL.md in the parent of the file's folder; else the one
 * whose `name` is the file's `skill_name`; else the only SKILL.md in the
 * repository; else it is unresolved (refused, never guessed). From a skill
 * directory the eval file is `evals/evals.json` in it, else the nearest
 * `evals/evals.json` above it (up to the repository root) whose skill is
 * this one. Git is read with redgreen's isolated environment.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { splitSkillFile } from '../library/library-source.js';

export interface SkillUnderTest {
  /** Absolute path of the folder holding SKILL.md. */
  readonly dir: string;
  /** SKILL.md's `name` (else the folder's name). */
  readonly name: string;
  readonly description: string;
  /** The git repository the skill is in (its top level), if any. */
  readonly repoRoot: string | undefined;
  /** The skill folder relative to the repository root (`''`: the root). */
  readonly subdir: string;
}

/** Names authors give a trigger set beside evals.json (SHAPES.md, "Trigger sets"). */
export const TRIGGER_FILE_NAMES = [
  'trigger-evals.json',
  'trigger-eval.json',
  'trigger-queries.json',
  'triggers.json',
  'trigger_eval.json',
  'trigger_evals.json',
  'trigger_queries.json',
  'trigger.json',
  'trigger_eval_set.json',
  'trigger-eval-set.json',
  'eval_set.json',
  'eval_queries.json',
] as const;

/**
 * The top level of the git repository holding `dir` (by its real path, as
 * git names it), found as git discovers it: the nearest folder up from `dir`
 * with a `.git` entry (a repository's folder, or the file a worktree or a
 * submodule has). No git process is started: importing a thousand eval files
 * must not start a thousand processes.
 */
export function gitTopLevel(dir: string): string | undefined {
  let at: string;
  try {
    at = realpathSync(dir);
  } catch {
    return undefined;
  }
  for (;;) {
    if (existsSync(path.join(at, '.git'))) return at;
    const parent = path.dirname(at);
    if (parent === at) return undefined;
    at = parent;
  }
}

function readSkill(dir: string, repoRoot: string | undefined): SkillUnderTest {
  const { fields } = splitSkillFile(readFileSync(path.join(dir, 'SKILL.md'), 'utf8'));
  const name =
    typeof fields.name === 'string' && fields.name.trim() !== ''
      ? fields.name.trim()
      : path.basename(dir);
  const description = typeof fields.description === 'string' ? fields.description.trim() : '';
  return {
    dir,
    name,
    description,
    repoRoot,
    // git names its top level by its real path; a temp dir may be reached through a link.
    subdir:
      repoRoot === undefined
        ? ''
        : path.relative(realpathSync(repoRoot), realpathSync(dir)).split(path.sep).join('/'),
  };
}

function hasSkillFile(dir: string): boolean {
  const file = path.join(dir, 'SKILL.md');
  return existsSync(file) && statSync(file).isFile();
}

/** Every SKILL.md folder under `root` (not inside .git or node_modules), at most `depth` levels down. */
export function skillDirsUnder(root: string, depth = 6): string[] {
  const found: string[] = [];
  const walk = (dir: string, level: number): void => {
    if (hasSkillFile(dir)) found.push(dir);
    if (level >= depth) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === '.git' || entry.name === 'node_modules') continue;
      walk(path.join(dir, entry.name), level + 1);
    }
  };
  walk(root, 0);
  return found.sort();
}

/** The skill an eval file is about (see the module comment), or why it cannot be told. */
export async function skillOfEvalFile(
  file: string,
  skillName: string | undefined,
): Promise<Result<SkillUnderTest, InputError>> {
  const evalDir = path.dirname(file);
  const repoRoot = gitTopLevel(evalDir);
  const beside = path.dirname(evalDir);
  if (hasSkillFile(beside)) return ok(readSkill(beside, repoRoot));
  const root = repoRoot ?? beside;
  const candidates = skillDirsUnder(root).map((dir) => readSkill(dir, repoRoot));
  const named = candidates.filter((skill) => skill.name === skillName);
  if (named.length === 1 && named[0] !== undefined) return ok(named[0]);
  if (named.length === 0 && candidates.length === 1 && candidates[0] !== undefined)
    return ok(candidates[0]);
  return err(
    inputError(
      file,
      candidates.length === 0
        ? `names no skill redgreen can find: there is no SKILL.md beside its folder or in ${root}`
        : named.length > 1
          ? `names skill "${skillName}", and ${named.length} SKILL.md files under ${root} have that name`
          : `is not beside a SKILL.md, and ${skillName === undefined ? 'names no skill' : `no SKILL.md under ${root} is named "${skillName}"`} while ${candidates.length} skills are there`,
      'give the skill directory instead (redgreen evals lint <skill-dir>), or set skill_name to the SKILL.md name',
    ),
  );
}

/** The eval file of a skill directory (see the module comment), or why there is none. */
export async function evalFileOfSkill(
  given: string,
): Promise<Result<{ skill: SkillUnderTest; file: string }, InputError>> {
  if (!existsSync(given) || !statSync(given).isDirectory()) {
    return err(inputError(given, 'is not a directory', 'give the folder that holds SKILL.md'));
  }
  const dir = realpathSync(given);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    return err(inputError(dir, 'is not a directory', 'give the folder that holds SKILL.md'));
  }
  if (!hasSkillFile(dir)) {
    return err(
      inputError(dir, 'has no SKILL.md', "give the folder that holds the skill's SKILL.md"),
    );
  }
  const repoRoot = gitTopLevel(dir);
  const skill = readSkill(dir, repoRoot);
  const own = path.join(dir, 'evals', 'evals.json');
  if (existsSync(own)) return ok({ skill, file: own });
  const top = repoRoot === undefined ? dir : realpathSync(repoRoot);
  for (
    let at = path.dirname(dir);
    at.startsWith(top) && at !== path.dirname(at);
    at = path.dirname(at)
  ) {
    const candidate = path.join(at, 'evals', 'evals.json');
    if (existsSync(candidate)) {
      let skillName: string | undefined;
      try {
        const json = JSON.parse(readFileSync(candidate, 'utf8')) as {
          skill_name?: unknown;
          skill?: unknown;
        };
        const value = json.skill_name ?? json.skill;
        skillName = typeof value === 'string' ? value : undefined;
      } catch {
        skillName = undefined;
      }
      const found = await skillOfEvalFile(candidate, skillName);
      if (found.ok && realpathSync(found.value.dir) === dir) return ok({ skill, file: candidate });
    }
    if (at === top) break;
  }
  return err(
    inputError(
      dir,
      `has no evals/evals.json (nor one above it, up to ${top}, that is about this skill)`,
      "write the skill's evals to <skill>/evals/evals.json (skill-creator's place), or give the file's path",
    ),
  );
}

/** Trigger sets beside an eval file, by the names authors give them. */
export function triggerFilesBeside(evalFile: string): string[] {
  const dir = path.dirname(evalFile);
  return TRIGGER_FILE_NAMES.map((name) => path.join(dir, name)).filter((file) => existsSync(file));
}

/** A skill directory read as it is (for `--triggers … --skill <dir>`). */
export async function skillAt(dir: string): Promise<Result<SkillUnderTest, InputError>> {
  if (!existsSync(dir) || !statSync(dir).isDirectory() || !hasSkillFile(dir)) {
    return err(
      inputError(
        dir,
        'is not a skill directory (no SKILL.md)',
        'give the folder that holds SKILL.md',
      ),
    );
  }
  const real = realpathSync(dir);
  return ok(readSkill(real, gitTopLevel(real)));
}
