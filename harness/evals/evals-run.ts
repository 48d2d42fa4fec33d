/**
 * `redgreen run --evals <skill-dir>`, `redgreen run --triggers <file>
 * --skill <dir>`, and `redgreen run <campaign naming eval files>`: import
 * the files (import-evals.ts), then write the campaign they become into the
 * results directory's `evals/` folder (write-campaign.ts), which the run then
 * runs like any campaign file; `--resume`, `score`, `judge` and `report`
 * find it there. A dry run writes it to a temp folder it removes. Nothing is
 * written when an import is refused.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { inputErrorFromZod } from '../lib/zod-input-error.js';
import { type EvalsCampaignFile, evalsCampaignFileSchema } from './evals-campaign-file.js';
import {
  type EvalImport,
  importEvals,
  importTriggers,
  type TriggerImport,
} from './import-evals.js';
import { skillAt } from './locate-skill.js';
import {
  ARM_NAMES,
  type EvalArm,
  type EvalsCampaignOptions,
  evalsCampaignId,
  REACHES,
  type Reach,
  writeEvalsCampaign,
} from './write-campaign.js';

/** What `redgreen run` was given to import. */
export interface EvalsFlags {
  /** `--evals`: skill directories or eval files (repeatable). */
  readonly evals?: readonly string[] | undefined;
  /** `--triggers <file>`, with `--skill <dir>`. */
  readonly triggers?: string | undefined;
  readonly skill?: string | undefined;
  readonly old?: string | undefined;
  /** `--eval-arms old,new,without`. */
  readonly evalArms?: string | undefined;
  readonly reach?: string | undefined;
  readonly library?: string | undefined;
  readonly split?: number | undefined;
  readonly splitSeed?: number | undefined;
}

export function evalsRequested(flags: EvalsFlags): boolean {
  return (flags.evals?.length ?? 0) > 0 || flags.triggers !== undefined;
}

/** An import, checked and ready to write. */
export interface PreparedEvals {
  readonly id: string;
  readonly options: EvalsCampaignOptions;
}

function parseArms(
  text: string | undefined,
  input: string,
): Result<EvalArm[] | undefined, InputError> {
  if (text === undefined) return ok(undefined);
  const arms = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const unknown = arms.find((arm) => !(ARM_NAMES as readonly string[]).includes(arm));
  if (unknown !== undefined || arms.length < 2 || new Set(arms).size !== arms.length) {
    return err(
      inputError(
        input,
        unknown === undefined
          ? `"${text}" names fewer than two arms, or one twice`
          : `"${unknown}" is not an arm of an evals run`,
        `name two or three of ${ARM_NAMES.join(', ')}, e.g. ${input} old,new`,
      ),
    );
  }
  return ok(arms as EvalArm[]);
}

function parseReach(text: string | undefined, input: string): Result<Reach, InputError> {
  if (text === undefined) return ok('installed');
  if ((REACHES as readonly string[]).includes(text)) return ok(text as Reach);
  return err(inputError(input, `"${text}" is not a reach`, `use ${REACHES.join(' or ')}`));
}

async function importAll(
  behaviour: readonly { target: string; old: string | undefined }[],
  triggers: readonly { file: string; skill: string; old: string | undefined }[],
): Promise<
  Result<
    { behaviour: EvalImport[]; triggers: TriggerImport[]; old: Map<string, string> },
    InputError
  >
> {
  // Scenario ids carry the skill's name when several skills' evals share a campaign.
  const several = behaviour.length > 1;
  const out: EvalImport[] = [];
  const sets: TriggerImport[] = [];
  const old = new Map<string, string>();
  for (const { target, old: oldSpec } of behaviour) {
    const imported = await importEvals(target, several);
    if (!imported.ok) return imported;
    if (imported.value.kind === 'triggers') sets.push(imported.value);
    else out.push(imported.value);
    if (oldSpec !== undefined) old.set(imported.value.skill.dir, oldSpec);
  }
  for (const { file, skill, old: oldSpec } of triggers) {
    const found = await skillAt(skill);
    if (!found.ok) return found;
    const imported = await importTriggers(file, found.value);
    if (!imported.ok) return imported;
    sets.push(imported.value);
    if (oldSpec !== undefined) old.set(found.value.dir, oldSpec);
  }
  return ok({ behaviour: out, triggers: sets, old });
}

