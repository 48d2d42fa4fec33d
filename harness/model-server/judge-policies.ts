/**
 * Scripted judges: how the local model server answers a judge's request
 * (redgreen's harness/judge asks for a second opinion on a rep through a tool
 * call named `record_judgement`), so every judging path runs offline with the
 * real SDK and no key.
 *
 * A scripted judge cannot read a session the way a model does. What it needs
 * to mirror the checks it is given out of band: the `x-redgreen-judge-checks`
 * request header holds the outcome of each shadowed check (`pass`, `fail`,
 * `undecided`) by check id. redgreen sends that header only to a scripted
 * model on this server, never to a live endpoint, and no one else reads it.
 * Without it a scripted judge answers unsure on every item.
 *
 * Quotes are copied from the request's material (the text between
 * `<material-MARKER>` and `</material-MARKER>`): a line of its evidence long
 * enough for redgreen's quote rule (harness/judge/quote-rule.ts), never a
 * marked heading, a note in parentheses or the skill text, so they pass it;
 * `judge-misquote` quotes words the material does not hold.
 */

import { CONTRARIAN_SHARE, type JudgePolicyName } from '../score/judge-policy-names.js';
import { quoteLongEnough } from '../score/quote-rule.js';
import { seededRng } from './rng.js';

export const JUDGE_TOOL_NAME = 'record_judgement';
export const JUDGE_CHECKS_HEADER = 'x-redgreen-judge-checks';

export {
  CONTRARIAN_SHARE,
  isJudgePolicyName,
  type JudgePolicyName,
  judgePolicyNames,
  judgePolicySummaries,
} from '../score/judge-policy-names.js';

/** A shadowed check's outcome, or `judge`: the item has no check of its own, the judge decides it. */
export type CheckOutcome = 'pass' | 'fail' | 'undecided' | 'judge';

/** The check outcomes a judge request's header carries, by check id; undefined when absent or unreadable. */
export function readChecksHeader(
  value: string | string[] | undefined,
): Record<string, CheckOutcome> | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const out: Record<string, CheckOutcome> = {};
    for (const [id, outcome] of Object.entries(parsed)) {
      if (
        outcome !== 'pass' &&
        outcome !== 'fail' &&
        outcome !== 'undecided' &&
        outcome !== 'judge'
      )
        return undefined;
      Object.defineProperty(out, id, { value: outcome, enumerable: true });
    }
    return out;
  } catch {
    return undefined;
  }
}

/** Whether a request asks for a judgement: its tool_choice forces the judge's tool. */
export function isJudgeRequest(body: Readonly<Record<string, unknown>>): boolean {
  const choice = body.tool_choice as { type?: unknown; name?: unknown } | undefined;
  return choice?.type === 'tool' && choice.name === JUDGE_TOOL_NAME;
}

