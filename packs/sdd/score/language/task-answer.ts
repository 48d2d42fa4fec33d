/**
 * Read the task an answer names (the next task to do, or that there is
 * none) and the set of tasks an answer claims are done, in prose as models
 * write it: numbers, ranges, words, titles, negations, tables, "none",
 * "N/A", "0 of 5", and another plan's numbers set aside.
 *
 * Reading is deliberately conservative: an answer that contradicts itself
 * ("None. Task 1 is next.", a task number next to another task's title) or
 * keeps a second option open ("Task 1 if …, otherwise …", "… or ask you
 * first", "Task 1 (or Task 2 …)", "Task 1 / Task 2", "if you prefer",
 * "pending your confirmation", "Task 1?") reads as no task at all (undefined), and a set answer that names nothing
 * recognisable is 'unreadable'. The engine then leaves the checks on that
 * value undecided, never failed, so a human can adjudicate.
 */

import {
  type Clause,
  plainText,
  type Sentence,
  sentencesOf,
} from '../../../../harness/score/extractors/language/clauses.js';
import type { Attribution } from './attribution.js';
import {
  findTaskGroups,
  maskNonTaskNumbers,
  splitAtRepeatedTaskWord,
  type TaskGroup,
  type TaskGroupOptions,
} from './task-numbers.js';
import { findNameMentions, findTitleMentions } from './task-titles.js';

export type { Attribution, PlanContext } from './attribution.js';
export { attributionFor } from './attribution.js';

/** How a task-set answer was read: it names tasks (of this plan or another) or says none; or it cannot be read. */
export type TaskSetAnswer = 'read' | 'unreadable';

/** Options of a task reading beyond the plan's own names. */
export interface TaskReadingOptions extends TaskGroupOptions {
  /** Further phrases of the scenario's domain that mean "no task is next" (lower-case text). */
  readonly nonePatterns?: readonly RegExp[] | undefined;
}

/** A reply that says there is nothing (`none`, `N/A`, `0 of 5`, `nothing`, `no tasks`). */
const NOTHING_AT_START =
  /^(?:none\b|nothing\b|n\/a\b|n\.a\.|not\s+applicable\b|no\b|zero\b|0\b(?!\s*[-–,&]\s*\d)|nil\b|0\s+(?:of|out\s+of|\/)\s+\d+)/;

/** An opening that is only "none": whatever follows can explain it, not overrule it. */
const BARE_NOTHING = /^(?:none|nothing|n\/a|n\.a\.?|nil|not\s+applicable|no\s+dispatch)[.!]?$/;

/**
 * A clause of a done-tasks answer that says no task of the plan is
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

/** A clause that carries on the sentence of the one before a parenthetical ("Task 3 (JSON writer) is next"). */
const PREDICATE_START = /^(?:is|are|was|were|has|have|had)\b/;

/**
 * What the sentence goes on to say about the end of each clause: a status
 * clause right after it ("— pending"), or the predicate that resumes the
 * sentence after a parenthetical ("Task 3 (JSON writer) is next", said of
 * both "Task 3" and "JSON writer"); else ''. One pass over the clauses.
 */
function continuations(clauses: readonly Clause[]): string[] {
  const said = new Array<string>(clauses.length).fill('');
  let nextMain: number | undefined;
  for (let index = clauses.length - 1; index >= 0; index--) {
    const main = nextMain === undefined ? undefined : clauses[nextMain];
    if (nextMain !== undefined && main !== undefined) {
      const beforeParenthesis = nextMain > index + 1 || clauses[index]?.parenthetical === true;
      if (NOT_DONE_STATUS.test(main.text)) said[index] = main.text;
      else if (beforeParenthesis && PREDICATE_START.test(main.text)) said[index] = main.text;
    }
    if (clauses[index]?.parenthetical !== true) nextMain = index;
  }
  return said;
}

function precedingText(text: string, group: TaskGroup): string {
  return text.slice(Math.max(0, group.start - 40), group.start);
}

/**
 * The clauses of each sentence that do not belong to another plan, sentence
 * by sentence; a sentence that is another plan's as a whole has none.
 */
