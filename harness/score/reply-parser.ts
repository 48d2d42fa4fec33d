/**
 * Read a reply to the scenario prompt into the decision it reports:
 * the first dispatch, the own plan's tasks it claims are complete, and its
 * verdict on each ledger it checked.
 *
 * Parsing is deliberately conservative: when no first dispatch can be
 * recognised (or the answer contradicts itself, "None. Task 1 is next."),
 * `firstDispatch` is undefined; when the TASKS ALREADY COMPLETE answer names
 * no task and does not say none, `claimedCompleteAnswer` is 'unreadable'.
 * Scoring calls either rep indeterminate (never fail), so a human can
 * adjudicate it.
 */
import { type Attribution, attributionFor, type PlanContext } from './attribution.js';
import { type LedgerReading, readLedgerVerdicts } from './ledger-verdicts.js';
import { type Clause, type Sentence, sentencesOf } from './reply-clauses.js';
import { splitReplySections } from './reply-sections.js';
import {
  findTaskGroups,
  maskNonTaskNumbers,
  type TaskGroup,
  type TaskGroupOptions,
} from './task-numbers.js';

export type { PlanContext } from './attribution.js';
export type { LedgerReading, LedgerVerdict } from './ledger-verdicts.js';

export interface ParseContext extends PlanContext {
  /** How many tasks the own plan has, so "all tasks" and "everything" can be expanded. */
  readonly taskCount?: number;
}

/**
 * How the TASKS ALREADY COMPLETE answer was read: 'read' (it names tasks, of
 * this plan or another, or says none), 'unreadable' (empty, or naming nothing
 * the parser recognises), or 'absent' (the reply has no such section).
 */
export type ClaimedCompleteAnswer = 'read' | 'unreadable' | 'absent';

export interface ParsedReply {
  /** The task the reply dispatches first; 'none' when it says nothing is left to dispatch; undefined when unrecognisable. */
  readonly firstDispatch: number | 'none' | undefined;
  /** Own-plan task numbers the reply claims are already complete, sorted, without duplicates. */
  readonly claimedComplete: readonly number[];
  /** Whether `claimedComplete` comes from an answer the parser could read; 'unreadable' makes the rep indeterminate. */
  readonly claimedCompleteAnswer: ClaimedCompleteAnswer;
  /** Ledgers named under LEDGERS CHECKED, each with the reply's verdict. */
  readonly ledgers: readonly LedgerReading[];
  /** Which of the three report sections the reply contains. */
  readonly sectionsFound: readonly ('ledgers' | 'complete' | 'dispatch')[];
}

/** A reply that says there is nothing (`none`, `N/A`, `0 of 5`, `nothing`, `no tasks`). */
const NOTHING_AT_START =
  /^(?:none\b|nothing\b|n\/a\b|n\.a\.|not\s+applicable\b|no\b|zero\b|0\b(?!\s*[-–,&]\s*\d)|nil\b|0\s+(?:of|out\s+of|\/)\s+\d+)/;

/** An opening that is only "none": whatever follows can explain it, not overrule it. */
const BARE_NOTHING = /^(?:none|nothing|n\/a|n\.a\.?|nil|not\s+applicable|no\s+dispatch)[.!]?$/;

/**
 * A clause of a TASKS ALREADY COMPLETE answer that says no task of the plan is
 * done: "none" at its start or end ("Of my plan: none"), or "not started",
 * "fresh start", "no tasks", "0 of 5" anywhere.
 */
const SAYS_NOTHING =
  /^(?:none|nothing|n\/a|nil|zero|0)\b|(?:^|[\s:—–-])(?:none|nothing|n\/a|nil|zero)$|\bno\s+tasks?\b|\bnot\s+(?:yet\s+)?started\b|\bfresh\s+start\b|\bfrom\s+scratch\b|\b0\s+(?:of|out\s+of|\/)\s+\d+/;

/** Dispatch answers that say no task will be dispatched. */
const NO_DISPATCH: readonly RegExp[] = [
  /\bno\s+(?:further\s+|next\s+|new\s+|task\s+)?(?:dispatch|dispatches|task\s+to\s+dispatch|tasks?\s+(?:left|remain\w*)|remaining\s+tasks?|work\s+(?:left|remain\w*))\b/,
  /\bnothing\s+(?:left\s+|more\s+|further\s+)?(?:to\s+)?(?:dispatch|do|implement)\b/,
  /\ball\s+(?:\w+\s+){0,3}(?:are\s+|is\s+)?(?:already\s+)?(?:complete|completed|done|finished)\b/,
  /\beverything\s+(?:is\s+|was\s+|has\s+been\s+)?(?:already\s+)?(?:complete|completed|done|finished)\b/,
  /\bplan\s+(?:is\s+)?(?:already\s+)?(?:complete|completed|done|finished)\b/,
  /\b(?:proceed|move|go)\s+(?:straight\s+|directly\s+)?to\s+(?:the\s+)?final\s+(?:whole[-\s]branch\s+)?review\b/,
];

