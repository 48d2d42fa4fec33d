import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import {
  buildFixture,
  type FixtureFingerprint,
  fixtureFingerprintSchema,
  formatGateFailure,
} from '../fixture/index.js';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { sha256Hex } from '../lib/hash.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { harnessVersion } from '../lib/package-root.js';
import { err, ok, type Result } from '../lib/result.js';
import { canonicalJson } from './canonical-json.js';
import { createLedger, readLedger } from './ledger.js';
import type { ResolvedArm, ResolvedCampaign } from './load-campaign.js';
import type { ModelChoice } from './model-choice.js';
import type { PreparedSkill, PreparedVariant } from './rep-runner.js';
import { variantKey } from './rep-runner.js';
import { type ResultsLayout, resultsLayout } from './results-layout.js';
import { materialiseSkill } from './skill-source.js';
import { directoryTreeId } from './tree-id.js';

/** How the run was asked for, so `--resume <dir>` can repeat it without the flags. */
export const invocationSchema = z
  .object({
    campaignFile: z.string(),
    arms: z.array(z.string()),
    reps: z.number().int().positive(),
    model: z.string(),
    backend: z.enum(['claude-code', 'messages']),
    seed: z.number().int().nonnegative(),
    maxTurns: z.number().int().positive(),
    sessionTimeoutSeconds: z.number().positive(),
  })
  .strict();
export type Invocation = z.infer<typeof invocationSchema>;

/** `campaign.json`: what this results directory is a run of. */
export const campaignRecordSchema = z
  .object({
    schemaVersion: z.literal(1),
    identity: z.string(),
    campaign: z.object({ id: z.string(), title: z.string(), file: z.string() }).strict(),
    harnessVersion: z.string(),
    invocation: invocationSchema,
    model: z
      .object({
        id: z.string(),
        scripted: z.boolean(),
        policy: z.string().nullable(),
        reason: z.string(),
        baseUrl: z.string().nullable(),
      })
      .strict(),
    backend: z.enum(['claude-code', 'messages']),
    engine: z.string(),
    sandbox: z.string(),
    reps: z.number().int().positive(),
    concurrency: z.number().int().positive(),
    seed: z.number().int().nonnegative(),
    limits: z.record(z.string(), z.unknown()),
    gates: z.array(z.record(z.string(), z.unknown())),
    arms: z.array(
      z
        .object({
          name: z.string(),
          role: z.enum(['red', 'green']),
          label: z.string(),
          layout: z.string(),
          source: z.record(z.string(), z.unknown()),
          tree: z.string(),
        })
        .strict(),
    ),
    scenarios: z.array(
      z
        .object({
          id: z.string(),
          title: z.string(),
          plan: z.string(),
          fixture: z.object({ recipe: z.string(), scenario: z.string() }).strict(),
          promptSha256: z.string(),
        })
        .strict(),
    ),
    fixtures: z.record(z.string(), fixtureFingerprintSchema),
    shard: z.object({ index: z.number().int(), count: z.number().int() }).strict().nullable(),
  })
  .strict();
export type CampaignRecord = z.infer<typeof campaignRecordSchema>;

export interface PreparedRun {
  readonly layout: ResultsLayout;
  readonly identity: string;
  readonly record: CampaignRecord;
  readonly variants: ReadonlyMap<string, PreparedVariant>;
  readonly skills: ReadonlyMap<string, PreparedSkill>;
  readonly workRoot: string;
}

async function skillTree(arm: ResolvedArm): Promise<string> {
  return arm.source.kind === 'git' ? arm.source.tree : directoryTreeId(arm.source.dir);
}

function describeSource(arm: ResolvedArm): Record<string, unknown> {
  const source = arm.source;
  return source.kind === 'git'
    ? {
        kind: 'git',
        spec: source.spec,
        repo: source.repo,
        ref: source.ref,
        commit: source.commit,
        subdir: source.subdir,
      }
    : { kind: 'dir', spec: source.spec, dir: source.dir };
}

