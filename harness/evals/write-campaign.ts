/**
 * An imported skill's evals (and trigger sets) as an ordinary redgreen
 * campaign, written into one folder: the campaign file, one scenario folder
 * per eval case and per trigger query, one fixture recipe per skill (each
 * case's input files committed into its work tree), the arms' skill texts,
 * and `import.json` (what each case, expectation and query became, and where
 * each arm's text came from, for the reports). The rest of redgreen runs it
 * as it runs any campaign: fixtures, sessions, scoring, judge, statistics,
 * gates, reports; and `resume`, `score`, `judge` find it again from the
 * results directory.
 *
 * Arms, as a skill author means them: `old` (RED: the skill at HEAD of its
 * repository, or `--old`), `new` (GREEN: the working tree), `without` (no
 * skill: a baseline, RED when there is no old). Reach: `installed` (the
 * skill is found by its description among distractor skills, installed as a
 * plugin: a library arm) or `named` (the prompt says where the skill is, as
 * skill-creator's runs do: a one-folder arm; `without` is then an arm with
 * no skill and a prompt that names none).
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { packEvalsOfflineModel } from '../campaign/campaign-extensions.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { harnessVersion, packageRoot } from '../lib/package-root.js';
import { err, ok, type Result } from '../lib/result.js';
import { starkestSplitP } from '../report/stats-rates.js';
import type { BackendName } from '../session/session-tool-table.js';
import type { EvalImport, ImportedCase, TriggerImport } from './import-evals.js';
import { slug } from './import-evals.js';
import {
  copyOldText,
  copyWorkingTree,
  excludedFolders,
  type TextProvenance,
} from './skill-texts.js';
import { type SplitQuery, splitQueries } from './trigger-split.js';

export const ARM_NAMES = ['old', 'new', 'without'] as const;
export type EvalArm = (typeof ARM_NAMES)[number];
export const REACHES = ['installed', 'named'] as const;
export type Reach = (typeof REACHES)[number];

export interface EvalsCampaignOptions {
  readonly behaviour: readonly EvalImport[];
  readonly triggers: readonly TriggerImport[];
  /** The arms, in any order; default old and new (without and new when there is no old). */
  readonly arms: readonly EvalArm[] | undefined;
  readonly reach: Reach;
  /** The old text of each skill by skill directory (`--old`): a ref, git:… or a directory; default HEAD. */
  readonly old: ReadonlyMap<string, string>;
  /** The distractor skills (a directory holding skills/<name>/SKILL.md); default the shipped devflow library. */
  readonly library: string | undefined;
  /** Share of each label's queries used to tune a description; the rest is held out and gated. */
  readonly split: number | undefined;
  readonly splitSeed: number;
  readonly reps: number | undefined;
  readonly id: string | undefined;
  readonly title: string | undefined;
  readonly backend: BackendName | undefined;
  readonly model: string | undefined;
  readonly judgeModel: string | undefined;
  /** Gates the caller adds to the generated ones (a campaign file's own). */
  readonly extraGates: readonly unknown[];
  /** A campaign file's own settings, carried over. */
  readonly description?: string | undefined;
  readonly concurrency?: number | undefined;
  readonly seed?: number | undefined;
  readonly limits?: Readonly<Record<string, unknown>> | undefined;
}

export interface WrittenCampaign {
  readonly dir: string;
  readonly campaignFile: string;
  readonly arms: readonly EvalArm[];
  readonly reps: number;
  readonly notes: readonly string[];
}

export const DEFAULT_LIVE_MODEL = 'claude-sonnet-5-5';
const DAY = '2026-01-05';
const NEXT_DAY = '2026-01-06';

/** The id of a campaign generated for these skills. */
export function evalsCampaignId(skillNames: readonly string[]): string {
  return `evals-${slug(skillNames.join('-'), 50) || 'skill'}`;
}

/** The shipped distractor skills (a library whose skills overlap as users' do). */
export function defaultDistractors(): string {
  return path.join(packageRoot(), 'skills-under-test', 'devflow');
}

