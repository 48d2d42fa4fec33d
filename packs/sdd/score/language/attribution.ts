/**
 * Whose plan a piece of reply text is talking about. A reply often quotes
 * another plan's task numbers while explaining why a record is not its own
 * ("None — the log's Tasks 1–5 are plan A's (reporting-api)"); those
 * numbers are not the own plan's claims. Text is foreign when it names
 * another plan (its path, basename or slug, a short name the scenario spec
 * gives it, or words like "other plan", "different plan", "not mine") and
 * does not also positively name the own plan ("my plan", its slug, its short
 * name). Text naming one of another plan's task titles, and none of the own
 * plan's, is foreign too.
 *
 * No short name is built in: which plan "plan A" is comes from the context.
 */

import {
  distinctForeignNames,
  planNamePattern,
  planNames,
  planSlug,
  samePlan,
} from './plan-names.js';
import type { TaskTitle } from './plan-vocabulary.js';

/** The plans a reply is scored against. */
export interface PlanContext {
  /** The own plan's path, as the prompt names it. */
  readonly ownPlan: string;
  /** Other plans in the repository whose work a reply may discuss. */
  readonly foreignPlans: readonly string[];
  /** Short names of the own plan ("plan B"), as the scenario declares them. */
  readonly ownPlanAliases?: readonly string[];
  /** Short names of the other plans ("plan A"). */
  readonly foreignPlanAliases?: readonly string[];
  /** The own plan's task titles by number. */
  readonly ownTaskTitles?: readonly TaskTitle[];
  /** The other plans' task titles. */
  readonly foreignTaskTitles?: readonly string[];
}

const FOREIGN_WORDS: readonly RegExp[] = [
  /\b(?:other|another|different|previous|prior|earlier|older|old|unrelated|separate|original|completed|finished)\s+plan\b/,
  /(?:\bnot|n't|\bnone\s+of)\s+(?:\w+\s+){0,2}(?:mine|ours|my\s+plan|our\s+plan|this\s+plan|my\s+own)\b/,
  /\bforeign\b/,
  /\bsomeone\s+else'?s?\b/,
  /\bbelong(?:s|ing)?\s+to\s+(?:a\s+|the\s+)?(?:other|another|different|previous|prior|earlier|older)\b/,
];

const OWN_WORDS: readonly RegExp[] = [
  /\b(?:my|our|this|own|current)\s+plan\b/g,
  /\bmine\b/g,
  /\bmy\s+own\b/g,
];

const NEGATED_BEFORE = /(?:\bnot|n't|\bnone\s+of|\bnor|\bneither)\s+(?:\w+\s+){0,2}$/;

export interface Attribution {
  /**
   * Text naming another plan (or only another plan's task titles) and not
   * positively naming the own plan.
   */
  isForeign(text: string): boolean;
  /** Text that names another plan (regardless of whether it also names the own one). */
  namesForeignPlan(text: string): boolean;
  /** Text that positively names the own plan (not "not my plan"). */
  namesOwnPlan(text: string): boolean;
  /** The own plan's short names, from the context. */
  readonly ownPlanAliases: readonly string[];
  /** The other plans' short names, from the context. */
  readonly foreignPlanAliases: readonly string[];
  /** The other plans' task titles, from the context. */
  readonly foreignTaskTitles: readonly string[];
}

/**
 * `backend plan` for `2026-07-01-data-backend.md` next to `…-data-export.md`:
 * each word of a foreign slug that the own slug lacks, followed by "plan".
 */
function distinctiveWordPlanNames(context: PlanContext): string[] {
  const words = (plan: string): string[] =>
    planSlug(plan)
      .toLowerCase()
      .replace(/^\d{4}-\d{2}-\d{2}-/, '')
      .split(/[-_\s]+/)
      .filter((word) => word.length >= 4 && !/^\d+$/.test(word));
  const ownWords = new Set(words(context.ownPlan));
  return context.foreignPlans
    .filter((plan) => !samePlan(plan, context.ownPlan))
    .flatMap((plan) => words(plan))
    .filter((word) => !ownWords.has(word))
    .map((word) => `${word} plan`);
}

function includesName(text: string, names: readonly string[]): boolean {
  return names.some((name) => text.includes(name));
}

/** Build the attribution rules for one reply's plans. Input text must be lower-case. */
export function attributionFor(context: PlanContext): Attribution {
  const ownNames = planNames(context.ownPlan);
  const foreignNames = [
    ...distinctForeignNames(context.ownPlan, context.foreignPlans),
    ...distinctiveWordPlanNames(context),
  ];
  const ownPlanAliases = context.ownPlanAliases ?? [];
  const foreignPlanAliases = context.foreignPlanAliases ?? [];
  const ownWords = [...OWN_WORDS, ...ownPlanAliases.map((alias) => planNamePattern(alias, 'g'))];
  const foreignWords = [
    ...FOREIGN_WORDS,
    ...foreignPlanAliases.map((alias) => planNamePattern(alias)),
  ];
  const ownTitles = (context.ownTaskTitles ?? []).map((task) => planNamePattern(task.title));
  const foreignTitles = (context.foreignTaskTitles ?? []).map((title) => planNamePattern(title));

  const namesForeignPlan = (text: string): boolean =>
    includesName(text, foreignNames) || foreignWords.some((pattern) => pattern.test(text));

  const namesOwnPlan = (text: string): boolean => {
    for (const name of ownNames) {
      let at = text.indexOf(name);
      while (at >= 0) {
        if (!NEGATED_BEFORE.test(text.slice(Math.max(0, at - 24), at))) return true;
        at = text.indexOf(name, at + 1);
      }
    }
    for (const pattern of ownWords) {
      for (const found of text.matchAll(pattern)) {
        const before = text.slice(Math.max(0, found.index - 24), found.index);
        if (!NEGATED_BEFORE.test(before)) return true;
      }
    }
    return false;
  };

  /** Names only another plan's tasks: one of its titles, and none of the own plan's. */
  const namesOnlyForeignTasks = (text: string): boolean =>
    foreignTitles.some((pattern) => pattern.test(text)) &&
    !ownTitles.some((pattern) => pattern.test(text));

  return {
    isForeign: (text) =>
      (namesForeignPlan(text) || namesOnlyForeignTasks(text)) && !namesOwnPlan(text),
    namesForeignPlan,
    namesOwnPlan,
    ownPlanAliases,
    foreignPlanAliases,
    foreignTaskTitles: context.foreignTaskTitles ?? [],
  };
}