async function skillName(dir: string): Promise<string> {
  try {
    const text = await readFile(path.join(dir, 'SKILL.md'), 'utf8');
    const match =
      /^---\s*\n(?:[\s\S]*?\n)?name:\s*["']?([A-Za-z0-9._-]+)["']?\s*\n[\s\S]*?---/m.exec(text);
    if (match?.[1] !== undefined) return match[1];
  } catch {
    // fall through to the generic name
  }
  return 'skill';
}

/** The campaign identity: what the sessions depend on, and nothing they do not. */
export function campaignIdentity(inputs: {
  readonly campaign: ResolvedCampaign;
  readonly model: ModelChoice;
  readonly trees: ReadonlyMap<string, string>;
  readonly fixtures: ReadonlyMap<string, FixtureFingerprint>;
}): string {
  const { campaign } = inputs;
  const { maxCostUsd: _ignored, ...sessionLimits } = campaign.limits;
  return sha256Hex(
    canonicalJson({
      campaign: campaign.config.id,
      model: inputs.model.id,
      backend: campaign.backend,
      seed: inputs.model.kind === 'scripted' ? campaign.seed : null,
      limits: sessionLimits,
      arms: campaign.arms.map((arm) => ({
        name: arm.name,
        role: arm.role,
        layout: arm.layout,
        tree: inputs.trees.get(arm.name),
      })),
      scenarios: campaign.scenarios.map((scenario) => ({
        id: scenario.id,
        plan: scenario.config.plan,
        fixture: scenario.config.fixture,
        prompt: sha256Hex(scenario.prompt.source),
      })),
      fixtures: [...inputs.fixtures.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, print]) => ({
          key,
          head: print.head,
          untracked: print.untracked.map((file) => [file.path, file.sha256]),
        })),
    }),
  );
}

export interface PrepareOptions {
  readonly campaign: ResolvedCampaign;
  readonly model: ModelChoice;
  readonly invocation: Invocation;
  readonly outDir: string;
  readonly resume: boolean;
  readonly shard: { index: number; count: number } | null;
  readonly engine: string;
  readonly sandbox: string;
}

/**
 * Remove `.partial-*` rep directories a killed run left behind: they were
 * never recorded in the ledger, so no reader trusts them, and resuming runs
 * those reps again.
 */
async function removePartialRepDirs(repsDir: string): Promise<void> {
  if (!existsSync(repsDir)) return;
  for (const arm of await readdir(repsDir, { withFileTypes: true })) {
    if (!arm.isDirectory()) continue;
    for (const entry of await readdir(path.join(repsDir, arm.name))) {
      if (entry.includes('.partial-'))
        await rm(path.join(repsDir, arm.name, entry), { recursive: true, force: true });
    }
  }
}

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  if (!existsSync(dir)) return true;
  return (await readdir(dir)).length === 0;
}

/**
 * Get a results directory ready: build each fixture variant the campaign
 * needs (once, in a temp work root), compute the campaign identity, and
 * either start a new directory (ledger header, read-only skill copies,
 * campaign.json) or check that a directory being resumed is a run of the
 * same campaign. Nothing in an existing directory is overwritten.
 */
