/**
 * The pre-flight read of a plan for conflicts the chain texts ask for before
 * Task 1, as a careful scripted reader can do it: a Global Constraint that
 * fixes a quantity (`exactly 40 ...`, `at most 3 ...`) against a task
 * sentence about the same thing (two or more of the constraint's words, or
 * one of its code-quoted symbols and one word) that gives another number.
 * Anything subtler (units, meanings) is left to the review loop, as the
 * texts say. The plans of every fixture here are checked by tests: only the
 * banners plan, whose Task 2 says 30 where its constraints say 40, conflicts.
 */

export interface PlanConflict {
  /** The Global Constraint, as one line. */
  readonly constraint: string;
  /** The quantity it fixes. */
  readonly value: number;
  readonly task: number;
  readonly taskTitle: string;
  /** The task's sentence that says otherwise. */
  readonly taskSentence: string;
  readonly taskValue: number;
}

const QUANTITY =
  /\b(?:exactly|at\s+most|at\s+least|no\s+more\s+than|no\s+fewer\s+than)\s+(\d+)\b/gi;
const STOP_WORDS = new Set([
  'every',
  'each',
  'with',
  'that',
  'this',
  'than',
  'from',
  'into',
  'their',
  'there',
  'which',
  'when',
  'exactly',
  'most',
  'least',
  'more',
  'fewer',
  'above',
  'below',
  'same',
  'other',
]);

/** The plan's `## Global Constraints` bullets, each joined onto one line. */
export function globalConstraints(planText: string): readonly string[] {
  const lines = planText.split('\n');
  const start = lines.findIndex((line) => /^#{2,3}\s*Global Constraints\b/i.test(line));
  if (start < 0) return [];
  const bullets: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,3}\s/.test(line)) break;
    if (/^\s*[-*]\s+/.test(line)) bullets.push(line.replace(/^\s*[-*]\s+/, '').trim());
    else if (line.trim() !== '' && bullets.length > 0)
      bullets[bullets.length - 1] = `${bullets.at(-1)} ${line.trim()}`;
  }
  return bullets;
}

function words(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(/[a-z]{4,}/g) ?? [])
      .map((word) => word.replace(/s$/, ''))
      .filter((word) => !STOP_WORDS.has(word)),
  );
}

function symbols(text: string): Set<string> {
  return new Set(
    [...text.matchAll(/`([^`\s]{1,3})`/g)].map((found) => found[1] ?? '').filter((s) => s !== ''),
  );
}

/** The sentences of a task's text, code lines included (each on its own). */
function sentences(spec: string): string[] {
  return spec
    .split(/\n{2,}|(?<=[.;:])\s+(?=[A-Z`])|\n(?=\s*(?:const|let|export|[-*]\s))/)
    .map((sentence) => sentence.replace(/\s+/g, ' ').trim())
    .filter((sentence) => sentence !== '');
}

/** Every conflict between a quantity the Global Constraints fix and a task's own number. */
export function planConflicts(
  planText: string,
  tasks: readonly { readonly number: number; readonly title: string; readonly spec: string }[],
): readonly PlanConflict[] {
  const conflicts: PlanConflict[] = [];
  for (const constraint of globalConstraints(planText)) {
    const quantities = [...constraint.matchAll(QUANTITY)].map((found) => Number(found[1]));
    const value = quantities[0];
    if (value === undefined) continue;
    const constraintWords = words(constraint);
    const constraintSymbols = symbols(constraint);
    for (const task of tasks) {
      for (const sentence of sentences(task.spec)) {
        const shared = [...words(sentence)].filter((word) => constraintWords.has(word)).length;
        const sharedSymbol = [...constraintSymbols].some((symbol) => sentence.includes(symbol));
        if (shared < 2 && !(sharedSymbol && shared >= 1)) continue;
        const other = [...sentence.matchAll(/(?<![\w.])(\d+)(?![\w.])/g)]
          .map((found) => Number(found[1]))
          .find((number) => number !== value && number > 1);
        if (other === undefined) continue;
        if (!conflicts.some((known) => known.task === task.number && known.value === value)) {
          conflicts.push({
            constraint,
            value,
            task: task.number,
            taskTitle: task.title,
            taskSentence: sentence,
            taskValue: other,
          });
        }
      }
    }
  }
  return conflicts;
}
