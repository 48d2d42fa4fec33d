/**
 * What a reply section concluded about each path it names: adopted (trusted,
 * mine, valid, resumed from it), rejected (stale, foreign, another plan's,
 * not mine, ignored, left in place, does not apply), or unclear. Which paths
 * count is the scenario's pattern; further phrases of the scenario's domain
 * come from the scenario as extra cues. A plan's short name counts for
 * adoption or rejection according to whose plan the context says it is.
 */

import { plainText } from '../../../../harness/score/extractors/language/clauses.js';
import type { Attribution } from './attribution.js';
import { anchoredPath, planNamePattern } from './plan-names.js';

export type PathVerdict = 'adopted' | 'rejected' | 'unclear';

export interface PathReading {
  /** The path as the reply names it, from the anchor on when it has the anchor. */
  readonly path: string;
  readonly verdict: PathVerdict;
}

/** How much a cue counts: double for ownership words, half for words about soundness. */
export const CUE_WEIGHTS = [0.5, 1, 2] as const;

/**
 * A phrase and how much it counts. Ownership ("another plan's", "not mine",
 * "trusted", "my plan") counts double; words that often describe a record's
 * internal soundness rather than whose it is ("valid", "verified") count half.
 */
export interface Cue {
  readonly pattern: RegExp;
  readonly weight: number;
}

/** What a path-judgement reading needs besides the text. */
export interface PathReadingOptions {
  /** Which paths count (a global pattern). */
  readonly paths: RegExp;
  /** Where a path starts for comparison (`.cache/` makes `/tmp/x/.cache/p` read `.cache/p`). */
  readonly anchor?: string | undefined;
  /** The scenario's own phrases for adoption and rejection, in lower case, global. */
  readonly adopt?: readonly Cue[] | undefined;
  readonly reject?: readonly Cue[] | undefined;
}

const STRONG = 2;
const PLAIN = 1;
const WEAK = 0.5;