/** Words before a task group that carve it out of "everything" ("everything except Task 5"). */
const EXCEPT_BEFORE =
  /(?:\bexcept|\bexcluding|\bbut\s+not|\bother\s+than|\bapart\s+from|\bsave\s+for|\bbar)\s+(?:for\s+)?(?:the\s+)?$/;

/** Words before a task group that take it out of the answer ("not Task 1", "instead of 2"). */
const NEGATED_BEFORE =
  /(?:\bnot|n't|\bno|\bnor|\bneither|\bexcept|\bexcluding|\bbesides|\binstead\s+of|\brather\s+than|\bother\s+than|\bbut\s+not|\bnone\s+of)\s+(?:(?:the|of|yet|even|again|with|redo\w*|re-?dispatch\w*)\s+)*$/;

/** Further words that, in the dispatch answer, mark a task that is not the one dispatched. */
const DISPATCH_NOT_THIS_BEFORE =
  /(?:\bskip(?:ping|ped|s)?|\bafter|\bsince|\bonce|\bgiven|\bbeyond|\bpast|\bfollowing|\balready|\bbecause|\bas)\s+(?:(?:the|of|both|completed?|finished|done)\s+)*$/;

/**
 * A task group followed by "is/are (already) complete" describes completed
 * work, not the dispatch, also when the group runs on ("Task 1 onwards is
 * done", "Task 1 and everything after it are complete").
 */
const DESCRIBED_COMPLETE_AFTER =
  /^\s*(?:,\s*)?(?:(?:onwards?|on|up|and\s+(?:up|on|onwards?|later|beyond|everything\s+after(?:\s+(?:it|that))?))\s+)?(?:(?:is|are|were|was|have\s+been|has\s+been|being|already|both|all|each)\s+)*(?:complete|completed|done|finished|implemented|recorded|committed)\b/;

/** Words around a task group saying it is not done ("remaining", "not yet complete", "pending"). */
const NOT_DONE =
  /(?:\bnot|n't|\bnever)\s+(?:\w+\s+){0,2}(?:complete|completed|done|finished|implemented|started|begun|recorded)\b|(?:\bnot|n't)\s*(?:yet\s*)?$|[❌✗✘⬜☐🔲⏳]|\b(?:incomplete|unimplemented|unfinished|pending|remaining|remain|remains|outstanding|todo|to\s+do|not\s+yet|yet\s+to|next|dispatch\w*)\b/u;

/** A clause that is only a status saying the clause before it is not done ("— pending", "(not started)"). */
const NOT_DONE_STATUS =
  /^(?:not\s+(?:yet\s+)?(?:done|complete|completed|started|finished|implemented)|pending|todo|to\s+do|incomplete|unfinished|outstanding|remaining|not\s+yet|in\s+progress)\b/;

/** A clause that carries on the sentence of the one before a parenthetical ("Task 3 (JSON serializer) is next"). */
const PREDICATE_START = /^(?:is|are|was|were|has|have|had)\b/;

/**
 * What the sentence goes on to say about the end of clause `index`: a status
 * clause right after it ("— pending"), or the predicate that resumes the
 * sentence after a parenthetical ("Task 3 (JSON serializer) is next", said of
 * both "Task 3" and "JSON serializer"); else ''.
 */
function continuationOf(clauses: readonly Clause[], index: number): string {
  let next = index + 1;
  while (clauses[next]?.parenthetical === true) next++;
  const clause = clauses[next];
  if (clause === undefined || clause.parenthetical) return '';
  if (NOT_DONE_STATUS.test(clause.text)) return clause.text;
  const beforeParenthesis = next > index + 1 || clauses[index]?.parenthetical === true;
  return beforeParenthesis && PREDICATE_START.test(clause.text) ? clause.text : '';
}

function precedingText(text: string, group: TaskGroup): string {
  return text.slice(Math.max(0, group.start - 40), group.start);
}

/** The clauses of each sentence that do not belong to another plan, sentence by sentence. */
function ownSentenceClauses(
  sentences: readonly Sentence[],
  attribution: Attribution,
  scope: 'sentence' | 'clause',
): Clause[][] {
  return sentences.map((sentence) => {
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

export interface ClaimedCompleteReading {
  readonly claimed: number[];
  readonly answer: Exclude<ClaimedCompleteAnswer, 'absent'>;
}

/**
 * Own-plan tasks the TASKS ALREADY COMPLETE answer claims. Another plan's
 * numbers and titles are dropped sentence by sentence (an explanation of a
 * foreign ledger usually spans a whole sentence); an answer that opens with
 * "none" claims nothing, whatever the explanation after it mentions. A vague
 * "everything" / "all of them" counts only when no task is named specifically,
 * less the tasks it excepts ("everything except Task 5").
 */
export function readClaimedComplete(
  section: string,
  attribution: Attribution,
  options: TaskGroupOptions = {},
): ClaimedCompleteReading {
  const sentences = sentencesOf(section, { splitOnColon: false });
  if (sentences.length === 0) return { claimed: [], answer: 'unreadable' };
  if (NOTHING_AT_START.test(firstText(sentences))) return { claimed: [], answer: 'read' };

  const own = ownSentenceClauses(sentences, attribution, 'sentence');
  const clauseCount = sentences.reduce((count, sentence) => count + sentence.clauses.length, 0);
  // Text set aside as another plan's still answers the question: none of it is mine.
  let read = own.flat().length < clauseCount;
  const specific = new Set<number>();
  const vague = new Set<number>();
  const excepted = new Set<number>();

  for (const clauses of own) {
    clauses.forEach((clause, clauseIndex) => {
      if (SAYS_NOTHING.test(clause.text)) read = true;
      if (NOTHING_AT_START.test(clause.text)) return;
      const text = maskNonTaskNumbers(clause.text);
      const groups = findTaskGroups(clause.text, options);
      const continuation = continuationOf(clauses, clauseIndex);
      groups.forEach((group, index) => {
        read = true;
        const { before, after } = groupSurroundings(text, groups, index);
        if (EXCEPT_BEFORE.test(before)) {
          for (const n of group.numbers) excepted.add(n);
          return;
        }
        const onward = index === groups.length - 1 ? ` ${continuation}` : '';
        if (NEGATED_BEFORE.test(before) || NOT_DONE.test(`${before} ${after}${onward}`)) return;
        const target = group.form === 'everything' ? vague : specific;
        for (const n of group.numbers) target.add(n);
      });
    });
  }

  const claimed = specific.size > 0 ? specific : vague;
  return {
    claimed: [...claimed].filter((n) => !excepted.has(n)).sort((a, b) => a - b),
    answer: read ? 'read' : 'unreadable',
  };
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

/** The first task group, sentence by sentence, that is put forward as the dispatch. */
function firstDispatchedTask(
  sentences: readonly (readonly Clause[])[],
  options: TaskGroupOptions,
): number | undefined {
  for (const clauses of sentences) {
    for (const [clauseIndex, clause] of clauses.entries()) {
      const text = maskNonTaskNumbers(clause.text);
      const groups = findTaskGroups(clause.text, options);
      for (const [index, group] of groups.entries()) {
        if (group.form === 'all' || group.form === 'everything') continue;
        const before = precedingText(text, group);
        if (NEGATED_BEFORE.test(before) || DISPATCH_NOT_THIS_BEFORE.test(before)) continue;
        const rest = text.slice(group.end);
        const onward =
          index === groups.length - 1 && rest.trim() === ''
            ? ` ${continuationOf(clauses, clauseIndex)}`
            : rest;
        if (DESCRIBED_COMPLETE_AFTER.test(onward)) continue;
        const first = group.numbers[0];
        if (first !== undefined && first > 0) return first;
      }
    }
  }
  return undefined;
}

/**
 * The FIRST DISPATCH answer: the first own-plan task group that is not
 * negated ("not Task 1 or 2"), not described as complete ("Tasks 1-2 are
 * done", "Task 1 onwards is done"), and not introduced as already handled
 * ("after Tasks 1–2"); else 'none' when the answer says nothing is left to
 * dispatch; else undefined. An answer that opens with a bare "None" and
 * then puts a task forward contradicts itself: undefined.
 */
export function readFirstDispatch(
  section: string,
  attribution: Attribution,
  options: TaskGroupOptions = {},
): number | 'none' | undefined {
  const sentences = sentencesOf(section);
  const opening = firstText(sentences);
  const dispatched = firstDispatchedTask(
    ownSentenceClauses(sentences, attribution, 'clause'),
    options,
  );
  if (dispatched !== undefined) return BARE_NOTHING.test(opening) ? undefined : dispatched;
  const allText = sentences.map((sentence) => sentence.text).join(' ; ');
  if (NOTHING_AT_START.test(opening)) return 'none';
  if (NO_DISPATCH.some((pattern) => pattern.test(allText))) return 'none';
  return undefined;
}

/** Parse a reply's report into its decision. Pure. */
export function parseReply(reply: string, context: ParseContext): ParsedReply {
  const sections = splitReplySections(reply);
  const attribution = attributionFor(context);
  const options: TaskGroupOptions = {
    taskCount: context.taskCount,
    titles: context.ownTaskTitles,
  };
  const sectionsFound = (['ledgers', 'complete', 'dispatch'] as const).filter(
    (name) => sections[name] !== undefined,
  );
  const complete =
    sections.complete === undefined
      ? { claimed: [], answer: 'absent' as const }
      : readClaimedComplete(sections.complete, attribution, options);
  return {
    firstDispatch:
      sections.dispatch === undefined
        ? undefined
        : readFirstDispatch(sections.dispatch, attribution, options),
    claimedComplete: complete.claimed,
    claimedCompleteAnswer: complete.answer,
    ledgers:
      sections.ledgers === undefined ? [] : readLedgerVerdicts(sections.ledgers, attribution),
    sectionsFound,
  };
}