/** The rubric item ids the judge tool's schema allows (`items[].id` enum), in order. */
export function rubricIdsOf(tools: readonly { name: string; input_schema?: unknown }[]): string[] {
  const tool = tools.find((candidate) => candidate.name === JUDGE_TOOL_NAME);
  const ids = (
    tool?.input_schema as
      | { properties?: { items?: { items?: { properties?: { id?: { enum?: unknown } } } } } }
      | undefined
  )?.properties?.items?.items?.properties?.id?.enum;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

const OPEN_TAG = /<material-([0-9a-f]{16})>/;

/** The material of a judge request: the text between its marked tags, from the user's text blocks. */
export function materialOf(promptText: string): string {
  const open = OPEN_TAG.exec(promptText);
  if (open === null) return '';
  const close = promptText.lastIndexOf(`</material-${open[1]}>`);
  const start = open.index + open[0].length;
  return close < start ? '' : promptText.slice(open.index, close + `</material-${open[1]}>`.length);
}

/**
 * A quote copied verbatim from the material: the first line of the reply
 * that is long enough to be evidence, else the first such line of the
 * dispatches, tool calls or diff. Never a marked line, a note in parentheses
 * or the skill text.
 */
export function quoteFrom(material: string): string {
  const marker = OPEN_TAG.exec(material)?.[1];
  if (marker === undefined) return '';
  const heading = `## [${marker}] `;
  const sections: { title: string; lines: string[] }[] = [];
  for (const line of material.split('\n')) {
    if (line.startsWith(heading)) sections.push({ title: line.slice(heading.length), lines: [] });
    else if (!line.includes(marker)) sections.at(-1)?.lines.push(line);
  }
  const evidence = sections.filter((section) => !section.title.startsWith('Skill text'));
  const ordered = [
    ...evidence.filter((section) => section.title.startsWith('Reply')),
    ...evidence.filter((section) => !section.title.startsWith('Reply')),
  ];
  for (const section of ordered) {
    const line = section.lines
      .map((candidate) => candidate.trim())
      .find(
        (candidate) =>
          candidate !== '' &&
          !candidate.startsWith('(') &&
          !/^Dispatch \d+: /.test(candidate) &&
          !/ by the controller, \d+ inside subagents; /.test(candidate) &&
          quoteLongEnough(candidate),
      );
    if (line !== undefined) return line.slice(0, 120);
  }
  return '';
}

/** The rubric items a judge request's system text states (`- \`id\`: text` lines), by id. */
export function rubricItemsOf(systemText: string): Record<string, string> {
  const items: Record<string, string> = {};
  for (const found of systemText.matchAll(/^- `([a-z][a-z0-9-]*)`: (.*)$/gm)) {
    Object.defineProperty(items, found[1] ?? '', { value: found[2] ?? '', enumerable: true });
  }
  return items;
}

/** The evidence lines of a material: every line under a heading other than the skill text and the user's request. */
function evidenceLines(material: string): string[] {
  const marker = OPEN_TAG.exec(material)?.[1];
  if (marker === undefined) return [];
  const heading = `## [${marker}] `;
  const lines: string[] = [];
  let evidence = false;
  let diff = false;
  for (const line of material.split('\n')) {
    if (line.startsWith(heading)) {
      const title = line.slice(heading.length);
      evidence = !title.startsWith('Skill text') && !title.startsWith("The user's request");
      diff = title.startsWith('Files the session changed');
    } else if (evidence && !line.includes(marker)) {
      // A changed file's lines carry the diff's +/- mark; the quote is the text after it.
      const trimmed = (diff ? line.replace(/^[+-]/, '') : line).trim();
      if (trimmed !== '' && !trimmed.startsWith('(') && quoteLongEnough(trimmed))
        lines.push(trimmed);
    }
  }
  return lines;
}

const ABSENCE = /\b(?:not|never|no|none|without|nothing)\b|n't\b/i;

/** The distinct words of four letters or more of a text, lower-cased (any script's letters). */
function keywords(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(/[\p{L}\p{N}_]{4,}/gu) ?? []).filter((word) => !/^\d+$/.test(word)),
  );
}

/** judge-keywords on one item no check decides: the best line's share of the item's words. */
function keywordVerdict(
  text: string | undefined,
  lines: readonly string[],
): { verdict: Verdict; quote: string } {
  if (text === undefined || ABSENCE.test(text)) return { verdict: 'unsure', quote: '' };
  const wanted = keywords(text);
  if (wanted.size === 0) return { verdict: 'unsure', quote: '' };
  let best = { share: 0, line: '' };
  for (const line of lines) {
    const have = keywords(line);
    const share = [...wanted].filter((word) => have.has(word)).length / wanted.size;
    if (share > best.share) best = { share, line };
  }
  if (best.share >= 0.5) return { verdict: 'pass', quote: best.line.slice(0, 120) };
  if (best.share < 0.25) return { verdict: 'fail', quote: lines[0]?.slice(0, 120) ?? '' };
  return { verdict: 'unsure', quote: '' };
}

export interface JudgeTurnInput {
  readonly policy: JudgePolicyName;
  readonly sessionKey: string;
  readonly seed: string | undefined;
  /** The assistant turn asked for, from 1. */
  readonly turn: number;
  readonly checks: Record<string, CheckOutcome> | undefined;
  readonly itemIds: readonly string[];
  readonly material: string;
  /** The rubric's items by id, as the system text states them (`- \`id\`: text`). */
  readonly rubric?: Readonly<Record<string, string>> | undefined;
}