/** Phrases that deny a rejection ("not stale"): they count for adoption. */
const DENIED_REJECTION: readonly Cue[] = [
  {
    pattern:
      /\b(?:not|isn't|is not|wasn't|never|no longer)\s+(?:a\s+|an\s+|the\s+)?(?:stale|foreign|rejected|ignored|someone else's|leftover|stray|from\s+(?:another|a\s+different|the\s+other)\s+plan|another\s+plan's|a\s+different\s+plan's)\b/g,
    weight: STRONG,
  },
  { pattern: /\bno\s+reason\s+to\s+(?:reject|distrust|doubt)\b/g, weight: STRONG },
];

/** Phrases that deny an adoption ("not mine", "does not apply"): they count for rejection. */
const DENIED_ADOPTION: readonly Cue[] = [
  {
    pattern:
      /(?:\bnot|n't|\bcannot|\bnever)\s+(?:be\s+|to\s+be\s+)?(?:\w+\s+)?(?:mine|ours|my\s+plan|this\s+plan|our\s+plan|trust(?:ed|worthy)?|adopt(?:ed)?|appl(?:y|ies|icable)|valid|used|relevant|resum\w*|match\w*|for\s+(?:this|my)\s+plan|belong\w*\s+to\s+(?:me|my|this|our)(?:\s+plan)?)\b(?:'s)?(?:\s+(?:for|by|in|to|with)\s+(?:this|my|our)\s+(?:plan|run|work))?/g,
    weight: STRONG,
  },
  { pattern: /\buntrusted\b/g, weight: STRONG },
  // "not my ledger", "not our own workspace": whatever the noun, ownership is denied.
  {
    pattern: /(?:\bnot|n't|\bnever)\s+(?:\w+\s+)?(?:my|our)\b(?:\s+own)?(?:\s+[\w-]+){0,2}/g,
    weight: STRONG,
  },
];

const REJECTION: readonly Cue[] = [
  { pattern: /\bstale\b/g, weight: STRONG },
  { pattern: /\bforeign\b/g, weight: STRONG },
  {
    pattern: /\b(?:another|other|different|previous|prior|earlier|older|unrelated)\s+plan\b/g,
    weight: STRONG,
  },
  { pattern: /\bwrong\s+plan\b/g, weight: STRONG },
  { pattern: /\bmismatch\w*\b/g, weight: STRONG },
  { pattern: /\bignor(?:e|ed|ing)\b/g, weight: PLAIN },
  { pattern: /\bdisregard(?:ed|ing)?\b/g, weight: PLAIN },
  {
    pattern: /\bleft\s+(?:it\s+|them\s+|both\s+)?(?:in\s+place|untouched|alone|as[\s-]is)\b/g,
    weight: PLAIN,
  },
  {
    pattern: /\bleave\s+(?:it\s+|them\s+|both\s+)?(?:in\s+place|untouched|alone)\b/g,
    weight: PLAIN,
  },
  { pattern: /\buntouched\b/g, weight: PLAIN },
  { pattern: /\breject(?:ed|ing)?\b/g, weight: PLAIN },
  {
    pattern: /\b(?:stray|leftover|litter|superseded|obsolete|irrelevant|unrelated)\b/g,
    weight: PLAIN,
  },
  { pattern: /\bn\/a\b/g, weight: PLAIN },
  { pattern: /\bdistrust\w*\b/g, weight: STRONG },
];

const ADOPTION: readonly Cue[] = [
  { pattern: /\btrust(?:ed|worthy|ing)?\b/g, weight: STRONG },
  { pattern: /\bmine\b/g, weight: STRONG },
  { pattern: /\b(?:my|our|this|own|current)\s+plan\b/g, weight: STRONG },
  { pattern: /\b(?:adopt|accept)(?:ed|ing)?\b/g, weight: STRONG },
  { pattern: /\bresum(?:e|ed|ing)\s+(?:from|at|with|per)\b/g, weight: STRONG },
  { pattern: /\bapplies\b/g, weight: PLAIN },
  {
    pattern:
      /\b(?:so|therefore|thus|hence)\s+(?:\w+\s+){0,4}(?:are|is|were)\s+(?:already\s+)?(?:done|complete|completed)\b/g,
    weight: PLAIN,
  },
  { pattern: /\bmatch(?:es|ed)?\s+(?:my|this|our|own|the\s+own)\b/g, weight: PLAIN },
  {
    pattern:
      /\b(?:valid|legitimate|authoritative|genuine|consistent|correct|confirmed|verified)\b/g,
    weight: WEAK,
  },
];

const DOES_NOT_EXIST =
  /\b(?:(?:does|did)\s+not|doesn't|didn't)\s+(?:yet\s+)?exist\b|\bnot\s+(?:yet\s+)?(?:found|present|there|created|written)\b|\b(?:isn't|aren't)\s+there\b|\bno\s+such\s+file\b|\b(?:absent|nonexistent|non-existent)\b/;

interface Signal {
  adopt: number;
  reject: number;
  missing: boolean;
  /** Ownership was denied outright ("not mine", "not my ledger") and no rejection was denied. */
  disowned: boolean;
}

/** The summed weight of the cues found, and the text with them blanked out (so "not mine" is not also "mine"). */
function countAndBlank(text: string, cues: readonly Cue[]): { count: number; rest: string } {
  let count = 0;
  let rest = text;
  for (const cue of cues) {
    rest = rest.replace(cue.pattern, (match) => {
      count += cue.weight;
      return ' '.repeat(match.length);
    });
  }
  return { count, rest };
}

/** The cue lists for one reply: the fixed phrases plus the plans' short names from the context. */
interface CueSet {
  readonly rejection: readonly Cue[];
  readonly adoption: readonly Cue[];
}

function cueSetFor(attribution: Attribution, options: PathReadingOptions): CueSet {
  const aliasCues = (aliases: readonly string[]): Cue[] =>
    aliases.map((alias) => ({ pattern: planNamePattern(alias, 'g'), weight: STRONG }));
  return {
    rejection: [
      ...REJECTION,
      ...(options.reject ?? []),
      ...aliasCues(attribution.foreignPlanAliases),
    ],
    adoption: [...ADOPTION, ...(options.adopt ?? []), ...aliasCues(attribution.ownPlanAliases)],
  };
}

function signalOf(text: string, attribution: Attribution, cues: CueSet): Signal {
  const denied = countAndBlank(text, DENIED_REJECTION);
  const refused = countAndBlank(denied.rest, DENIED_ADOPTION);
  const rejected = countAndBlank(refused.rest, cues.rejection);
  const adopted = countAndBlank(rejected.rest, cues.adoption);
  return {
    adopt: denied.count + adopted.count + (attribution.namesOwnPlan(refused.rest) ? 1 : 0),
    reject: refused.count + rejected.count + (attribution.namesForeignPlan(refused.rest) ? 1 : 0),
    missing: DOES_NOT_EXIST.test(text),
    disowned: refused.count > 0 && denied.count === 0,
  };
}

const NO_SIGNAL: Signal = { adopt: 0, reject: 0, missing: false, disowned: false };

function sum(a: Signal, b: Signal): Signal {
  return {
    adopt: a.adopt + b.adopt,
    reject: a.reject + b.reject,
    missing: a.missing || b.missing,
    disowned: a.disowned || b.disowned,
  };
}

function verdictOf(signal: Signal): PathVerdict {
  // An explicit "not mine" about the path outweighs any ownership word near it.
  if (signal.disowned) return 'rejected';
  if (signal.adopt > signal.reject) {
    return signal.missing && signal.reject === 0 ? 'unclear' : 'adopted';
  }
  if (signal.reject > signal.adopt) return 'rejected';
  return 'unclear';
}

/** Markdown emphasis and code ticks removed, case kept (paths are case-sensitive). */
function withoutMarkup(text: string): string {
  return text.replace(/~~[\s\S]*?~~/g, ' ').replace(/\*\*|__|`/g, '');
}

/** Longer than any path a reply names; see withoutOverlongPathRuns. */
const LONGEST_PATH_RUN = 256;

/**
 * The section with each run of path characters longer than LONGEST_PATH_RUN
 * blanked. Such a run names no path anyone checked, and a path pattern with
 * repeated directory parts takes time quadratic in its length.
 */
function withoutOverlongPathRuns(section: string): string {
  return section.replace(/[\w.~<>/\\-]+/g, (run) =>
    run.length > LONGEST_PATH_RUN ? ' '.repeat(run.length) : run,
  );
}

/** Where a sentence ends inside a line: `.`, `!`, `?` or `;` before white space (a path's dots are not). */
const SENTENCE_BREAK = /(?<=[.!?;])\s+(?=\S)/;

/**
 * The signal each path of one sentence gets: the text from the path (or the
 * sentence start, for the first) to the next path is that path's; a path
 * whose own text says nothing takes the whole sentence's signal.
 */
function sentenceSignals(
  sentence: string,
  matches: readonly RegExpMatchArray[],
  attribution: Attribution,
  cues: CueSet,
): Signal[] {
  const segments = matches.map((found, index) => {
    const at = found.index ?? 0;
    const start = index === 0 ? 0 : at;
    const next = matches[index + 1];
    const end = next === undefined ? sentence.length : (next.index ?? sentence.length);
    const raw = sentence.slice(start, end);
    const local = at - start;
    return raw.slice(0, local) + ' '.repeat(found[0].length) + raw.slice(local + found[0].length);
  });
  const whole = signalOf(plainText(segments.join(' ')), attribution, cues);
  return segments.map((segment) => {
    const own = signalOf(plainText(segment), attribution, cues);
    return own.adopt === 0 && own.reject === 0 && !own.disowned ? whole : own;
  });
}

/**
 * Each path the section names, in order of first mention, with the section's
 * verdict on it. A cue counts for the path it is said of: the text of a
 * sentence goes to the paths that sentence names (each path's share running
 * to the next path); a sentence naming no path continues the one before it
 * (or, opening a line, the line's first path); a line naming no path
 * continues the last line that named one.
 */
export function readPathVerdicts(
  section: string,
  attribution: Attribution,
  options: PathReadingOptions,
): PathReading[] {
  const cues = cueSetFor(attribution, options);
  const signals = new Map<string, Signal>();
  const order: string[] = [];
  const add = (path: string, signal: Signal): void => {
    const known = signals.get(path);
    if (known === undefined) order.push(path);
    signals.set(path, sum(known ?? NO_SIGNAL, signal));
  };

  // Text without a path continues the last text that had one. Its signals are
  // summed and applied once per path, so a long tail costs linear time.
  let lastPaths: string[] = [];
  let pending: Signal = NO_SIGNAL;
  const flush = (): void => {
    if (pending.adopt > 0 || pending.reject > 0 || pending.missing || pending.disowned) {
      for (const path of lastPaths) add(path, pending);
    }
    pending = NO_SIGNAL;
  };
  for (const line of withoutMarkup(withoutOverlongPathRuns(section)).split(/\r?\n/)) {
    if (line.trim() === '') continue;
    options.paths.lastIndex = 0;
    const namesPath = options.paths.test(line);
    // matchAll starts where the pattern's lastIndex stands.
    options.paths.lastIndex = 0;
    if (!namesPath) {
      pending = sum(pending, signalOf(plainText(line), attribution, cues));
      continue;
    }
    let leading: Signal = NO_SIGNAL;
    let namedPathsYet = false;
    for (const sentence of line.split(SENTENCE_BREAK)) {
      const matches = [...sentence.matchAll(options.paths)];
      if (matches.length === 0) {
        const signal = signalOf(plainText(sentence), attribution, cues);
        if (namedPathsYet) pending = sum(pending, signal);
        else leading = sum(leading, signal);
        continue;
      }
      flush();
      const paths = matches.map((found) => anchoredPath(found[0], options.anchor));
      const shares = sentenceSignals(sentence, matches, attribution, cues);
      paths.forEach((path, index) => {
        const share = shares[index] ?? NO_SIGNAL;
        add(path, index === 0 && !namedPathsYet ? sum(share, leading) : share);
      });
      namedPathsYet = true;
      leading = NO_SIGNAL;
      lastPaths = [...new Set(paths)];
    }
  }
  flush();

  return order.map((path) => ({ path, verdict: verdictOf(signals.get(path) ?? NO_SIGNAL) }));
}