/** The fewest reps per arm (at least 3, skill-creator's) with which the Holm-corrected no-regression gate over `cases` evals can be decided. */
export function repsToDecide(cases: number, alpha = 0.05): number {
  for (let reps = 3; reps <= 20; reps += 1) {
    if (starkestSplitP(reps, reps) < alpha / Math.max(1, cases)) return reps;
  }
  return 20;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, json(value));
}

const NAMED_PROMPT = [
  '{{#if skillDir}}The skill for this task is in {{skillDir}}: read {{skillDir}}/SKILL.md first and follow it.',
  '',
  '{{/if}}{{task}}{{#if inputs}}',
  '',
  'Input files (in the working directory): {{inputs}}{{/if}}',
  '',
].join('\n');
const INSTALLED_PROMPT = '{{task}}\n';

/**
 * A recipe for one skill's fixtures: a small workspace (two commits by two
 * people on two days, as redgreen's sanity gate asks of every fixture: one
 * author at one time is a tell), and per case with input files a scenario
 * whose last commit adds them.
 */
async function writeRecipe(
  dir: string,
  name: string,
  cases: readonly ImportedCase[],
): Promise<Map<string, string>> {
  const commits: Record<string, unknown> = {
    start: {
      message: 'Start the workspace',
      day: DAY,
      author: 'sam',
      authorTime: '09:00:00',
      committerTime: '09:00:00',
      files: { '.gitignore': 'files/workspace/.gitignore' },
    },
    readme: {
      message: 'Add a README',
      day: NEXT_DAY,
      author: 'alex',
      authorTime: '10:20:00',
      committerTime: '10:20:00',
      files: { 'README.md': 'files/workspace/README.md' },
    },
  };
  const scenarios: Record<string, unknown> = {
    workspace: {
      summary: 'a small workspace with no inputs',
      commits: ['start', 'readme'],
      layouts: { default: { summary: 'as committed', files: [] } },
    },
  };
  await mkdir(path.join(dir, 'files', 'workspace'), { recursive: true });
  await writeFile(path.join(dir, 'files', 'workspace', '.gitignore'), '.DS_Store\n');
  await writeFile(path.join(dir, 'files', 'workspace', 'README.md'), '# workspace\n');
  const fixtureOf = new Map<string, string>();
  for (const item of cases) {
    const inputs = item.files.flatMap((entry) => entry.files);
    if (inputs.length === 0) {
      fixtureOf.set(item.scenarioId, 'workspace');
      continue;
    }
    const files: Record<string, string> = {};
    for (const input of inputs) {
      const source = `files/${item.scenarioId}/${input.workPath}`;
      await mkdir(path.dirname(path.join(dir, source)), { recursive: true });
      await copyFile(input.source, path.join(dir, source));
      files[input.workPath] = source;
    }
    commits[item.scenarioId] = {
      message: 'Add the inputs',
      day: NEXT_DAY,
      author: 'alex',
      authorTime: '11:05:00',
      committerTime: '11:05:00',
      files,
    };
    scenarios[item.scenarioId] = {
      summary: `the inputs of ${item.evalCase.field}`,
      commits: ['start', 'readme', item.scenarioId],
      layouts: { default: { summary: 'as committed', files: [] } },
    };
    fixtureOf.set(item.scenarioId, item.scenarioId);
  }
  await writeJson(path.join(dir, 'recipe.json'), {
    schemaVersion: 1,
    name,
    description:
      "Generated by redgreen from a skill's own evals: a small workspace, and per eval case its input files.",
    repository: {
      branch: 'main',
      config: {
        'user.email': 'sam.rivera@example.org',
        'user.name': 'Sam Rivera',
        'commit.gpgsign': 'false',
      },
    },
    committer: 'author',
    authors: {
      sam: { name: 'Sam Rivera', email: 'sam.rivera@example.org' },
      alex: { name: 'Alex Moreau', email: 'alex.moreau@example.org' },
    },
    commits,
    scenarios,
  });
  return fixtureOf;
}