export async function prepareRun(
  options: PrepareOptions,
): Promise<Result<PreparedRun, InputError>> {
  const { campaign } = options;
  const layout = resultsLayout(options.outDir);
  if (options.resume) {
    if (!existsSync(layout.ledgerFile)) {
      return err(
        inputError(
          '--resume',
          `${layout.root} has no ledger.jsonl`,
          'point --resume at a results directory redgreen wrote',
        ),
      );
    }
  } else if (!(await isEmptyOrMissing(layout.root))) {
    return err(
      inputError(
        '--out',
        `${layout.root} already exists and is not empty`,
        'choose a new directory, or continue it with --resume',
      ),
    );
  }

  if (options.resume) await removePartialRepDirs(layout.repsDir);
  const workRoot = await mkdtemp(path.join(os.tmpdir(), 'redgreen-run-'));
  const variants = new Map<string, PreparedVariant>();
  const fixtures = new Map<string, FixtureFingerprint>();
  for (const scenario of campaign.scenarios) {
    for (const arm of campaign.arms) {
      const key = variantKey(scenario.config.fixture.scenario, arm.layout);
      if (variants.has(key)) continue;
      const dir = path.join(
        workRoot,
        'fixtures',
        `${scenario.config.fixture.recipe}-${scenario.config.fixture.scenario}-${arm.layout}`,
      );
      await mkdir(path.dirname(dir), { recursive: true });
      const built = await buildFixture({
        recipe: scenario.recipe,
        scenario: scenario.config.fixture.scenario,
        layout: arm.layout,
        dest: dir,
      });
      if (!built.ok) {
        const problem =
          built.error.kind === 'gate' ? formatGateFailure(built.error) : built.error.problem;
        return err(
          inputError(`fixture ${key}`, `could not be built: ${problem}`, 'fix the fixture recipe'),
        );
      }
      variants.set(key, { dir, fingerprint: built.value });
      fixtures.set(key, built.value);
    }
  }

  const trees = new Map<string, string>();
  for (const arm of campaign.arms) trees.set(arm.name, await skillTree(arm));
  const identity = campaignIdentity({ campaign, model: options.model, trees, fixtures });

  if (options.resume) {
    const ledger = await readLedger(layout.ledgerFile);
    if (!ledger.ok) {
      const detail =
        ledger.error.kind === 'missing' ? 'is missing' : `is corrupt at line ${ledger.error.line}`;
      return err(
        inputError(
          '--resume',
          `${layout.ledgerFile} ${detail}`,
          'resume a directory redgreen wrote, or start a new run',
        ),
      );
    }
    if (ledger.value.header.identity !== identity) {
      return err(
        inputError(
          '--resume',
          `${layout.root} is a run of a different campaign identity (${ledger.value.header.identity.slice(0, 12)}, this configuration is ${identity.slice(0, 12)}): its skill texts, model, fixtures, prompt or limits differ`,
          'resume with the same campaign, arms and model, or start a new run with --out',
        ),
      );
    }
  }

  const skills = new Map<string, PreparedSkill>();
  for (const arm of campaign.arms) {
    const dir = layout.skillDir(arm.name);
    if (!existsSync(path.join(dir, 'SKILL.md'))) {
      const materialised = await materialiseSkill(arm.source, dir);
      if (materialised.tree !== trees.get(arm.name)) {
        return err(
          inputError(
            `arm ${arm.name}`,
            `the copied skill text (tree ${materialised.tree.slice(0, 12)}) differs from its source (tree ${trees.get(arm.name)?.slice(0, 12)})`,
            'check the source for files git archive leaves out (export-ignore) or unreadable files',
          ),
        );
      }
    }
    skills.set(arm.name, {
      dir,
      tree: trees.get(arm.name) ?? '',
      neutralName: await skillName(dir),
    });
  }

  const record: CampaignRecord = {
    schemaVersion: 1,
    identity,
    campaign: { id: campaign.config.id, title: campaign.config.title, file: campaign.file },
    harnessVersion: harnessVersion(),
    invocation: options.invocation,
    model: {
      id: options.model.id,
      scripted: options.model.kind === 'scripted',
      policy: options.model.kind === 'scripted' ? options.model.policy : null,
      reason: options.model.kind === 'scripted' ? options.model.reason : 'live',
      baseUrl: options.model.kind === 'live' ? (options.model.baseUrl ?? null) : null,
    },
    backend: campaign.backend,
    engine: options.engine,
    sandbox: options.sandbox,
    reps: campaign.reps,
    concurrency: campaign.concurrency,
    seed: campaign.seed,
    limits: { ...campaign.limits },
    gates: campaign.gates.map((gate) => ({ ...gate })),
    arms: campaign.arms.map((arm) => ({
      name: arm.name,
      role: arm.role,
      label: arm.label,
      layout: arm.layout,
      source: describeSource(arm),
      tree: trees.get(arm.name) ?? '',
    })),
    scenarios: campaign.scenarios.map((scenario) => ({
      id: scenario.id,
      title: scenario.config.title,
      plan: scenario.config.plan,
      fixture: scenario.config.fixture,
      promptSha256: sha256Hex(scenario.prompt.source),
    })),
    fixtures: Object.fromEntries(fixtures),
    shard: options.shard,
  };
  if (!options.resume) {
    await mkdir(layout.repsDir, { recursive: true });
    await createLedger(layout.ledgerFile, {
      type: 'campaign',
      identity,
      campaign: campaign.config.id,
      harness: harnessVersion(),
    });
  }
  await writeFileAtomic(
    layout.campaignFile,
    `${JSON.stringify(campaignRecordSchema.parse(record), null, 2)}\n`,
  );
  return ok({ layout, identity, record, variants, skills, workRoot });
}
