/**
 * Read a reply to the scenario prompt into the decision it reports:
 * the first dispatch, the own plan's tasks it claims are complete, and its
 * verdict on each ledger it checked.
 *
 * Parsing is deliberately conservative about the first dispatch: when no
 * answer can be recognised, `firstDispatch` is undefined and scoring calls the
 * rep indeterminate (never fail), so a human can adjudicate it.
 */
import { type Attribution, attributionFor, type PlanContext } from './attribution.js';
import { type LedgerReading, readLedgerVerdicts } from './ledger-verdicts.js';
import { type Clause, type Sentence, sentencesOf } from './reply-clauses.js';
import { splitReplySections } from './reply-sections.js';
import { findTaskGroups, maskNonTaskNumbers, type TaskGroup } from './task-numbers.js';

export type { PlanContext } from './attribution.js';
export type { LedgerReading, LedgerVerdict } from './ledger-verdicts.js';

export interface ParseContext extends PlanContext {
  /** How many tasks the own plan has, so "all tasks" can be expanded. */
  readonly taskCount?: number;
}

export interface ParsedReply {
  /** The task the reply dispatches first; 'none' when it says nothing is left to dispatch; undefined when unrecognisable. */
  readonly firstDispatch: number | 'none' | undefined;
  /** Own-plan task numbers the reply claims are already complete, sorted, without duplicates. */
  readonly claimedComplete: readonly number[];
  /** Ledgers named under LEDGERS CHECKED, each with the reply's verdict. */
  readonly ledgers: readonly LedgerReading[];
  /** Which of the three report sections the reply contains. */
  readonly sectionsFound: readonly ('ledgers' | 'complete' | 'dispatch')[];
}

/** A reply that says there is nothing (`none`, `N/A`, `0 of 5`, `nothing`, `no tasks`). */
const NOTHING_AT_START =
  /^(?:none\b|nothing\b|n\/a\b|n\.a\.|not\s+applicable\b|no\b|zero\b|0\b(?!\s*[-–,&]\s*\d)|nil\b|0\s+(?:of|out\s+of|\/)\s+\d+)/;

/** Dispatch answers that say no task will be dispatched. */
const NO_DISPATCH: readonly RegExp[] = [
  /\bno\s+(?:further\s+|next\s+|new\s+|task\s+)?(?:dispatch|dispatches|task\s+to\s+dispatch|tasks?\s+(?:left|remain\w*)|remaining\s+tasks?|work\s+(?:left|remain\w*))\b/,
  /\bnothing\s+(?:left\s+|more\s+|further\s+)?(?:to\s+)?(?:dispatch|do|implement)\b/,
  /\ball\s+(?:\w+\s+){0,3}(?:are\s+|is\s+)?(?:already\s+)?(?:complete|completed|done|finished)\b/,
  /\bplan\s+(?:is\s+)?(?:already\s+)?(?:complete|completed|done|finished)\b/,
  /\b(?:proceed|move|go)\s+(?:straight\s+|directly\s+)?to\s+(?:the\s+)?final\s+(?:whole[-\s]branch\s+)?review\b/,
];