function ownSentenceClauses(sentences: readonly Sentence[], attribution: Attribution): Clause[][] {
  return sentences.map((sentence) => {
    if (attribution.isForeign(sentence.text)) return [];
    return sentence.clauses.filter(
      (clause) =>
        !attribution.isForeign(clause.withQualifiers) &&
        (!clause.parenthetical || !attribution.isForeign(clause.text)),
    );
  });
}

function firstText(sentences: readonly Sentence[]): string {
  return sentences[0]?.clauses[0]?.text.trim() ?? '';
}

export interface ClaimedCompleteReading {
  readonly claimed: number[];
  readonly answer: TaskSetAnswer;
}

/**
 * Own-plan tasks a done-tasks answer claims. Another plan's
 * numbers and titles are dropped sentence by sentence (an explanation of a
 * foreign record usually spans a whole sentence); an answer that opens with
 * "none" claims nothing, whatever the explanation after it mentions. A vague
 * "everything" / "all of them" counts only when no task is named specifically,
 * less the tasks it excepts ("everything except Task 5").
 */
export function readClaimedComplete(
  section: string,
  attribution: Attribution,
  options: TaskReadingOptions = {},
): ClaimedCompleteReading {
  const sentences = sentencesOf(section, { splitOnColon: false });
  if (sentences.length === 0) return { claimed: [], answer: 'unreadable' };
  if (NOTHING_AT_START.test(firstText(sentences))) return { claimed: [], answer: 'read' };

  const own = ownSentenceClauses(sentences, attribution);
  const clauseCount = sentences.reduce((count, sentence) => count + sentence.clauses.length, 0);
  // Text set aside as another plan's still answers the question: none of it is mine.
  let read = own.flat().length < clauseCount;
  const specific = new Set<number>();
  const vague = new Set<number>();
  const excepted = new Set<number>();

  for (const clauses of own) {
    const continuation = continuations(clauses);
    clauses.forEach((clause, clauseIndex) => {
      if (SAYS_NOTHING.test(clause.text)) read = true;
      if (NOTHING_AT_START.test(clause.text)) return;
      const text = maskNonTaskNumbers(clause.text, options.countNouns);
      const groups = findTaskGroups(clause.text, options);
      groups.forEach((group, index) => {
        read = true;
        const { before, after } = groupSurroundings(text, groups, index);
        if (EXCEPT_BEFORE.test(before)) {
          for (const n of group.numbers) excepted.add(n);
          return;
        }
        const onward = index === groups.length - 1 ? ` ${continuation[clauseIndex]}` : '';
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
  // Search only between the neighbouring groups, so the cost is the gap, not the clause.
  const windowStart = Math.max(groups[index - 1]?.end ?? 0, group.start - 40);
  const window = text.slice(windowStart, group.start);
  const lastComma = Math.max(window.lastIndexOf(','), window.lastIndexOf(';'));
  const nextStart = groups[index + 1]?.start ?? text.length;
  const gap = text.slice(group.end, Math.max(group.end, nextStart));
  const nextComma = gap.indexOf(',');
  return {
    before: window.slice(lastComma + 1),
    after: nextComma < 0 ? gap : gap.slice(0, nextComma),
  };
}

/** What a next-task answer says a finished task is ("merged", "landed in e4f5a6b", "verified"). */
const DONE_WORD = String.raw`(?:complete|completed|done|finished|implemented|merged|landed|verified|committed|shipped|recorded|reviewed|approved|passed|passing|closed|in\s+place)`;

/** Right after a task group: it is finished ("Task 2 merged", "Task 2 landed in e4f5a6b", "Task 2 ✅"). */
const SAID_DONE_AFTER = new RegExp(
  String.raw`^[\s,]*(?:(?:is|are|was|were|has|have|had|been|being|already|now|both|all|each|fully|successfully|just)\s+)*(?:${DONE_WORD}\b|[✅✓✔])`,
  'u',
);

/** Right before a task group: it is ground already covered ("having finished", "building on"). */
const SAID_DONE_BEFORE = new RegExp(
  String.raw`(?:\bhaving\s+(?:(?:now|just|already|been)\s+)*${DONE_WORD}|\bbuilding\s+on|\bbuilt\s+on|\bon\s+top\s+of|\bfollowing\s+on\s+from)\s+(?:(?:the|both)\s+)*$`,
);

/** A clause that is only a done status for the clause before it ("Tasks 1–2: complete"). */
const DONE_STATUS = new RegExp(
  String.raw`^(?:(?:all|both|already|are|is|were|was|been|have\s+been|has\s+been|now|fully)\s+)*(?:${DONE_WORD}\b|[✅✓✔])`,
  'u',
);

/** Words that take "done" back ("merged but not reviewed", "not yet landed", "pending"). */
const UNDONE =
  /(?:\bnot|n't|\bnever)\b|\b(?:pending|incomplete|unfinished|outstanding|remaining|todo|yet\s+to)\b|[❌✗✘⬜☐🔲⏳]/u;

/** Words that make a named task work to do now ("Task 2 first", "Task 2, then", "fix Task 2"). */
const TO_DO_AFTER =
  /\b(?:then|first|before|again|needs?|followed\s+by|fix\w*|redo\w*|rework\w*|amend\w*|re-?(?:dispatch|implement|review|run|open|visit|do)\w*)\b/;
const TO_DO_BEFORE =
  /\b(?:dispatch\w*|start\w*|begin\w*|resum\w*|implement\w*|redo|re-?dispatch\w*|fix\w*|rework\w*|reopen\w*|revisit\w*|re-?run)\s+(?:(?:at|with|on|from|the|by)\s+)*$/;

/** Wording that offers another outcome ("…, otherwise Task 4", "if not, …", "either …", "unless …"). */
const ALTERNATIVE =
  /\b(?:otherwise|else|alternatively|unless|whichever|either|depending)\b|\bif\s+not\b|\bor\s+(?:else|instead)\b/;
/**
 * Wording that offers another outcome, whatever that outcome names: "…,
 * otherwise the final review", "Task 1 unless …", "… or ask you first". An
 * answer with such wording is a hedge, not a decision.
 */
const HEDGE =
  /\b(?:otherwise|alternatively|unless|whichever|either|depending)\b|\bif\s+not\b|\bor\s+(?:else|instead)\b|\bor\s+(?:(?:i|we)\s+)?(?:(?:will|would|could|should|might|may|can|shall)\s+)?(?:ask|check\s+with|confirm|wait|pause|stop|escalate|clarify|defer|hold\s+off|consult)\b/;
/** "else" that is part of a pronoun ("nothing else", "anything else") offers no alternative. */
const ELSE = /\belse\b/g;
const PRONOUN_BEFORE_ELSE =
  /\b(?:nothing|anything|something|everything|someone|anyone|everyone|no\s+one|what|where|who|or)\s*$/;

/** Whether the answer offers another outcome (see HEDGE). */
function hedges(answer: string): boolean {
  if (HEDGE.test(answer)) return true;
  for (const found of answer.matchAll(ELSE)) {
    if (!PRONOUN_BEFORE_ELSE.test(answer.slice(Math.max(0, found.index - 16), found.index))) {
      return true;
    }
  }
  return false;
}

/**
 * A second option kept open, found in the answer's plain text (parentheses
 * and question marks kept): an "or" that opens a clause ("Task 1 (or the
 * final review)", "Task 1 — or, …"), a preference left to the reader ("if
 * you prefer", "should you want"), a decision deferred to the reader
 * ("pending your confirmation", "until you confirm", "check with you",
 * "your go-ahead"), "may make more sense", an answer opening with "possibly"
 * or "perhaps", and a task questioned in place ("Task 1?").
 */
const SECOND_OPTION: readonly RegExp[] = [
  /(?:^|[([—–;,:]|\s-)\s*or\b(?!\s+(?:rather|more\s+precisely|in\s+other\s+words|so)\b)/,
  /\bif\s+you(?:'d|\s+would)?\s+(?:prefer|rather|like|want|wish)\b|\bshould\s+you\s+(?:prefer|want|wish|like)\b|\bif\s+(?:preferred|you\s+agree)\b/,
  /\bpending\s+(?:(?:your|user|the\s+user's)\s+)?(?:confirmation|approval|go-?ahead|sign-?off)\b|\b(?:until|once|after|when)\s+you\s+(?:confirm|approve|agree|decide|say\s+so|give)\b|\byour\s+(?:go-?ahead|approval|confirmation|sign-?off|decision)\b|\b(?:check|confirm|consult)\s+with\s+you\b|\bask\s+you\b/,
  /\b(?:may|might|could)\s+(?:\w+\s+)?make\s+more\s+sense\b|\b(?:may|might|could)\s+(?:\w+\s+)?be\s+(?:better|wiser|preferable)\b/,
  /^(?:possibly|perhaps|maybe)\b/,
  /\b(?:tasks?|t)\s*#?\s*\d+\s*(?:\([^()]{0,40}\))?\s*\?/,
];
/** Words just before a deferral that take it back ("no need to ask you", "without your go-ahead"). */
const DEFERRAL_DENIED =
  /\b(?:no\s+need\s+to|without|not|never|needn't|don't\s+need\s+to|no)\s+(?:\w+\s+){0,2}$/;

/** Whether the plain answer keeps a second option open (see SECOND_OPTION). */
function keepsSecondOptionOpen(plain: string): boolean {
  return SECOND_OPTION.some((pattern) => {
    const found = pattern.exec(plain);
    return (
      found !== null &&
      !DEFERRAL_DENIED.test(plain.slice(Math.max(0, found.index - 30), found.index))
    );
  });
}

/** Words of possibility that, beside a second task, leave the choice open ("Task 2 might also work"). */
const POSSIBILITY = /\b(?:might|may|could|perhaps|maybe|possibly)\b/;

/** An alternative outcome of dispatching nothing ("otherwise none"). */
const NOTHING_ALTERNATIVE = /\b(?:otherwise|else|or|if\s+not)[\s,:]+(?:none|nothing|n\/a)\b/;
/** "or" joining two tasks: "Task 3 or 4", "JSON writer or CLI flag". */
const OR_BETWEEN = /\b(?:or|either)\b/;
/** Only a slash between two tasks: "Task 1 / Task 2". */
const SLASH_BETWEEN = /^\s*\/\s*$/;
/** A slash before a repeated task word inside one group: "Task 3/Task 4". */
const SLASHED_TASK_WORD = /\d\s*\/\s*(?:tasks?|t)\b/;

/** How far around a task group the words about it are looked for. */
const NEAR = 60;
/** The most that may stand between two tasks joined by "or" (", or ", " or else "). */
const SHORT_GAP = 20;

/** A task group of the next-task answer that could be the one put forward. */
interface DispatchCandidate {
  /** The task dispatched if this group is: the group's first. */
  readonly task: number;
  readonly group: TaskGroup;
  readonly sentence: Sentence;
  /** Where the group's clause is in `sentence.clauses`. */
  readonly clauseIndex: number;
  /** The clause with non-task numbers masked (positions as in the clause). */
  readonly maskedText: string;
  /** The clause describes the task as finished ("merged", "having finished …", "Tasks 1–2: complete"). */
  readonly saidDone: boolean;
  /** The clause, or the one right after it, makes the task work to do now ("first", "then", "fix"). */
  readonly saidToDo: boolean;
}

/**
 * For each clause of a sentence, the first clause after it that is not a
 * parenthetical (or undefined), found in one pass.
 */
function nextMainClauses(clauses: readonly Clause[]): (number | undefined)[] {
  const next = new Array<number | undefined>(clauses.length);
  let following: number | undefined;
  for (let index = clauses.length - 1; index >= 0; index--) {
    next[index] = following;
    if (clauses[index]?.parenthetical !== true) following = index;
  }
  return next;
}

/** The status clause after clause `index` ("complete" in "Tasks 1–2: complete"), if it says done. */
function followedByDoneStatus(
  clauses: readonly Clause[],
  nextMain: readonly (number | undefined)[],
  index: number,
): boolean {
  const saysDone = (clause: Clause | undefined): boolean =>
    clause !== undefined && DONE_STATUS.test(clause.text) && !UNDONE.test(clause.text);
  const next = clauses[index + 1];
  if (next?.parenthetical === true && saysDone(next)) return true;
  const main = nextMain[index];
  return main !== undefined && saysDone(clauses[main]);
}

/**
 * The task groups of a next-task answer that may be the one put forward, in
 * reading order: own-plan groups that are not negated ("not Task 1 or 2"),
 * not described as complete ("Tasks 1-2 are done", "Task 1 onwards is
 * done"), and not introduced as already handled ("after Tasks 1–2").
 */
function dispatchCandidates(
  sentences: readonly Sentence[],
  attribution: Attribution,
  options: TaskGroupOptions,
): DispatchCandidate[] {
  const candidates: DispatchCandidate[] = [];
  for (const sentence of sentences) {
    const own = sentence.clauses
      .map((clause, index) => ({ clause, index }))
      .filter(({ clause }) => !attribution.isForeign(clause.withQualifiers));
    const continuation = continuations(own.map(({ clause }) => clause));
    const nextMain = nextMainClauses(sentence.clauses);
    own.forEach(({ clause, index: clauseIndex }, ownIndex) => {
      const maskedText = maskNonTaskNumbers(clause.text, options.countNouns);
      const groups = findTaskGroups(clause.text, options).flatMap((group) =>
        splitAtRepeatedTaskWord(maskedText, group),
      );
      groups.forEach((group, index) => {
        if (group.form === 'all' || group.form === 'everything') return;
        const before = precedingText(maskedText, group);
        if (NEGATED_BEFORE.test(before) || DISPATCH_NOT_THIS_BEFORE.test(before)) return;
        const rest = maskedText.slice(group.end);
        const lastInClause = index === groups.length - 1 && !/\S/.test(rest);
        const onward = lastInClause ? ` ${continuation[ownIndex] ?? ''}` : rest;
        if (DESCRIBED_COMPLETE_AFTER.test(onward)) return;
        const task = group.numbers[0];
        if (task === undefined || task <= 0) return;
        const nextStart = groups[index + 1]?.start ?? maskedText.length;
        const after = maskedText.slice(group.end, Math.min(nextStart, group.end + NEAR));
        const afterToComma = after.split(/[,;]/, 1)[0] ?? '';
        candidates.push({
          task,
          group,
          sentence,
          clauseIndex,
          maskedText,
          saidDone:
            (SAID_DONE_AFTER.test(afterToComma) && !UNDONE.test(afterToComma)) ||
            SAID_DONE_BEFORE.test(before) ||
            (lastInClause && followedByDoneStatus(sentence.clauses, nextMain, clauseIndex)),
          saidToDo:
            TO_DO_AFTER.test(after) ||
            TO_DO_BEFORE.test(before) ||
            (lastInClause &&
              TO_DO_AFTER.test((sentence.clauses[clauseIndex + 1]?.text ?? '').slice(0, NEAR))),
        });
      });
    });
  }
  return candidates;
}

function distinctTasks(candidates: readonly DispatchCandidate[]): number {
  return new Set(candidates.map((candidate) => candidate.task)).size;
}

/**
 * Whether the answer offers more than one outcome: "Task 3 or 4", "Task 1 if
 * the log is stale, otherwise Task 4", "Task 1 unless …, in which case
 * nothing to dispatch".
 */
function offersAlternatives(
  candidates: readonly DispatchCandidate[],
  answer: string,
  plain: string,
  nonePatterns: readonly RegExp[],
): boolean {
  const orInside = candidates.some(
    ({ group, maskedText }) =>
      new Set(group.numbers).size > 1 &&
      (OR_BETWEEN.test(maskedText.slice(group.start, group.end)) ||
        SLASHED_TASK_WORD.test(maskedText.slice(group.start, group.end))),
  );
  const orBetween = candidates.some((candidate, index) => {
    const next = candidates[index + 1];
    if (next === undefined || next.sentence !== candidate.sentence) return false;
    if (next.clauseIndex !== candidate.clauseIndex || next.task === candidate.task) return false;
    const between = candidate.maskedText.slice(candidate.group.end, next.group.start);
    // Masking blanks a lone slash (it reads paths out), so the slash is looked for as written.
    const written = (candidate.sentence.clauses[candidate.clauseIndex]?.text ?? '').slice(
      candidate.group.end,
      next.group.start,
    );
    return between.length <= SHORT_GAP && (OR_BETWEEN.test(between) || SLASH_BETWEEN.test(written));
  });
  if (orInside || orBetween || hedges(answer) || keepsSecondOptionOpen(plain)) return true;
  const conditional =
    ALTERNATIVE.test(answer) ||
    POSSIBILITY.test(answer) ||
    (answer.match(/\bif\b/g)?.length ?? 0) >= 2;
  if (!conditional) return false;
  if (distinctTasks(candidates) > 1) return true;
  return (
    NOTHING_ALTERNATIVE.test(answer) ||
    NO_DISPATCH.some((pattern) => pattern.test(answer)) ||
    nonePatterns.some((pattern) => pattern.test(answer))
  );
}

/**
 * Which candidate is the dispatch. One task named: that task. Several: the
 * ones the answer itself calls finished ("With Task 2 merged, Task 3") are
 * set aside, then, in reading order, the ones the reply claims complete
 * ("Task 2 → Task 3" after claiming Tasks 1–2); the first left is the
 * dispatch. 'unclear' when the answer offers alternatives, when every task
 * it names is finished, or when it puts a task it claims complete to work
 * ("Task 2 needs a fix first, then Task 3").
 */
function chooseDispatch(
  candidates: readonly DispatchCandidate[],
  claimed: ReadonlySet<number>,
  answer: string,
  plain: string,
  nonePatterns: readonly RegExp[],
): DispatchCandidate | 'unclear' | undefined {
  if (candidates.length === 0) return undefined;
  const standing =
    distinctTasks(candidates) === 1 ? candidates : candidates.filter((c) => !c.saidDone);
  if (offersAlternatives(standing, answer, plain, nonePatterns)) return 'unclear';
  if (distinctTasks(standing) <= 1) return standing[0] ?? 'unclear';
  for (const candidate of standing) {
    if (!candidate.group.numbers.every((n) => claimed.has(n))) return candidate;
    if (candidate.saidToDo) return 'unclear';
  }
  return 'unclear';
}

/** Where a clause names tasks, by number (`Task 1`) or by title (`Storage layer`). */
interface NamedMention {
  readonly start: number;
  readonly end: number;
  /** The task numbers it names; empty for another plan's title. */
  readonly numbers: readonly number[];
}

/** What may stand between a number and the title that restates it, inside one clause. */
const APPOSITION_GAP = /^[\s"'#:*_`]*$/;
/** What may stand between a mention and the end (or start) of its clause. */
const CLAUSE_EDGE = /^[\s"'.,;:!?*_`]*$/;

/** A verb right after a title: the clause says something about it ("Lint step was plan A's last task"). */
const PREDICATE_AFTER_TITLE = /^\s*(?:is|was|are|were|belongs?|belonged)\b/;

/**
 * A clause that starts with a title and goes on to say it is another plan's
 * ("Storage layer is plan A's, not mine"): an explanation next to the
 * dispatch, not a restatement of it.
 */
function saysWhosePlan(clause: string, title: NamedMention, attribution: Attribution): boolean {
  return (
    PREDICATE_AFTER_TITLE.test(clause.slice(title.end)) && attribution.namesForeignPlan(clause)
  );
}

/** The titles a clause names: the own plan's with their numbers, other plans' without. */
function titleMentions(
  text: string,
  options: TaskGroupOptions,
  attribution: Attribution,
): NamedMention[] {
  const own = findTitleMentions(text, options.titles ?? []).map((mention) => ({
    start: mention.start,
    end: mention.end,
    numbers: [mention.number],
  }));
  const foreign = findNameMentions(text, attribution.foreignTaskTitles)
    .filter((mention) => !own.some((o) => mention.start < o.end && o.start < mention.end))
    .map((mention) => ({ ...mention, numbers: [] }));
  return [...own, ...foreign];
}

/** The tasks a clause names by number (`Task 1`, `T1`, a bare `1`, `the first task`). */
function numberMentions(text: string, options: TaskGroupOptions): NamedMention[] {
  return findTaskGroups(text, { taskCount: options.taskCount })
    .filter(
      (group) => group.form === 'task-word' || group.form === 'bare' || group.form === 'ordinal',
    )
    .map(({ start, end, numbers }) => ({ start, end, numbers }));
}

/**
 * Whether the chosen dispatch is restated, right next to it, as a different
 * task: its number beside another task's title (the other plan's, or another
 * own task's), or its title beside another task's number. Such an answer
 * contradicts itself.
 */
function restatedAsOtherTask(
  choice: DispatchCandidate,
  options: TaskGroupOptions,
  attribution: Attribution,
): boolean {
  const clauses = choice.sentence.clauses;
  const byTitle = choice.group.form === 'title';
  const partnersIn = (index: number): NamedMention[] => {
    const text = clauses[index]?.text ?? '';
    return byTitle ? numberMentions(text, options) : titleMentions(text, options, attribution);
  };
  const disagrees = (partner: NamedMention): boolean =>
    byTitle
      ? !partner.numbers.includes(choice.task)
      : !partner.numbers.some((n) => choice.group.numbers.includes(n));

  const text = clauses[choice.clauseIndex]?.text ?? '';
  const { start, end } = choice.group;
  const beside = partnersIn(choice.clauseIndex).filter(
    (partner) =>
      (partner.end <= start && APPOSITION_GAP.test(text.slice(partner.end, start))) ||
      (partner.start >= end && APPOSITION_GAP.test(text.slice(end, partner.start))),
  );
  if (CLAUSE_EDGE.test(text.slice(end))) {
    const next = clauses[choice.clauseIndex + 1]?.text ?? '';
    beside.push(
      ...partnersIn(choice.clauseIndex + 1).filter(
        (partner) =>
          CLAUSE_EDGE.test(next.slice(0, partner.start)) &&
          (byTitle || !saysWhosePlan(next, partner, attribution)),
      ),
    );
  }
  if (CLAUSE_EDGE.test(text.slice(0, start))) {
    const previous = clauses[choice.clauseIndex - 1]?.text ?? '';
    beside.push(
      ...partnersIn(choice.clauseIndex - 1).filter((partner) =>
        CLAUSE_EDGE.test(previous.slice(partner.end)),
      ),
    );
  }
  return beside.some(disagrees);
}

/** An answer that is only a dash or punctuation: it names nothing. */
const BLANK_ANSWER = /^[\s\-\u2010-\u2015.:;,_*`~|>#]*$/;

/**
 * The next-task answer: the task it puts forward (see chooseDispatch;
 * `claimed` is what the same reply claims is done); else 'none' when the
 * answer says nothing is left, or names nothing at all ("—") after the reply
 * claimed every task of the plan done; else undefined. An answer that
 * contradicts itself is undefined: one that opens with a bare "None" and then
 * puts a task forward, one whose task is restated as another (its number
 * beside another plan's title), and one that offers alternatives ("Task 1 if
 * …, otherwise Task 4", "…, otherwise the final review", "… or ask you
 * first").
 */
export function readFirstDispatch(
  section: string,
  attribution: Attribution,
  options: TaskReadingOptions = {},
  claimed: readonly number[] = [],
): number | 'none' | undefined {
  const nonePatterns = options.nonePatterns ?? [];
  const sentences = sentencesOf(section);
  const opening = firstText(sentences);
  const answer = sentences
    .flatMap((sentence) => sentence.clauses.map((clause) => clause.text))
    .join(' ; ');
  const plain = plainText(section).replace(/\s+/g, ' ').trim();
  const choice = chooseDispatch(
    dispatchCandidates(sentences, attribution, options),
    new Set(claimed),
    answer,
    plain,
    nonePatterns,
  );
  if (choice === 'unclear') return undefined;
  if (choice !== undefined) {
    if (BARE_NOTHING.test(opening) || restatedAsOtherTask(choice, options, attribution)) {
      return undefined;
    }
    return choice.task;
  }
  if (hedges(answer) || keepsSecondOptionOpen(plain)) return undefined;
  const allText = sentences.map((sentence) => sentence.text).join(' ; ');
  if (NOTHING_AT_START.test(opening)) return 'none';
  if (NO_DISPATCH.some((pattern) => pattern.test(allText))) return 'none';
  if (nonePatterns.some((pattern) => pattern.test(allText))) return 'none';
  if (BLANK_ANSWER.test(section) && claimsEveryTask(claimed, options.taskCount)) return 'none';
  return undefined;
}

/** Whether `claimed` holds every task 1..taskCount of the plan. */
function claimsEveryTask(claimed: readonly number[], taskCount: number | undefined): boolean {
  if (taskCount === undefined || taskCount < 1) return false;
  const set = new Set(claimed);
  for (let task = 1; task <= taskCount; task++) if (!set.has(task)) return false;
  return true;
}