export type JudgeTurn =
  | { readonly kind: 'tool'; readonly input: Record<string, unknown> }
  | { readonly kind: 'text'; readonly text: string };

type Verdict = 'pass' | 'fail' | 'unsure';

function mirrored(outcome: CheckOutcome | undefined): Verdict {
  // An item no check decides has nothing to mirror.
  return outcome === 'pass' ? 'pass' : outcome === 'fail' ? 'fail' : 'unsure';
}

/** Contradict the checks at the rep level: a passing rep judged fail, a failing rep judged pass. */
function contradicted(verdicts: Map<string, Verdict>): Map<string, Verdict> {
  const out = new Map(verdicts);
  const failing = [...out].filter(([, verdict]) => verdict === 'fail');
  if (failing.length > 0) {
    for (const [id] of failing) out.set(id, 'pass');
  } else {
    const first = [...out].find(([, verdict]) => verdict === 'pass');
    if (first !== undefined) out.set(first[0], 'fail');
  }
  return out;
}

function answer(
  verdicts: Map<string, Verdict>,
  quote: string,
  why: string | ((id: string) => string),
): JudgeTurn {
  return {
    kind: 'tool',
    input: {
      items: [...verdicts].map(([id, verdict]) => ({
        id,
        verdict,
        quote: verdict === 'unsure' ? '' : quote,
        rationale: `${typeof why === 'string' ? why : why(id)}: ${verdict}`,
      })),
    },
  };
}

/** The scripted judge's answer to one request. Pure. */
export function judgeTurn(input: JudgeTurnInput): JudgeTurn {
  const ids = input.itemIds.length > 0 ? input.itemIds : Object.keys(input.checks ?? {});
  const quote = quoteFrom(input.material);
  const unsure = new Map<string, Verdict>(ids.map((id) => [id, 'unsure']));
  if (input.policy === 'judge-unsure') return answer(unsure, quote, 'judge-unsure never decides');
  if (input.policy === 'judge-malformed') {
    return input.turn === 1
      ? { kind: 'tool', input: { verdicts: 'every item passes' } }
      : { kind: 'text', text: 'I would rather not fill in the form.' };
  }
  if (input.policy === 'judge-flaky' && input.turn === 1) {
    return { kind: 'tool', input: { items: ids.slice(1).map((id) => ({ id, verdict: 'pass' })) } };
  }
  if (input.checks === undefined) {
    return answer(
      unsure,
      quote,
      "a scripted judge sees the checks only through redgreen's header, and none was sent",
    );
  }
  const checks = input.checks;
  const mirror = new Map<string, Verdict>(ids.map((id) => [id, mirrored(checks[id])]));
  if (input.policy === 'judge-keywords') {
    const lines = evidenceLines(input.material);
    const items = ids.map((id) => {
      if (checks[id] !== 'judge') return { id, verdict: mirror.get(id) ?? 'unsure', quote };
      return { id, ...keywordVerdict(input.rubric?.[id], lines) };
    });
    return {
      kind: 'tool',
      input: {
        items: items.map((item) => ({
          id: item.id,
          verdict: item.verdict,
          quote: item.verdict === 'unsure' || item.quote === '' ? '' : item.quote,
          rationale: `${checks[item.id] === 'judge' ? 'judge-keywords: the words of the item in one line of the evidence' : 'mirrors the check'}: ${item.verdict}`,
        })),
      },
    };
  }
  if (input.policy === 'judge-misquote') {
    return answer(
      mirror,
      'The controller wrote this sentence nowhere in the session.',
      'mirrors the check',
    );
  }
  if (input.policy === 'judge-contrarian') {
    const draw = seededRng(input.seed ?? '', input.sessionKey, 'judge-contrarian').next();
    if (draw < CONTRARIAN_SHARE) {
      const verdicts = contradicted(mirror);
      return answer(verdicts, quote, (id) =>
        verdicts.get(id) === mirror.get(id)
          ? 'mirrors the check'
          : 'contradicts the check (a seeded contrarian rep)',
      );
    }
  }
  return answer(mirror, quote, 'mirrors the check');
}
