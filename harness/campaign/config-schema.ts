import { z } from 'zod';
import { REPLAY_POLICY } from '../results/run-recordings.js';
import { limitsSchema } from '../session/session-limits.js';
import { BACKEND_NAMES } from '../session/session-tool-table.js';
import { enginesAgreeGateSchema } from './engine-gates-config.js';
import { metricCapGateSchema, metricRatioGateSchema } from './metric-gates-config.js';
import { gateModelField, modelAxisFields } from './model-config.js';
import { scenarioEntrySchema } from './scenario-entry.js';

/**
 * The campaign file (`scenarios/*.campaign.json`): which skill texts to
 * compare (arms), on which scenarios, how many fresh sessions per cell, with
 * which model and backend, under which limits, and which gates decide the
 * outcome. Unknown fields are errors, so a typo never silently changes a run.
 */

/** The scripted model of a replay campaign: each rep's recorded session. */
export const REPLAY_MODEL = `scripted:${REPLAY_POLICY}`;

const nameSchema = z
  .string()
  .regex(
    /^[a-z][a-z0-9-]{0,31}$/,
    'use lower-case letters, digits and dashes, starting with a letter',
  );

/**
 * A skills library as an arm's text: its source (a directory or
 * git:<repo>@<ref>[:<subdir>] holding skills/<name>/SKILL.md), skills it
 * replaces from other sources (by directory name), and the plugin name it
 * installs under when it ships no `.claude-plugin/plugin.json`.
 */
export const librarySpecSchema = z
  .object({
    source: z
      .string()
      .min(1)
      .describe('a directory, or git:<repo>@<ref>:<subdir> holding skills/<name>/SKILL.md'),
    overrides: z
      .record(
        z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a skill directory name under skills/'),
        z.string().min(1),
      )
      .default({})
      .describe('skills replaced from another skill source, by their directory name'),
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'use lower-case letters, digits and dashes')
      .optional()
      .describe('the plugin name when the library has no .claude-plugin/plugin.json'),
  })
  .strict();
export type LibrarySpec = z.infer<typeof librarySpecSchema>;

export const armSchema = z
  .object({
    name: nameSchema,
    role: z.enum(['red', 'green']),
    label: z.string().min(1).describe('the text under test, as the Results table names it'),
    skill: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .describe(
        'a directory, or git:<repo>@<ref>:<subdir> (materialised with git archive); null: no skill at all (a baseline arm)',
      ),
    library: librarySpecSchema
      .optional()
      .describe('a whole skills library, installed per rep as the engine finds a plugin'),
    layout: z.string().min(1).describe('the fixture layout this arm runs on (flat | scoped)'),
  })
  .strict()
  .refine((arm) => (arm.skill === undefined) !== (arm.library === undefined), {
    message:
      'give the arm either "skill" (one skill folder, or null for none) or "library" (a skills library)',
    path: ['skill'],
  });

/**
 * A trigger set's gate (harness/report/trigger-rates.ts): the queries it
 * reads, by the scenario each became, as should and should not trigger.
 */
function triggerGateSchema<K extends string>(kind: K) {
  return z
    .object({
      kind: z.literal(kind),
      /** The trigger set's queries (scenarios) that should load the skill. */
      positives: z.array(z.string().min(1)),
      /** Those that should not. */
      negatives: z.array(z.string().min(1)),
      alpha: z.number().gt(0).lt(1).default(0.05),
      ...gateModelField,
    })
    .strict()
    .refine((gate) => gate.positives.length + gate.negatives.length > 0, {
      message: 'name the queries the gate reads (positives, negatives)',
      path: ['positives'],
    });
}

export const gateSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('min-pass-rate'),
      arm: nameSchema,
      scenario: z.string().min(1),
      passes: z.number().int().nonnegative(),
      of: z.number().int().positive(),
      ...gateModelField,
    })
    .strict()
    .refine((gate) => gate.passes <= gate.of, { message: 'passes must not exceed of' }),
  z
    .object({
      kind: z.literal('green-better'),
      scenario: z.string().min(1),
      alpha: z.number().gt(0).lt(1).default(0.05),
      ...gateModelField,
    })
    .strict(),
  z
    .object({
      kind: z.literal('no-regression'),
      scenario: z.string().min(1),
      alpha: z.number().gt(0).lt(1).default(0.05),
      ...gateModelField,
    })
    .strict(),
  z
    .object({
      kind: z.literal('no-scenario-regresses'),
      /** The scenarios it looks at; default every scenario the campaign runs. */
      scenarios: z.array(z.string().min(1)).min(1).optional(),
      alpha: z.number().gt(0).lt(1).default(0.05),
      /** How the per-scenario tests are corrected for their number. */
      correction: z.enum(['holm', 'none']).default('holm'),
      ...gateModelField,
    })
    .strict(),
  triggerGateSchema('trigger-recall-no-regression'),
  triggerGateSchema('trigger-precision-no-regression'),
  z
    .object({
      kind: z.literal('max-indeterminate-share'),
      share: z.number().min(0).max(1),
      ...gateModelField,
    })
    .strict(),
  z
    .object({
      kind: z.literal('max-disagreement-share'),
      share: z.number().min(0).max(1),
      scenario: z
        .string()
        .min(1)
        .optional()
        .describe("one scenario's reps; default: every judged rep of the run"),
      minBothDecided: z
        .number()
        .min(0)
        .max(1)
        .optional()
        .describe(
          'the share of recorded reps of the judged scenarios that checks and judge must both decide, else the gate cannot decide; default 0.5',
        ),
      ...gateModelField,
    })
    .strict(),
  metricRatioGateSchema,
  metricCapGateSchema,
  enginesAgreeGateSchema,
]);