/** The import `run --evals` / `--triggers` asks for. */
export async function prepareEvalsFromFlags(
  flags: EvalsFlags,
  cwd: string,
): Promise<Result<PreparedEvals, InputError>> {
  if (flags.triggers !== undefined && flags.skill === undefined) {
    return err(
      inputError(
        '--triggers',
        'needs the skill whose description it tests',
        'add --skill <dir> (the folder holding SKILL.md)',
      ),
    );
  }
  if (flags.skill !== undefined && flags.triggers === undefined) {
    return err(
      inputError(
        '--skill',
        'names the skill of a trigger set, and no --triggers is given',
        'add --triggers <file>, or use --evals <skill-dir> for its evals',
      ),
    );
  }
  if (flags.split !== undefined && flags.triggers === undefined) {
    return err(
      inputError(
        '--split',
        'holds out part of a trigger set, and no --triggers is given',
        'add --triggers <file> --skill <dir>',
      ),
    );
  }
  const arms = parseArms(flags.evalArms, '--eval-arms');
  if (!arms.ok) return arms;
  const reach = parseReach(flags.reach, '--reach');
  if (!reach.ok) return reach;
  const evals = flags.evals ?? [];
  if (flags.old !== undefined && evals.length + (flags.triggers === undefined ? 0 : 1) > 1) {
    return err(
      inputError(
        '--old',
        'names one old text, and several skills are given',
        'run one skill at a time with --old, or use a campaign file (evals.skills[].old)',
      ),
    );
  }
  const imported = await importAll(
    evals.map((target) => ({ target: path.resolve(cwd, target), old: flags.old })),
    flags.triggers === undefined
      ? []
      : [
          {
            file: path.resolve(cwd, flags.triggers),
            skill: path.resolve(cwd, flags.skill ?? ''),
            old: flags.old,
          },
        ],
  );
  if (!imported.ok) return imported;
  const names = [
    ...new Set(
      [...imported.value.behaviour, ...imported.value.triggers].map((item) => item.skill.name),
    ),
  ];
  return ok({
    id: evalsCampaignId(names),
    options: {
      ...imported.value,
      arms: arms.value,
      reach: reach.value,
      library: flags.library === undefined ? undefined : path.resolve(cwd, flags.library),
      split: flags.split,
      splitSeed: flags.splitSeed ?? 42,
      reps: undefined,
      id: undefined,
      title: undefined,
      backend: undefined,
      model: undefined,
      judgeModel: undefined,
      extraGates: [],
    },
  });
}

/** The import a campaign file naming eval files asks for, or undefined when the file names none. */
export async function prepareEvalsFromCampaignFile(
  file: string,
): Promise<Result<PreparedEvals, InputError> | undefined> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined; // not this module's to report: the campaign loader says what is wrong
  }
  if (typeof json !== 'object' || json === null || !('evals' in json)) return undefined;
  const parsed = evalsCampaignFileSchema.safeParse(json);
  if (!parsed.success) return err(inputErrorFromZod(file, parsed.error));
  const config: EvalsCampaignFile = parsed.data;
  const base = path.dirname(file);
  const field = config.evals;
  const imported = await importAll(
    field.skills.flatMap((entry) =>
      entry.evals === false
        ? []
        : [{ target: path.resolve(base, entry.evals ?? entry.skill), old: entry.old }],
    ),
    field.skills.flatMap((entry) =>
      entry.triggers === undefined
        ? []
        : [
            {
              file: path.resolve(base, entry.triggers),
              skill: path.resolve(base, entry.skill),
              old: entry.old,
            },
          ],
    ),
  );
  if (!imported.ok) return imported;
  const names = [
    ...new Set(
      [...imported.value.behaviour, ...imported.value.triggers].map((item) => item.skill.name),
    ),
  ];
  return ok({
    id: config.id ?? evalsCampaignId(names),
    options: {
      ...imported.value,
      arms: field.arms,
      reach: field.reach,
      library: field.library === undefined ? undefined : path.resolve(base, field.library),
      split: field.split,
      splitSeed: field.splitSeed,
      reps: config.reps,
      id: config.id,
      title: config.title,
      description: config.description,
      backend: config.backend,
      model: config.model,
      judgeModel: field.judgeModel,
      extraGates: config.gates,
      concurrency: config.concurrency,
      seed: config.seed,
      limits: config.limits,
    },
  });
}

/**
 * Write the prepared campaign: into `<outDir>/evals` (creating the results
 * directory), or, for a dry run, into a temp folder `discard` removes.
 */
export async function writePreparedEvals(
  prepared: PreparedEvals,
  outDir: string,
  dryRun: boolean,
): Promise<
  Result<
    { campaignFile: string; notes: readonly string[]; discard: () => Promise<void> },
    InputError
  >
> {
  const root = dryRun ? await mkdtemp(path.join(os.tmpdir(), 'redgreen-evals-')) : outDir;
  const written = await writeEvalsCampaign(path.join(root, 'evals'), prepared.options);
  const discard = async () => {
    if (dryRun) await rm(root, { recursive: true, force: true });
  };
  if (!written.ok) {
    await discard();
    return written;
  }
  return ok({ campaignFile: written.value.campaignFile, notes: written.value.notes, discard });
}