function judgeBlock(item: ImportedCase, judgeModel: string): Record<string, unknown> {
  const expected = item.evalCase.expectedOutput;
  return {
    rubric: Object.fromEntries(
      item.compiled.map((compiled) => [compiled.checkId, compiled.rubric]),
    ),
    material: ['prompt', 'reply', 'tool-calls', 'diff'],
    model: judgeModel,
    offlineModel: 'scripted:judge-keywords',
    instructions: [
      "Each rubric item is an expectation the skill's author wrote for this task. Pass an item only on evidence in the material; a reply that only claims to have done something is no evidence that it was done.",
      ...(expected === undefined
        ? []
        : [`The author describes the expected result as: ${expected}`]),
    ].join('\n'),
  };
}

function caseScenario(
  item: ImportedCase,
  skillName: string,
  recipe: string,
  fixture: string,
  reach: Reach,
  judgeModel: string,
  source: string,
): Record<string, unknown> {
  const inputs = item.files.flatMap((entry) => entry.files.map((file) => file.workPath));
  const label =
    item.evalCase.name === undefined
      ? `eval ${item.evalCase.id}`
      : `eval ${item.evalCase.id} (${item.evalCase.name})`;
  return {
    id: item.scenarioId,
    title: `${skillName}: ${label}`,
    description: `Imported by redgreen from ${source} ${item.evalCase.field}.`,
    fixture: { recipe: `../fixtures/${recipe}`, scenario: fixture },
    prompt: {
      template: 'prompt.hbs',
      variables: {
        task: item.evalCase.prompt,
        ...(reach === 'named' ? { inputs: inputs.join(', ') } : {}),
      },
    },
    stop: 'report',
    checks: { pre: [], post: item.compiled.map((compiled) => compiled.check) },
    judge: judgeBlock(item, judgeModel),
  };
}

function queryScenario(
  query: SplitQuery,
  skillName: string,
  recipe: string,
  source: string,
): Record<string, unknown> {
  return {
    id: query.scenarioId,
    title: `${skillName}: trigger query ${query.query.id} (${query.query.shouldTrigger ? 'should trigger' : 'should not trigger'}; ${query.part})`,
    description: `Imported by redgreen from ${source} ${query.query.field || '(top level)'}: the session's first call is captured; it should ${query.query.shouldTrigger ? '' : 'not '}load ${skillName}.`,
    fixture: { recipe: `../fixtures/${recipe}`, scenario: 'workspace' },
    prompt: { template: 'prompt.hbs', variables: { task: query.query.query } },
    stop: { at: { event: 'tool' } },
    checks: {
      pre: [],
      post: [
        query.query.shouldTrigger
          ? { id: 'triggers', verb: 'skill-invoked', skill: skillName, form: 'any' }
          : { id: 'stays-out', verb: 'skill-not-invoked', skill: skillName, form: 'any' },
      ],
    },
  };
}

async function writeScenario(
  dir: string,
  scenario: Record<string, unknown>,
  prompt: string,
): Promise<void> {
  await writeJson(path.join(dir, 'scenario.json'), scenario);
  await writeFile(path.join(dir, 'prompt.hbs'), prompt);
}

/** Copy a library's skills (skills/<name>/) into `dest`/skills, leaving out the names given. */
async function copyDistractors(
  library: string,
  dest: string,
  except: ReadonlySet<string>,
): Promise<string[]> {
  const skillsDir = path.join(library, 'skills');
  const names: string[] = [];
  for (const entry of (await readdir(skillsDir, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    if (
      !entry.isDirectory() ||
      except.has(entry.name) ||
      !existsSync(path.join(skillsDir, entry.name, 'SKILL.md'))
    )
      continue;
    await copyTree(path.join(skillsDir, entry.name), path.join(dest, 'skills', entry.name));
    names.push(entry.name);
  }
  return names;
}

async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.isDirectory()) await copyTree(path.join(from, entry.name), path.join(to, entry.name));
    else if (entry.isFile()) await copyFile(path.join(from, entry.name), path.join(to, entry.name));
  }
}

interface SkillEntry {
  readonly skill: EvalImport['skill'];
  readonly evalFile: string | undefined;
}

