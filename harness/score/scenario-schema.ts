/**
 * `scenarios/<id>/scenario.json` (or `scenario.yaml`): a scenario as data.
 *
 * - `fixture`: a recipe under `fixtures/`, its scenario, optional variables;
 * - `prompt`: a Handlebars template and its variables (a pack may supply
 *   more, from its fields: scenario-extensions.ts); `stop`: `report` (the session works, then
 *   replies) or `first-dispatch` (it ends at the controller's first subagent
 *   dispatch, which is captured) or `complete` (dispatches run as subagents);
 * - `user` (`stop: complete` only): the scripted user, who answers the
 *   session's questions by pattern, else with a default (scripted-user.ts);
 * - `packs`: the packs whose extractors, verbs and facts the scenario uses
 *   (a scenario naming none loads with the core alone); a pack may add
 *   top-level fields of its own (score-registry.ts);
 * - `report`: the reply's contract, named sections each with its label(s)
 *   and an extractor (choice, text, or one a named pack brings);
 * - `checks`: `pre` (the fixture's premise; a failing one makes a rep
 *   indeterminate) and `post` (the behaviour; combined by Kleene logic);
 * - `observe`: checks recorded and reported, never gating;
 * - `calibration`: scripted policies that must pass and must fail, each with
 *   the arm (skill dir and layout) it runs as;
 * - `judge` (optional): a rubric for a second opinion by a model, keyed by
 *   the post checks it shadows (harness/judge/judge-spec.ts).
 *
 * Unknown fields are errors, so a typo never silently changes a scenario.
 */
import { z } from 'zod';
import { type CheckInput, checkSchema, checkSchemaWith } from './check-schema.js';
import { claudeDirSchema } from './claude-dir.js';
import { registeredExtractors } from './extractor-table.js';
import { judgeSpecSchema } from './judge-spec.js';
import { summarySchema } from './observation-summary.js';
import { nameSchema, nonBlank, regexSource, repoPathSchema } from './param-types.js';
import { derived, registeredScenarioFields } from './score-registry.js';
import { scriptedUserSchema } from './scripted-user.js';
import { stopSpecSchema } from './stop-mode.js';

export const SCENARIO_ID = /^[a-z0-9][a-z0-9-]*$/;
const variableName = z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'use letters, digits and _');

/** Every extractor kind, the core's first. */
export const extractorKinds = derived(() =>
  registeredExtractors().map((extractor) => extractor.name),
);

/** An extractor spec as a scenario declares it: its kind plus its params. */
const extractorSpecSchema = derived(() =>
  z.discriminatedUnion(
    'kind',
    registeredExtractors().map(({ entry }) => entry.params) as unknown as [
      z.ZodObject<{ kind: z.ZodLiteral<string> }>,
    ],
  ),
);

const sectionSchema = derived(() =>
  z
    .object({
      /** Label(s) as written in the prompt, matched case-insensitively, any white space between words. */
      label: z.union([nonBlank, z.array(nonBlank).min(1)]).optional(),
      /** Further labels as regular expressions, matched at the start of a line. */
      labelPatterns: z.array(regexSource).min(1).optional(),
      /** False: a reply without this section reads as the extractor's empty value (no judgements, no text). */
      required: z.boolean().default(true),
      extract: z.union([z.enum(extractorKinds() as [string, ...string[]]), extractorSpecSchema()]),
    })
    .strict()
    .refine((section) => section.label !== undefined || section.labelPatterns !== undefined, {
      message: 'give label or labelPatterns',
      path: ['label'],
    }),
);
export interface SectionSpec {
  readonly label?: string | string[] | undefined;
  readonly labelPatterns?: string[] | undefined;
  readonly required: boolean;
  readonly extract: string | ({ kind: string } & Record<string, unknown>);
}

const observationMeta = { summary: summarySchema.optional() };

/** An observation: any check (recorded, never gating), or a classification by named checks. */
const observationSchema = z.union([
  checkSchemaWith(observationMeta),
  z
    .object({
      id: nameSchema,
      why: z.string().optional(),
      /** Labels and their checks; observed is the labels that passed (`both`, `neither` for two). */
      classify: z.record(nameSchema, checkSchema),
      ...observationMeta,
    })
    .strict(),
]);

const armSchema = {
  policy: z
    .string()
    .regex(/^[a-z][a-z0-9-]*$/, 'a built-in policy such as structural, or a policy file name'),
  /** The skill directory it runs with, relative to the scenario folder (or a shipped text's bare name). */
  skill: z.string().min(1).optional(),
  /** A skills library it runs with instead, installed as a library arm's is (same path rules). */
  library: z.string().min(1).optional(),
  /** The library's skills replaced from other skill folders, by directory name (same path rules). */
  overrides: z.record(z.string().min(1), z.string().min(1)).optional(),
  /** The fixture layout it runs on. */
  layout: z.string().min(1),
  why: z.string().optional(),
};

const oneText = {
  check: (run: { skill?: string | undefined; library?: string | undefined; overrides?: unknown }) =>
    (run.skill === undefined) !== (run.library === undefined) &&
    (run.overrides === undefined || run.library !== undefined),
  message:
    'give "skill" (one skill folder) or "library" (a skills library, with optional "overrides")',
};

