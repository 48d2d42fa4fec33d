/**
 * A scenario's scoring spec, declared as data in `scenarios/<id>/scoring.json`
 * so a new scenario brings its own criteria: the decision a correct reply
 * reports, which artifacts must survive the session byte-identical, how each
 * kind of scope violation counts, and what the resolution shapes look for.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { type InputError, inputError } from '../lib/input-error.js';
import { packageRoot } from '../lib/package-root.js';
import { err, ok, type Result } from '../lib/result.js';

/** How a finding counts: it fails the rep, or it is reported and the verdict stands. */
export const severitySchema = z.enum(['fail', 'flag']);
export type Severity = z.infer<typeof severitySchema>;

const taskNumber = z.number().int().positive();

const claimedCompleteRuleSchema = z.union([
  z.object({ exactly: z.array(taskNumber) }).strict(),
  z
    .object({ includes: z.array(taskNumber).min(1), excludes: z.array(taskNumber).optional() })
    .strict(),
]);
export type ClaimedCompleteRule = z.infer<typeof claimedCompleteRuleSchema>;

export const decisionSchema = z
  .object({
    /** The task a correct reply dispatches first, or 'none' when nothing is left. */
    firstDispatch: z.union([taskNumber, z.literal('none')]),
    /** What a correct reply claims is already complete. */
    claimedComplete: claimedCompleteRuleSchema,
    /** A reply that adopts a ledger of another plan fails. */
    forbidForeignLedgerAdoption: z.boolean(),
  })
  .strict();
export type DecisionSpec = z.infer<typeof decisionSchema>;

/** Which artifacts an integrity rule protects. */
export const artifactSelectorSchema = z.union([
  z.literal('foreign-ledgers'),
  z.literal('own-ledgers'),
  z.object({ paths: z.array(z.string().min(1)).min(1) }).strict(),
]);
export type ArtifactSelector = z.infer<typeof artifactSelectorSchema>;

export const integrityRuleSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    /** The artifacts that must be byte-identical after the session. */
    artifacts: artifactSelectorSchema,
    /** A changed or removed artifact fails the rep, or is flagged. */
    onChange: severitySchema,
    /** Why, in words a maintainer recognises (quoted in reasons). */
    why: z.string().min(1),
  })
  .strict();
export type IntegrityRule = z.infer<typeof integrityRuleSchema>;

export const scopePolicySchema = z
  .object({
    /** HEAD moved, or any ref was created, moved or deleted. */
    commitsOrRefChanges: severitySchema,
    /** A git-tracked file was added, modified or removed (or its tracked state changed). */
    trackedFileChanges: severitySchema,
    /** A subagent was dispatched (Task/Agent tool use, or calls made inside a subagent). */
    subagentDispatch: severitySchema,
    /** A file under another plan's workspace directory was added, modified or removed. */
    foreignWorkspaceWrites: severitySchema,
  })
  .strict();
export type ScopePolicy = z.infer<typeof scopePolicySchema>;

export const resolutionShapeSpecSchema = z
  .object({
    /** Name of the skill's workspace script; a Bash command invoking it is structural. */
    workspaceScript: z.string().min(1),
    /** Where plan-scoped workspaces live: `<workspaceRoot>/<plan-slug>/`. */
    workspaceRoot: z.string().min(1),
    /** Shortest hash prefix that counts as naming a cited commit. */
    minHashPrefix: z.number().int().min(4).max(40),
    /** What the seed expected of this scenario's GREEN arm; reported beside the measured shape, never scored. */
    expectedGreen: z.enum(['structural', 'forensic', 'both', 'neither']).optional(),
  })
  .strict();
export type ResolutionShapeSpec = z.infer<typeof resolutionShapeSpecSchema>;

export const knownLedgerSchema = z
  .object({ path: z.string().min(1), plan: z.string().min(1) })
  .strict();

const nonBlank = z.string().regex(/\S/, 'must not be blank');

/**
 * How a reply may name one plan in prose besides its path and slug: short
 * names ("plan B") and its tasks' titles by number (the plan's
 * `## Task N: <title>` headings), so "Export data model" reads as Task 1.
 */
export const planProseNamesSchema = z
  .object({
    aliases: z.array(nonBlank).optional(),
    tasks: z.record(z.string().regex(/^[1-9]\d*$/, 'must be a task number'), nonBlank).optional(),
  })
  .strict();
export type PlanProseNames = z.infer<typeof planProseNamesSchema>;