export const campaignSchema = z
  .object({
    $schema: z.string().optional(),
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'use lower-case letters, digits and dashes'),
    title: z.string().min(1),
    description: z.string().optional(),
    arms: z.array(armSchema).min(1),
    scenarios: z.array(scenarioEntrySchema).min(1),
    reps: z.number().int().min(1).max(1000),
    model: z
      .string()
      .min(1)
      .optional()
      .describe('model for live runs (ANTHROPIC_API_KEY set); or list several under models'),
    offlineModel: z
      .string()
      .regex(/^scripted:[a-z][a-z0-9-]*$/)
      .optional()
      .describe('scripted policy used when no API key is set (with models: the default stand-in)'),
    ...modelAxisFields,
    backend: z.enum(BACKEND_NAMES).default('claude-code'),
    engines: z
      .array(z.enum(BACKEND_NAMES))
      .min(1)
      .refine((names) => new Set(names).size === names.length, 'list each engine once')
      .optional()
      .describe(
        'the engines compared (each of claude-code, messages, codex): every cell runs on each; instead of backend',
      ),
    concurrency: z.number().int().min(1).max(64).default(4),
    seed: z.number().int().nonnegative().default(1),
    limits: limitsSchema.default(limitsSchema.parse({})),
    gates: z.array(gateSchema).default([]),
    replay: z
      .string()
      .min(1)
      .optional()
      .describe(
        'a results directory (relative to this file): each rep is answered by the session recorded for the same rep there, on the model scripted:replay (redgreen run --record writes such a campaign)',
      ),
  })
  .strict()
  .superRefine((campaign, context) => {
    // A replay campaign runs the recorded sessions, on scripted:replay only.
    const ids = [
      ...(campaign.models ?? []).map((model) => model.id),
      ...(campaign.model === undefined ? [] : [campaign.model]),
      ...(campaign.offlineModel === undefined ? [] : [campaign.offlineModel]),
    ];
    if (campaign.replay !== undefined && ids.some((id) => id !== REPLAY_MODEL)) {
      context.addIssue({
        code: 'custom',
        path: ['replay'],
        message: `a replay campaign's models are all ${REPLAY_MODEL} (the recorded sessions answer): set model and offlineModel (or each models[].id) to it`,
      });
    }
    if (campaign.replay === undefined && ids.includes(REPLAY_MODEL)) {
      context.addIssue({
        code: 'custom',
        path: ['replay'],
        message: `${REPLAY_MODEL} answers from a results directory: give "replay", the directory whose sessions it replays`,
      });
    }
    // One model as `model` + `offlineModel` (the original form), or several under `models`.
    if (campaign.models !== undefined && campaign.model !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['model'],
        message: 'give either "model" (one model) or "models" (several), not both',
      });
    } else if (campaign.models === undefined && campaign.model === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['models'],
        message: 'the campaign names no model: give "models", or "model" and "offlineModel"',
      });
    } else if (campaign.models === undefined && campaign.offlineModel === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['offlineModel'],
        message:
          'a campaign with "model" needs "offlineModel", the scripted policy it runs without a key',
      });
    }
  });

export type ArmConfig = z.infer<typeof armSchema>;
export type GateConfig = z.infer<typeof gateSchema>;
export type CampaignConfig = z.infer<typeof campaignSchema>;
export type BackendName = CampaignConfig['backend'];

/**
 * A scenario file (`scenarios/<id>/scenario.json`) has its own schema, with
 * its checks and its stop mode: see harness/score/scenario-schema.ts.
 */
export type { ScenarioShell as ScenarioConfig } from '../score/scenario-schema.js';
export { STOP_MODES as stopModes, type StopMode, stopModeSchema } from '../score/stop-mode.js';
