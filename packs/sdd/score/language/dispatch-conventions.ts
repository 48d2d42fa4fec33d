/**
 * What a scenario declares about a plan's dispatches, as data: the files of
 * the plan that name one of its tasks (a brief in the plan's own workspace,
 * say), and the dispatches that address no task of it (a whole-branch
 * review). The patterns come from the scenario's plan catalogue; nothing
 * here knows any skill's naming.
 */

/** A dispatch that addresses no task, recognised by its fields (every given pattern must match). */
export interface NoTaskRule {
  readonly subagentType?: RegExp | undefined;
  readonly description?: RegExp | undefined;
  readonly prompt?: RegExp | undefined;
}

export interface DispatchConventions {
  /** Patterns that find a file of the plan naming one of its tasks; group 1 is the task number. */
  readonly taskFiles: readonly RegExp[];
  readonly noTask: readonly NoTaskRule[];
}

export const NO_CONVENTIONS: DispatchConventions = { taskFiles: [], noTask: [] };

/**
 * The one task the plan's task files in `text` name, when they name exactly
 * one task the plan has (`taskCount`, when known); undefined otherwise.
 */
export function taskFromFiles(
  text: string,
  patterns: readonly RegExp[],
  taskCount: number | undefined,
): number | undefined {
  const tasks = new Set<number>();
  for (const pattern of patterns) {
    const global = new RegExp(
      pattern.source,
      pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`,
    );
    for (const found of text.matchAll(global)) {
      const task = Number(found[1]);
      if (Number.isInteger(task) && task >= 1 && (taskCount === undefined || task <= taskCount)) {
        tasks.add(task);
      }
    }
  }
  return tasks.size === 1 ? [...tasks][0] : undefined;
}

/** Whether a dispatch matches one of the rules for dispatches that address no task. */
export function addressesNoTask(
  input: {
    readonly subagentType: string | null;
    readonly description: string | null;
    readonly prompt: string | null;
  },
  rules: readonly NoTaskRule[],
): boolean {
  const holds = (pattern: RegExp | undefined, value: string | null): boolean =>
    pattern === undefined || (value !== null && pattern.test(value));
  return rules.some(
    (rule) =>
      (rule.subagentType !== undefined ||
        rule.description !== undefined ||
        rule.prompt !== undefined) &&
      holds(rule.subagentType, input.subagentType) &&
      holds(rule.description, input.description) &&
      holds(rule.prompt, input.prompt),
  );
}