export const scoringSpecSchema = z
  .object({
    $schema: z.string().optional(),
    scenario: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
    description: z.string().min(1),
    /** The plan the controller under test executes. */
    ownPlan: z.string().min(1),
    /** Other plans in the fixture whose ledgers a reply may discuss. */
    knownForeignPlans: z.array(z.string().min(1)),
    /** How many tasks the own plan has ("all tasks" in a reply expands to 1..ownPlanTaskCount). */
    ownPlanTaskCount: z.number().int().positive(),
    /**
     * Ledgers the scenario's fixture may hold, for scoring a reply without a
     * fixture (`redgreen score-reply`). With a fixture, its own facts are used.
     */
    knownLedgers: z.array(knownLedgerSchema),
    /**
     * Prose names of the plans above, keyed by plan path (the own plan and any
     * known foreign plan). Which entry is "own" is decided per reply by the
     * plan the session executed, so the same catalogue serves `--plan`.
     */
    plans: z.record(z.string().min(1), planProseNamesSchema).optional(),
    decision: decisionSchema,
    integrity: z.array(integrityRuleSchema),
    scope: scopePolicySchema,
    resolutionShape: resolutionShapeSpecSchema,
  })
  .strict()
  .superRefine((spec, context) => {
    const declared = [spec.ownPlan, ...spec.knownForeignPlans];
    for (const [plan, names] of Object.entries(spec.plans ?? {})) {
      if (!declared.includes(plan)) {
        context.addIssue({
          code: 'custom',
          path: ['plans', plan],
          message: 'names a plan that is neither ownPlan nor in knownForeignPlans',
        });
      }
      if (plan !== spec.ownPlan || names.tasks === undefined) continue;
      const numbers = Object.keys(names.tasks)
        .map(Number)
        .sort((a, b) => a - b);
      const complete = numbers.every((n, index) => n === index + 1);
      if (!complete || numbers.length !== spec.ownPlanTaskCount) {
        context.addIssue({
          code: 'custom',
          path: ['plans', plan, 'tasks'],
          message: `the own plan's titles must number tasks 1..ownPlanTaskCount (${spec.ownPlanTaskCount})`,
        });
      }
    }
  });
export type ScoringSpec = z.infer<typeof scoringSpecSchema>;

const SCENARIO_ID = /^[a-z0-9][a-z0-9-]*$/;

/** The scenarios folder that ships with redgreen. */
export function defaultScenariosDir(): string {
  return path.join(packageRoot(), 'scenarios');
}

/** Ids of the scenarios under `scenariosDir` that declare a scoring spec, sorted. */
export function listScoredScenarios(scenariosDir: string = defaultScenariosDir()): string[] {
  let entries: string[];
  try {
    entries = readdirSync(scenariosDir);
  } catch {
    return [];
  }
  return entries
    .filter((name) => SCENARIO_ID.test(name))
    .filter((name) => {
      try {
        return statSync(path.join(scenariosDir, name, 'scoring.json')).isFile();
      } catch {
        return false;
      }
    })
    .sort();
}

/** Validate a parsed scoring spec; the error names the file and the first problem. */
export function parseScoringSpec(value: unknown, source: string): Result<ScoringSpec, InputError> {
  const parsed = scoringSpecSchema.safeParse(value);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
  return err(
    inputError(
      source,
      `invalid scoring spec${where}: ${issue?.message ?? 'does not match the schema'}`,
      'fix the file to match harness/score/scoring-spec.ts',
    ),
  );
}

/** Load `scenarios/<id>/scoring.json`; an unknown id lists the valid ones. */
export function loadScoringSpec(
  scenarioId: string,
  scenariosDir: string = defaultScenariosDir(),
): Result<ScoringSpec, InputError> {
  const known = listScoredScenarios(scenariosDir);
  if (!SCENARIO_ID.test(scenarioId) || !known.includes(scenarioId)) {
    return err(
      inputError(
        '--scenario',
        `unknown scenario '${scenarioId}'`,
        known.length === 0
          ? `no scenario under ${scenariosDir} has a scoring.json`
          : `use one of: ${known.join(', ')}`,
      ),
    );
  }
  const file = path.join(scenariosDir, scenarioId, 'scoring.json');
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return err(
      inputError(file, `cannot read as JSON (${(error as Error).message})`, 'fix the file'),
    );
  }
  const spec = parseScoringSpec(value, file);
  if (spec.ok && spec.value.scenario !== scenarioId) {
    return err(
      inputError(
        file,
        `declares scenario '${spec.value.scenario}' but lives in scenarios/${scenarioId}/`,
        `set "scenario": "${scenarioId}"`,
      ),
    );
  }
  return spec;
}
