/**
 * The prose names a scenario declares for its plans (short names such as
 * "plan B", and task titles), resolved for one reading: which belong to the
 * plan being read and which to other plans. Own versus foreign is decided by
 * the plan the extractor reads for, never by the names themselves, so a
 * scenario whose own plan is called "plan A" is read the right way round.
 */
import { samePlan } from './plan-names.js';

/** How a plan may be named in prose: short names, and task titles by number. */
export interface PlanProseNames {
  readonly aliases?: readonly string[] | undefined;
  readonly tasks?: Readonly<Record<string, string>> | undefined;
}

export interface TaskTitle {
  readonly number: number;
  readonly title: string;
}

export interface PlanVocabulary {
  /** Short names of the own plan ("plan B"). */
  readonly ownPlanAliases: readonly string[];
  /** Short names of the other plans ("plan A"). */
  readonly foreignPlanAliases: readonly string[];
  /** The own plan's task titles, by task number, ascending. */
  readonly ownTaskTitles: readonly TaskTitle[];
  /** Task titles of the other plans; naming one names another plan's work. */
  readonly foreignTaskTitles: readonly string[];
}

function titlesOf(names: PlanProseNames): TaskTitle[] {
  return Object.entries(names.tasks ?? {})
    .map(([number, title]) => ({ number: Number(number), title }))
    .sort((a, b) => a.number - b.number);
}

/**
 * Split a scenario's `plans` catalogue into the own plan's names and everyone
 * else's. A catalogue entry for a plan that is not the own plan is foreign.
 */
export function planVocabulary(
  plans: Readonly<Record<string, PlanProseNames>> | undefined,
  ownPlan: string,
): PlanVocabulary {
  const entries = Object.entries(plans ?? {});
  const own = entries.filter(([plan]) => samePlan(plan, ownPlan)).map(([, names]) => names);
  const foreign = entries.filter(([plan]) => !samePlan(plan, ownPlan)).map(([, names]) => names);
  return {
    ownPlanAliases: own.flatMap((names) => names.aliases ?? []),
    foreignPlanAliases: foreign.flatMap((names) => names.aliases ?? []),
    ownTaskTitles: own.flatMap(titlesOf),
    foreignTaskTitles: foreign.flatMap((names) => titlesOf(names).map((task) => task.title)),
  };
}