/** Write the campaign into `dest` (which must not exist yet: it is written aside and renamed). */
export async function writeEvalsCampaign(
  dest: string,
  options: EvalsCampaignOptions,
): Promise<Result<WrittenCampaign, InputError>> {
  if (existsSync(dest))
    return err(inputError(dest, 'already exists', 'write the campaign to a new folder'));
  const offlineModel = packEvalsOfflineModel();
  if (offlineModel === undefined) {
    return err(
      inputError(
        'evals',
        'no installed pack gives the scripted model an evals campaign runs on without a key',
        'install a pack that names one (redgreen ships skill-triggering)',
      ),
    );
  }
  const skills = new Map<string, SkillEntry>();
  for (const item of [...options.behaviour, ...options.triggers]) {
    const known = skills.get(item.skill.dir);
    skills.set(item.skill.dir, {
      skill: item.skill,
      evalFile: known?.evalFile ?? (item.kind === 'evals' ? item.file : undefined),
    });
  }
  const names = [...skills.values()].map((entry) => entry.skill.name);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate !== undefined) {
    return err(
      inputError(
        'evals',
        `two skills are named "${duplicate}"`,
        'give each skill under test its own name (SKILL.md name:)',
      ),
    );
  }
  if (options.reach === 'named' && skills.size > 1) {
    return err(
      inputError(
        '--reach named',
        `names one skill folder per arm, and the campaign has ${skills.size} skills`,
        'use --reach installed (every skill installed with the distractors), or one campaign per skill',
      ),
    );
  }
  if (options.triggers.length > 0 && options.reach === 'named') {
    return err(
      inputError(
        '--reach named',
        'a trigger set tests whether a description gets the skill chosen, which a prompt naming the skill cannot',
        'run trigger sets with --reach installed',
      ),
    );
  }
  const partial = `${dest}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  try {
    const written = await writeInto(partial, options, [...skills.values()], offlineModel);
    if (!written.ok) {
      await rm(partial, { recursive: true, force: true });
      return written;
    }
    await rename(partial, dest);
    return ok({ ...written.value, dir: dest, campaignFile: path.join(dest, 'campaign.json') });
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}

async function writeInto(
  root: string,
  options: EvalsCampaignOptions,
  skills: readonly SkillEntry[],
  offlineModel: string,
): Promise<Result<Omit<WrittenCampaign, 'dir' | 'campaignFile'>, InputError>> {
  const notes: string[] = [];
  const judgeModel = options.judgeModel ?? options.model ?? DEFAULT_LIVE_MODEL;
  await mkdir(root, { recursive: true });

  // The texts: new (working tree) always; old when asked for or by default, when there is one.
  const texts = new Map<string, Map<EvalArm, TextProvenance>>();
  let arms = options.arms;
  for (const { skill, evalFile } of skills) {
    const folders = excludedFolders(skill, evalFile);
    const mine = new Map<EvalArm, TextProvenance>();
    mine.set(
      'new',
      await copyWorkingTree(skill, folders, path.join(root, 'texts', 'new', skill.name)),
    );
    if (arms === undefined || arms.includes('old')) {
      const old = await copyOldText(
        skill,
        options.old.get(skill.dir),
        folders,
        path.join(root, 'texts', 'old', skill.name),
        options.old.has(skill.dir) ? '--old' : `old (${skill.name})`,
      );
      if (!old.ok) {
        if (arms !== undefined || options.old.has(skill.dir)) return old;
        // No old text and none asked for: a new skill, compared with no skill, as skill-creator does.
        notes.push(
          `${skill.name}: ${old.error.problem}; comparing the working tree with no skill (arms without, new)`,
        );
        arms = ['without', 'new'];
        await rm(path.join(root, 'texts', 'old'), { recursive: true, force: true });
        for (const other of texts.values()) other.delete('old');
      } else {
        mine.set('old', old.value);
      }
    }
    texts.set(skill.dir, mine);
  }
  const chosen = arms ?? ['old', 'new'];
  if (options.triggers.length > 0 && chosen.includes('without')) {
    return err(
      inputError(
        '--arms',
        'a trigger set compares two descriptions, and the without arm has none',
        'run a trigger set with --arms old,new',
      ),
    );
  }
  if (!chosen.includes('new') || chosen.length < 2) {
    return err(
      inputError(
        '--arms',
        `${chosen.join(',')} compares nothing with the working tree`,
        'give new and one or both of old, without (e.g. --arms old,new)',
      ),
    );
  }
  // RED is old when it runs, else without; gates compare the first RED arm with GREEN (new).
  const ordered: EvalArm[] = ['old', 'new', 'without'].filter((arm): arm is EvalArm =>
    chosen.includes(arm as EvalArm),
  );
  const red = ordered.includes('old') ? 'old' : 'without';

  // The arms' texts, as the reach gives them.
  const library = options.library ?? defaultDistractors();
  const armEntries: Record<string, unknown>[] = [];
  for (const arm of ordered) {
    const label =
      arm === 'new'
        ? 'the working tree'
        : arm === 'old'
          ? [...texts.values()].map((mine) => mine.get('old')?.text ?? '').join('; ')
          : 'no skill';
    const role = arm === 'new' ? 'green' : 'red';
    if (options.reach === 'named') {
      const [only] = skills;
      armEntries.push({
        name: arm,
        role,
        label,
        skill: arm === 'without' ? null : `texts/${arm}/${only?.skill.name ?? ''}`,
        layout: 'default',
      });
      continue;
    }
    const dir = path.join(root, 'libraries', arm);
    const own = new Set(skills.map((entry) => entry.skill.name));
    const distractors = await copyDistractors(library, dir, own);
    for (const { skill } of skills) {
      if (arm !== 'without')
        await copyTree(
          path.join(root, 'texts', arm, skill.name),
          path.join(dir, 'skills', skill.name),
        );
    }
    if (arm === ordered[0]) {
      notes.push(
        `installed with ${distractors.length} distractor skill(s) from ${library}: ${distractors.join(', ') || 'none'}`,
      );
    }
    armEntries.push({
      name: arm,
      role,
      label: arm === 'without' ? `no skill (the distractors only)` : label,
      library: { source: `libraries/${arm}`, name: 'skills' },
      layout: 'default',
    });
  }

  // Scenarios, fixtures, the record of what became what.
  const scenarioIds: string[] = [];
  const caseRecords: unknown[] = [];
  const queryRecords: unknown[] = [];
  const gates: unknown[] = [];
  const prompt = options.reach === 'named' ? NAMED_PROMPT : INSTALLED_PROMPT;
  for (const item of options.behaviour) {
    const recipe = `evals-${slug(item.skill.name, 40) || 'skill'}`;
    const fixtureOf = await writeRecipe(path.join(root, 'fixtures', recipe), recipe, item.cases);
    for (const imported of item.cases) {
      await writeScenario(
        path.join(root, imported.scenarioId),
        caseScenario(
          imported,
          item.skill.name,
          recipe,
          fixtureOf.get(imported.scenarioId) ?? 'workspace',
          options.reach,
          judgeModel,
          path.basename(item.file),
        ),
        prompt,
      );
      scenarioIds.push(imported.scenarioId);
      caseRecords.push({
        scenario: imported.scenarioId,
        skill: item.skill.name,
        evalId: imported.evalCase.id,
        evalName: imported.evalCase.name ?? null,
        field: imported.evalCase.field,
        prompt: imported.evalCase.prompt,
        expectedOutput: imported.evalCase.expectedOutput ?? null,
        inputs: imported.files.flatMap((entry) => entry.files.map((file) => file.workPath)),
        expectations: imported.compiled.map((compiled) => ({
          checkId: compiled.checkId,
          text: compiled.rubric,
          decidedBy: compiled.decidedBy,
          field: compiled.expectation.field,
        })),
      });
    }
  }
  const triggerGates: { positives: string[]; negatives: string[] } = {
    positives: [],
    negatives: [],
  };
  for (const [index, item] of options.triggers.entries()) {
    const recipe = `triggers-${slug(item.skill.name, 40) || 'skill'}`;
    if (!existsSync(path.join(root, 'fixtures', recipe)))
      await writeRecipe(path.join(root, 'fixtures', recipe), recipe, []);
    const prefix = options.triggers.length > 1 ? `${slug(item.skill.name, 20)}-${index + 1}-` : '';
    const assigned = splitQueries(
      item.set.queries,
      `${prefix}q-`,
      options.split,
      options.splitSeed,
    );
    for (const query of assigned) {
      await writeScenario(
        path.join(root, query.scenarioId),
        queryScenario(query, item.skill.name, recipe, path.basename(item.file)),
        INSTALLED_PROMPT,
      );
      scenarioIds.push(query.scenarioId);
      queryRecords.push({
        scenario: query.scenarioId,
        skill: item.skill.name,
        queryId: query.query.id,
        query: query.query.query,
        shouldTrigger: query.query.shouldTrigger,
        part: query.part,
        note: query.query.note ?? null,
      });
      if (query.part === 'tune') continue;
      (query.query.shouldTrigger ? triggerGates.positives : triggerGates.negatives).push(
        query.scenarioId,
      );
    }
  }

  const caseCount = options.behaviour.reduce((sum, item) => sum + item.cases.length, 0);
  const reps = options.reps ?? (caseCount > 0 ? repsToDecide(caseCount) : 3);
  if (caseCount > 0) {
    gates.push({
      kind: 'no-scenario-regresses',
      scenarios: options.behaviour.flatMap((item) =>
        item.cases.map((imported) => imported.scenarioId),
      ),
    });
    if (
      options.behaviour.some((item) =>
        item.cases.some((imported) =>
          imported.compiled.some((compiled) => compiled.decidedBy !== 'judge'),
        ),
      )
    ) {
      gates.push({ kind: 'max-disagreement-share', share: 0.2, minBothDecided: 0 });
    }
  }
  if (options.triggers.length > 0) {
    gates.push(
      { kind: 'trigger-recall-no-regression', ...triggerGates },
      { kind: 'trigger-precision-no-regression', ...triggerGates },
    );
  }
  gates.push({ kind: 'max-indeterminate-share', share: 0.2 }, ...options.extraGates);

  const skillNames = skills.map((entry) => entry.skill.name);
  const id = options.id ?? evalsCampaignId(skillNames);
  await writeJson(path.join(root, 'campaign.json'), {
    id,
    title:
      options.title ??
      `${skillNames.join(', ')}: the skill's own ${caseCount > 0 ? 'evals' : 'trigger set'}, ${ordered.filter((arm) => arm !== 'new').join(' and ')} against new`,
    description: `${options.description === undefined ? '' : `${options.description} `}Generated by redgreen ${harnessVersion()} from ${[...options.behaviour, ...options.triggers].map((item) => item.file).join(', ')}; reach: ${options.reach}.`,
    arms: armEntries,
    scenarios: scenarioIds,
    reps,
    model: options.model ?? DEFAULT_LIVE_MODEL,
    offlineModel,
    backend: options.backend ?? 'claude-code',
    concurrency: options.concurrency ?? 4,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    limits: { maxTurns: 40, sessionTimeoutSeconds: 600, ...options.limits },
    gates,
  });
  await writeJson(path.join(root, 'import.json'), {
    schemaVersion: 1,
    generatedBy: `redgreen ${harnessVersion()}`,
    reach: options.reach,
    red,
    green: 'new',
    arms: ordered.map((arm) => ({
      name: arm,
      role: arm === 'new' ? 'green' : 'red',
      texts: skills.map(({ skill }) => ({
        skill: skill.name,
        text: arm === 'without' ? 'no skill' : (texts.get(skill.dir)?.get(arm)?.text ?? ''),
        commit: texts.get(skill.dir)?.get(arm)?.commit ?? null,
      })),
    })),
    skills: skills.map(({ skill }) => ({
      name: skill.name,
      dir: skill.dir,
      description: skill.description,
    })),
    sources: [...options.behaviour, ...options.triggers].map((item) => ({
      kind: item.kind,
      file: item.file,
      skill: item.skill.name,
    })),
    split: options.split === undefined ? null : { tune: options.split, seed: options.splitSeed },
    cases: caseRecords,
    queries: queryRecords,
    notes,
  });
  return ok({ arms: ordered, reps, notes });
}