export const calibrationSchema = z
  .object({
    mustPass: z
      .array(
        z
          .object(armSchema)
          .strict()
          .refine(oneText.check, { message: oneText.message, path: ['skill'] }),
      )
      .min(1),
    mustFail: z
      .array(
        z
          .object({
            ...armSchema,
            /** Post-check ids that must be among the failing ones: it fails for the right reason. */
            failing: z.array(nameSchema).min(1),
          })
          .strict()
          .refine(oneText.check, { message: oneText.message, path: ['skill'] }),
      )
      .min(1),
  })
  .strict();
export type CalibrationSpec = z.infer<typeof calibrationSchema>;

const promptSchema = z.union([
  z.string().min(1),
  z
    .object({
      /** A name in the scenarios' `prompts/` folder, or a `.hbs` path relative to the scenario folder. */
      template: z.string().min(1),
      variables: z.record(variableName, z.string()).default({}),
    })
    .strict(),
]);

const PACK_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** The core's fields of a scenario file but the checks, which compileCheck validates with better messages. */
const coreShellShape = {
  $schema: z.string().optional(),
  id: z.string().regex(SCENARIO_ID, 'use lower-case letters, digits and dashes'),
  title: nonBlank,
  description: z.string().optional(),
  /** The packs whose extractors, verbs and facts the scenario uses (`["sdd"]`). */
  packs: z
    .array(z.string().regex(PACK_NAME, 'a pack name: lower-case words joined by dashes'))
    .min(1)
    .optional(),
  fixture: z
    .object({
      recipe: z.string().min(1),
      scenario: z.string().min(1),
      variables: z.record(variableName, z.string()).default({}),
    })
    .strict(),
  prompt: promptSchema,
  stop: stopSpecSchema
    .default('report')
    .describe(
      'report: the model works, then replies; first-dispatch: capture the first dispatch; complete: dispatches run as subagents; { at: <event selector> }: capture the first call that makes such an event',
    ),
  /**
   * Tools beyond the backend's defaults the session is offered (`add`:
   * EnterWorktree, AskUserQuestion, WebFetch, …), or defaults it is not
   * (`remove`), checked against the backend's table (harness/session/session-tool-table.ts).
   */
  tools: z
    .object({
      add: z.array(nonBlank).min(1).optional(),
      remove: z.array(nonBlank).min(1).optional(),
    })
    .strict()
    .optional(),
  /**
   * The project instruction files (`CLAUDE.md`, `AGENTS.md`) of the fixture
   * the session loads, as the engine loads a project's; nothing else of
   * the fixture's `.claude/` is ever loaded.
   */
  instructions: z.array(repoPathSchema).min(1).optional(),
  /**
   * The parts of the fixture's `.claude/` the session is given (opt-in;
   * absent: none of it reaches the session). `skills`: its project skills,
   * `.claude/skills/<name>/SKILL.md`, offered through the Skill tool as the
   * engine offers a project's. Settings, hooks, status line and permissions
   * are refused (claude-dir.ts).
   */
  claudeDir: claudeDirSchema.optional(),
  /** `stop: complete` only: answers to the questions the session asks the human (scripted-user.ts). */
  user: scriptedUserSchema.optional(),
  /** The reply's contract (its sections' extractors come from the registry: see scenarioShellSchema). */
  report: z.record(nameSchema, z.unknown()).optional(),
  checks: z
    .object({ pre: z.array(z.unknown()).default([]), post: z.array(z.unknown()).min(1) })
    .strict(),
  observe: z.array(z.unknown()).default([]),
  /**
   * Optional: a scenario only `redgreen check` scores (sessions run
   * elsewhere), or one imported from a skill's own eval file (nobody wrote
   * scripted policies for it), loads without one; `scenario lint` then
   * says nothing proves its checks, and fails.
   */
  calibration: calibrationSchema.optional(),
  judge: judgeSpecSchema.optional(),
};

/** A scenario file but its checks, validated: the core's fields, and those the installed packs add. */
export type ScenarioShell = Omit<z.infer<z.ZodObject<typeof coreShellShape>>, 'report'> & {
  readonly report?: Record<string, SectionSpec> | undefined;
  /** A field an installed pack adds (score-registry.ts): its pack's code reads it. */
  readonly [packField: string]: unknown;
};

/** Every field but the checks: the core's, then the installed packs' (score-registry.ts). */
export const scenarioShellSchema = derived(
  () =>
    z
      .object({
        ...coreShellShape,
        report: z.record(nameSchema, sectionSchema()).optional(),
        ...Object.fromEntries(registeredScenarioFields().map(({ name, entry }) => [name, entry])),
      })
      .strict() as unknown as z.ZodType<ScenarioShell>,
);

/** The pack that adds a top-level scenario field, if one does. */
export function scenarioFieldOwner(field: string): string | undefined {
  return registeredScenarioFields().find((known) => known.name === field)?.owner;
}

/** The whole file as one zod schema, checks included (for tools and tests). */
export const scenarioFileSchema = derived(() =>
  (scenarioShellSchema() as unknown as z.ZodObject).extend({
    checks: z
      .object({ pre: z.array(checkSchema).default([]), post: z.array(checkSchema).min(1) })
      .strict(),
    observe: z.array(observationSchema).default([]),
  }),
);
export type { CheckInput };
