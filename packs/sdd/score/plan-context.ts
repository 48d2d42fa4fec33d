/**
 * The plan catalogue a scenario declares (`plans`: each plan's short names
 * and task titles), and how one reading turns it into the context the
 * language readers need: the plan being read, the other plans, and the names
 * of both.
 */
import { z } from 'zod';
import { nonBlank, regexSource } from '../../../harness/score/param-types.js';
import { type Attribution, attributionFor } from './language/attribution.js';
import { samePlan } from './language/plan-names.js';
import { planVocabulary } from './language/plan-vocabulary.js';
import type { TaskReadingOptions } from './language/task-answer.js';
import { countNounPatterns } from './language/task-numbers.js';

/** How many capture groups a regular expression source has (-1 when it does not compile). */
function captureGroups(source: string): number {
  try {
    return (new RegExp(`${source}|`).exec('')?.length ?? 1) - 1;
  } catch {
    return -1;
  }
}

export const planEntrySchema = z
  .object({
    /** Short names the plan goes by in prose. */
    aliases: z.array(nonBlank).optional(),
    /** Task titles by task number ("1": "…"). */
    tasks: z.record(z.string().regex(/^[1-9]\d*$/, 'must be a task number'), nonBlank).optional(),
    /** How many tasks the plan has, when its titles are not all listed. */
    taskCount: z.number().int().positive().optional(),
    /**
     * Phrases (regular expressions over lower-case text) that mean "no task
     * of this plan is next", for answers and dispatches alike.
     */
    none: z.array(regexSource).optional(),
    /**
     * Files of this plan that name one of its tasks, as regular expressions
     * whose first group is the task number (a brief in the plan's own
     * workspace): a dispatch naming one addresses that task.
     */
    taskFiles: z
      .array(
        regexSource.refine(
          (source) => captureGroups(source) === 1,
          'needs exactly one capture group, the task number',
        ),
      )
      .optional(),
    /**
     * Dispatches that address no task of this plan (a whole-branch review):
     * each rule's patterns (case-insensitive) over the dispatch's
     * subagent_type, description and prompt must all match.
     */
    noTaskDispatches: z
      .array(
        z
          .object({
            subagentType: regexSource.optional(),
            description: regexSource.optional(),
            prompt: regexSource.optional(),
          })
          .strict()
          .refine(
            (rule) =>
              rule.subagentType !== undefined ||
              rule.description !== undefined ||
              rule.prompt !== undefined,
            'give subagentType, description or prompt',
          ),
      )
      .optional(),
  })
  .strict();
export type PlanEntry = z.infer<typeof planEntrySchema>;

/** The catalogue entry of `plan`, if the catalogue has one. */
export function planEntryOf(catalogue: PlanCatalogue, plan: string): PlanEntry | undefined {
  return Object.entries(catalogue).find(([path]) => samePlan(path, plan))?.[1];
}

/** Plans by path. */
export const planCatalogueSchema = z.record(z.string().min(1), planEntrySchema);
export type PlanCatalogue = z.infer<typeof planCatalogueSchema>;

/**
 * How many tasks a plan of the catalogue has: its declared count, else its
 * highest titled task (titles may skip tasks); 0 when it says neither.
 */
export function taskCountOf(catalogue: PlanCatalogue, plan: string): number | undefined {
  const entry = Object.entries(catalogue).find(([path]) => samePlan(path, plan))?.[1];
  if (entry === undefined) return undefined;
  return entry.taskCount ?? Math.max(0, ...Object.keys(entry.tasks ?? {}).map(Number));
}

export interface PlanReadingContext {
  readonly attribution: Attribution;
  readonly options: TaskReadingOptions;
}

/**
 * Contexts already built, per catalogue (one per scenario, the same object
 * for every rep): building one compiles a few dozen patterns, and a rescore
 * reads thousands of reps against the same few.
 */
const built = new WeakMap<PlanCatalogue, Map<string, PlanReadingContext>>();

/** The context for reading tasks of `plan`, with `otherPlans` and the catalogue's other plans as foreign. */
export function planReadingContext(
  catalogue: PlanCatalogue,
  plan: string,
  otherPlans: readonly string[],
  extra: { readonly countNouns?: readonly string[]; readonly none?: readonly string[] } = {},
): PlanReadingContext {
  const key = JSON.stringify([plan, otherPlans, extra.countNouns ?? [], extra.none ?? []]);
  let forCatalogue = built.get(catalogue);
  if (forCatalogue === undefined) {
    forCatalogue = new Map();
    built.set(catalogue, forCatalogue);
  }
  const known = forCatalogue.get(key);
  if (known !== undefined) return known;
  const context = buildPlanReadingContext(catalogue, plan, otherPlans, extra);
  forCatalogue.set(key, context);
  return context;
}

function buildPlanReadingContext(
  catalogue: PlanCatalogue,
  plan: string,
  otherPlans: readonly string[],
  extra: { readonly countNouns?: readonly string[]; readonly none?: readonly string[] } = {},
): PlanReadingContext {
  const foreignPlans = [...new Set([...otherPlans, ...Object.keys(catalogue)])].filter(
    (other) => !samePlan(other, plan),
  );
  const vocabulary = planVocabulary(catalogue, plan);
  const taskCount = taskCountOf(catalogue, plan);
  const entry = Object.entries(catalogue).find(([path]) => samePlan(path, plan))?.[1];
  const none = [...(entry?.none ?? []), ...(extra.none ?? [])];
  return {
    attribution: attributionFor({ ownPlan: plan, foreignPlans, ...vocabulary }),
    options: {
      taskCount: taskCount === 0 ? undefined : taskCount,
      titles: vocabulary.ownTaskTitles,
      countNouns: countNounPatterns(extra.countNouns ?? []),
      nonePatterns: none.map((source) => new RegExp(source)),
    },
  };
}