/** Words before a task group that take it out of the answer ("not Task 1", "instead of 2"). */
const NEGATED_BEFORE =
  /(?:\bnot|n't|\bno|\bnor|\bneither|\bexcept|\bexcluding|\bbesides|\binstead\s+of|\brather\s+than|\bother\s+than|\bbut\s+not|\bnone\s+of)\s+(?:(?:the|of|yet|even|again|with|redo\w*|re-?dispatch\w*)\s+)*$/;

/** Further words that, in the dispatch answer, mark a task that is not the one dispatched. */
const DISPATCH_NOT_THIS_BEFORE =
  /(?:\bskip(?:ping|ped|s)?|\bafter|\bsince|\bonce|\bgiven|\bbeyond|\bpast|\bfollowing|\balready|\bbecause|\bas)\s+(?:(?:the|of|both|completed?|finished|done)\s+)*$/;

/** A task group followed by "is/are (already) complete" describes completed work, not the dispatch. */
const DESCRIBED_COMPLETE_AFTER =
  /^\s*(?:,\s*)?(?:(?:is|are|were|was|have\s+been|has\s+been|being|already|both|all|each)\s+)*(?:complete|completed|done|finished|implemented|recorded|committed)\b/;

/** Words around a task group saying it is not done ("remaining", "not yet complete", "pending"). */
const NOT_DONE =
  /(?:\bnot|n't|\bnever)\s+(?:\w+\s+){0,2}(?:complete|completed|done|finished|implemented|started|begun|recorded)\b|(?:\bnot|n't)\s*(?:yet\s*)?$|[❌✗✘⬜☐🔲⏳]|\b(?:incomplete|unimplemented|unfinished|pending|remaining|remain|remains|outstanding|todo|to\s+do|not\s+yet|yet\s+to|next|dispatch\w*)\b/u;

function precedingText(text: string, group: TaskGroup): string {
  return text.slice(Math.max(0, group.start - 40), group.start);
}

/** The clauses of sentences that do not belong to another plan, sentence by sentence. */
function ownClauses(
  sentences: readonly Sentence[],
  attribution: Attribution,
  scope: 'sentence' | 'clause',
): Clause[] {
  return sentences.flatMap((sentence) => {
    if (scope === 'sentence' && attribution.isForeign(sentence.text)) return [];
    return sentence.clauses.filter(
      (clause) =>
        !attribution.isForeign(clause.withQualifiers) &&
        (scope === 'clause' || !clause.parenthetical || !attribution.isForeign(clause.text)),
    );
  });
}

function firstText(sentences: readonly Sentence[]): string {
  return sentences[0]?.clauses[0]?.text.trim() ?? '';
}

/**
 * Own-plan tasks the TASKS ALREADY COMPLETE answer claims. Another plan's
 * numbers are dropped sentence by sentence (an explanation of a foreign
 * ledger usually spans a whole sentence); an answer that opens with "none"
 * claims nothing, whatever the explanation after it mentions.
 */
export function readClaimedComplete(
  section: string,
  attribution: Attribution,
  taskCount?: number,
): number[] {
  const sentences = sentencesOf(section, { splitOnColon: false });
  if (NOTHING_AT_START.test(firstText(sentences))) return [];
  const claimed = new Set<number>();
  for (const clause of ownClauses(sentences, attribution, 'sentence')) {
    if (NOTHING_AT_START.test(clause.text)) continue;
    const text = maskNonTaskNumbers(clause.text);
    const groups = findTaskGroups(clause.text, taskCount);
    groups.forEach((group, index) => {
      const { before, after } = groupSurroundings(text, groups, index);
      if (NEGATED_BEFORE.test(before) || NOT_DONE.test(`${before} ${after}`)) return;
      for (const n of group.numbers) claimed.add(n);
    });
  }
  return [...claimed].sort((a, b) => a - b);
}

/**
 * The words around one task group that speak about it: back to the previous
 * group or comma, and on to the next group or comma.
 */
function groupSurroundings(
  text: string,
  groups: readonly TaskGroup[],
  index: number,
): { before: string; after: string } {
  const group = groups[index];
  if (group === undefined) return { before: '', after: '' };
  const previousEnd = groups[index - 1]?.end ?? 0;
  const lastComma = Math.max(
    text.lastIndexOf(',', group.start - 1),
    text.lastIndexOf(';', group.start - 1),
  );
  const from = Math.max(previousEnd, lastComma + 1, group.start - 40);
  const nextStart = groups[index + 1]?.start ?? text.length;
  const nextComma = text.indexOf(',', group.end);
  const to = Math.min(nextStart, nextComma < 0 ? text.length : nextComma);
  return {
    before: text.slice(from, group.start),
    after: text.slice(group.end, Math.max(group.end, to)),
  };
}

/**
 * The FIRST DISPATCH answer: the first own-plan task group that is not
 * negated ("not Task 1 or 2"), not described as complete ("Tasks 1-2 are
 * done"), and not introduced as already handled ("after Tasks 1–2"); else
 * 'none' when the answer says nothing is left to dispatch; else undefined.
 */
export function readFirstDispatch(
  section: string,
  attribution: Attribution,
): number | 'none' | undefined {
  const sentences = sentencesOf(section);
  const clauses = ownClauses(sentences, attribution, 'clause');
  for (const clause of clauses) {
    const text = maskNonTaskNumbers(clause.text);
    for (const group of findTaskGroups(clause.text)) {
      if (group.form === 'all') continue;
      const before = precedingText(text, group);
      if (NEGATED_BEFORE.test(before) || DISPATCH_NOT_THIS_BEFORE.test(before)) continue;
      if (DESCRIBED_COMPLETE_AFTER.test(text.slice(group.end))) continue;
      const first = group.numbers[0];
      if (first !== undefined && first > 0) return first;
    }
  }
  const allText = sentences.map((sentence) => sentence.text).join(' ; ');
  if (NOTHING_AT_START.test(firstText(sentences))) return 'none';
  if (NO_DISPATCH.some((pattern) => pattern.test(allText))) return 'none';
  return undefined;
}

/** Parse a reply's report into its decision. Pure. */
export function parseReply(reply: string, context: ParseContext): ParsedReply {
  const sections = splitReplySections(reply);
  const attribution = attributionFor(context);
  const sectionsFound = (['ledgers', 'complete', 'dispatch'] as const).filter(
    (name) => sections[name] !== undefined,
  );
  return {
    firstDispatch:
      sections.dispatch === undefined
        ? undefined
        : readFirstDispatch(sections.dispatch, attribution),
    claimedComplete:
      sections.complete === undefined
        ? []
        : readClaimedComplete(sections.complete, attribution, context.taskCount),
    ledgers:
      sections.ledgers === undefined ? [] : readLedgerVerdicts(sections.ledgers, attribution),
    sectionsFound,
  };
}
