/**
 * What a reply section concluded about each path it names: adopted (trusted,
 * mine, valid, resumed from it), rejected (stale, foreign, another plan's,
 * not mine, ignored, left in place, does not apply), or unclear. Which paths
 * count is the scenario's pattern; further phrases of the scenario's domain
 * come from the scenario as extra cues. A plan's short name counts for
 * adoption or rejection according to whose plan the context says it is.
 */
import type { Attribution } from './attribution.js';
import { plainText } from './clauses.js';
import { anchoredPath, proseNamePattern } from './plan-names.js';

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
  /\b(?:(?:does|did)\s+not|doesn't|didn't)\s+(?:yet\s+)?exist\b|\bnot\s+(?:found|present)\b|\bno\s+such\s+file\b|\b(?:absent|nonexistent|non-existent)\b/;

interface Signal {
  adopt: number;
  reject: number;
  missing: boolean;
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
    aliases.map((alias) => ({ pattern: proseNamePattern(alias, 'g'), weight: STRONG }));
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
  };
}

function verdictOf(signal: Signal): PathVerdict {
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

/** Each path the section names, in order of first mention, with the section's verdict on it. */
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
    if (known === undefined) {
      signals.set(path, { ...signal });
      order.push(path);
      return;
    }
    known.adopt += signal.adopt;
    known.reject += signal.reject;
    known.missing ||= signal.missing;
  };

  // Lines without a path continue the last line that had one. Their signals are
  // summed and applied once per path, so a long tail costs linear time.
  let lastPaths: string[] = [];
  let pending: Signal = { adopt: 0, reject: 0, missing: false };
  const flush = (): void => {
    if (pending.adopt > 0 || pending.reject > 0 || pending.missing) {
      for (const path of lastPaths) add(path, pending);
    }
    pending = { adopt: 0, reject: 0, missing: false };
  };
  for (const line of withoutMarkup(withoutOverlongPathRuns(section)).split(/\r?\n/)) {
    const matches = [...line.matchAll(options.paths)];
    if (matches.length === 0) {
      if (line.trim() === '') continue;
      const signal = signalOf(plainText(line), attribution, cues);
      pending = {
        adopt: pending.adopt + signal.adopt,
        reject: pending.reject + signal.reject,
        missing: pending.missing || signal.missing,
      };
      continue;
    }
    flush();
    const paths = matches.map((found) => anchoredPath(found[0], options.anchor));
    const segments = matches.map((found, index) => {
      const start = index === 0 ? 0 : found.index;
      const next = matches[index + 1];
      const end = next === undefined ? line.length : next.index;
      const raw = line.slice(start, end);
      const local = found.index - start;
      return raw.slice(0, local) + ' '.repeat(found[0].length) + raw.slice(local + found[0].length);
    });
    const lineText = segments.join(' ');
    const lineSignal = signalOf(plainText(lineText), attribution, cues);
    segments.forEach((segment, index) => {
      const path = paths[index];
      if (path === undefined) return;
      const signal = signalOf(plainText(segment), attribution, cues);
      add(path, signal.adopt === 0 && signal.reject === 0 ? lineSignal : signal);
    });
    lastPaths = [...new Set(paths)];
  }
  flush();

  return order.map((path) => {
    const signal = signals.get(path) ?? { adopt: 0, reject: 0, missing: false };
    return { path, verdict: verdictOf(signal) };
  });
}
