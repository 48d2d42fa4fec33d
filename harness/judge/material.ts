/**
 * The material a judge sees for one rep, as one deterministic text: the
 * reply, the controller's subagent dispatches (with the captured first
 * dispatch), a digest of the tool calls with their inputs, the diff of the
 * files the session changed, the prompt (when asked for: context, never evidence) (from the before and after snapshots and the
 * file texts captured at rep time), and, only when the scenario asks for it,
 * the skill text under test. Each part is capped, and a cut says so.
 *
 * Everything here is pure: readRepMaterial (material-files.ts) reads the
 * rep's files and hands their contents in. The same parts always give the
 * same text, so its hash keys a stored judgement.
 *
 * The session wrote most of this text, so it must not be able to pass for
 * redgreen. The delimiters and headings carry a marker: 16 hex digits of a
 * hash of the unmarked material, which the session cannot know while it
 * writes (it would have to predict a hash of its own words). The judge is told
 * that only lines with the marker are redgreen's. Tool inputs are shown field
 * by field as the model wrote them (not JSON-escaped), and paths inside the
 * run's work root are rewritten to placeholders (`<repo>`, `<skills>`,
 * `<session>`, `<work>`), because rep directories there are named after the
 * arm and the judge must not know which arm it judges.
 *
 * Besides the text, the material lists its evidence parts (quote-rule.ts): the
 * reply, each dispatch, each tool call, the git state and each changed file,
 * or a recorded absence. Headings, delimiters, notes that a part is unknown
 * and the skill text are no evidence: a quote found only there is unsure.
 */
import { diffSnapshots, type Snapshot } from '../fixture/snapshot-schema.js';
import { sha256Hex } from '../lib/hash.js';
import type { CapturedFile } from '../score/evidence.js';
import type { MaterialKind } from '../score/judge-spec.js';
import type { EvidencePart } from '../score/quote-rule.js';
import type { CapturedDispatchRecord } from '../score/reply-file.js';
import type { ToolCall } from '../score/tool-call.js';
import { unifiedDiff } from './line-diff.js';

/** What a rep left behind, as far as the material reads it; any part may be missing. */
export interface MaterialParts {
  readonly reply: string;
  readonly capturedDispatch: CapturedDispatchRecord | null;
  readonly toolCalls: readonly ToolCall[] | undefined;
  readonly before: Snapshot | undefined;
  readonly after: Snapshot | undefined;
  readonly filesBefore: Readonly<Record<string, CapturedFile>> | undefined;
  readonly filesAfter: Readonly<Record<string, CapturedFile>> | undefined;
  /** SKILL.md of the arm's skill text, when the scenario shows it. */
  readonly skillText: string | undefined;
  /** The prompt the session was given (prompt.md), when the scenario shows it. */
  readonly prompt?: string | undefined;
}

export interface Material {
  /** The whole material, opening and closing tags included, as the judge receives it. */
  readonly text: string;
  /** sha256 of the text. */
  readonly hash: string;
  /** 16 hex digits in every delimiter and heading redgreen writes, and nowhere else. */
  readonly marker: string;
  /** The parts a quote may come from, in the order the material shows them. */
  readonly evidence: readonly EvidencePart[];
}

/** The opening and closing delimiters of a material with this marker. */
export function materialOpen(marker: string): string {
  return `<material-${marker}>`;
}
export function materialClose(marker: string): string {
  return `</material-${marker}>`;
}
/** A heading of the material, as only redgreen writes it. */
export function materialHeading(marker: string, title: string): string {
  return `## [${marker}] ${title}`;
}

const CAPS = {
  reply: 60_000,
  dispatchInput: 16_000,
  callInput: 600,
  calls: 300,
  fileText: 24_000,
  diff: 120_000,
  skill: 64_000,
} as const;

/** Text cut to `limit` characters, saying how much was cut. */
export function capText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n[… ${text.length - limit} more characters cut]`;
}

/** Tool names whose controller calls are subagent dispatches (fresh or resume). */
const DISPATCH_TOOLS = new Set(['Agent', 'Task', 'SendMessage']);

function isController(call: ToolCall): boolean {
  return call.parentToolUseId === undefined || call.parentToolUseId === null;
}

/**
 * An input as the model wrote it: one `path: value` line per field, nested
 * fields by their path (`options.tags[0]`), a string of several lines
 * indented under its field. Nothing is escaped, so a quote of a prompt can be
 * copied from the page as it reads.
 */
export function inputLines(input: unknown, indent = '   '): string[] {
  const out: string[] = [];
  const scalar = (value: unknown): string => {
    if (typeof value === 'string') return value;
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return String(value);
    }
  };
  const walk = (value: unknown, at: string): void => {
    if (Array.isArray(value) && value.length > 0) {
      value.forEach((entry, index) => {
        walk(entry, `${at}[${index}]`);
      });
      return;
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const entries = Object.entries(value);
      if (entries.length > 0) {
        for (const [key, entry] of entries) walk(entry, at === '' ? key : `${at}.${key}`);
        return;
      }
    }
    const text = scalar(value);
    const label = at === '' ? '' : `${at}:`;
    if (text.includes('\n')) {
      out.push(`${indent}${label}`);
      for (const line of text.split('\n')) out.push(`${indent}  ${line}`);
    } else {
      out.push(`${indent}${label}${label === '' ? '' : ' '}${text}`);
    }
  };
  walk(input, '');
  return out;
}

const PATH_CHAR = String.raw`[^\s/'"\x60<>()\[\]{};:,|&*?=$]`;
/** A run's work root (`<tmp>/redgreen-run-XXXXXX`), then a rep's directory in it, then its repo or skills. */
const WORK_PATH = new RegExp(
  String.raw`(?:/${PATH_CHAR}+)*/redgreen-run-[A-Za-z0-9]{6}(?![A-Za-z0-9])(/${PATH_CHAR}+)?(/(?:repo|skills)(?!${PATH_CHAR}))?`,
  'g',
);

/**
 * Paths inside a run's work root as placeholders: a rep's repository is
 * `<repo>`, its skill copy `<skills>`, anything else of the rep `<session>`,
 * the root itself `<work>`. Rep directories there are named after the model,
 * arm, scenario and rep, which the judge must not see.
 */
export function blindWorkPaths(text: string): string {
  return text.replace(WORK_PATH, (_whole, rep: string | undefined, sub: string | undefined) => {
    if (rep === undefined) return '<work>';
    if (sub === '/repo') return '<repo>';
    if (sub === '/skills') return '<skills>';
    return '<session>';
  });
}

/** The controller's dispatches, in order, with the captured first dispatch among them. */
export function dispatchesOf(parts: Pick<MaterialParts, 'capturedDispatch' | 'toolCalls'>): {
  readonly tool: string;
  readonly id: string;
  readonly input: unknown;
  readonly captured: boolean;
}[] {
  const found = (parts.toolCalls ?? [])
    .filter((call) => isController(call) && DISPATCH_TOOLS.has(call.name))
    .map((call) => ({
      tool: call.name,
      id: call.id,
      input: call.input,
      captured: parts.capturedDispatch?.toolUseId === call.id,
    }));
  const captured = parts.capturedDispatch;
  if (captured !== null && !found.some((dispatch) => dispatch.id === captured.toolUseId)) {
    found.unshift({
      tool: captured.tool,
      id: captured.toolUseId,
      input: captured.input,
      captured: true,
    });
  }
  return found;
}

/** A section: the text the judge reads, and the evidence parts within it (none for a note). */
interface Section {
  readonly text: string;
  readonly evidence: readonly EvidencePart[];
}

const note = (text: string): Section => ({ text, evidence: [] });
const fact = (label: string, text: string): Section => ({ text, evidence: [{ label, text }] });

function dispatchSection(parts: MaterialParts): Section {
  const dispatches = dispatchesOf(parts);
  if (parts.toolCalls === undefined && parts.capturedDispatch === null) {
    return note('(no transcript: dispatches unknown)');
  }
  if (dispatches.length === 0) {
    return fact('dispatches', 'none: the controller dispatched no subagent');
  }
  const shown = dispatches.map((dispatch, index) => {
    const title = `Dispatch ${index + 1}: ${dispatch.tool} (${dispatch.tool === 'SendMessage' ? 'message to a live agent' : 'a new agent'})${dispatch.captured ? ', captured: the session ended here and nothing ran' : ''}`;
    const body = capText(blindWorkPaths(inputLines(dispatch.input).join('\n')), CAPS.dispatchInput);
    return { title, body, label: `dispatch ${index + 1}` };
  });
  return {
    text: shown.map((dispatch) => `${dispatch.title}\n${dispatch.body}`).join('\n\n'),
    evidence: shown
      .filter((dispatch) => dispatch.body !== '')
      .map((dispatch) => ({ label: dispatch.label, text: dispatch.body })),
  };
}

/** Per tool call: its number, seat and tool name, then its input field by field (capped). */
function toolCallEntries(calls: readonly ToolCall[], limit: number): string[] {
  return calls
    .slice(0, limit)
    .map((call, index) =>
      [
        `${index + 1}. ${isController(call) ? '' : '[inside a subagent] '}${call.name}`,
        capText(blindWorkPaths(inputLines(call.input).join('\n')), CAPS.callInput),
      ]
        .filter((line) => line !== '')
        .join('\n'),
    );
}

/** The tool calls as the judge and the adjudicator read them, with a line for any not shown. */
export function toolCallDigest(calls: readonly ToolCall[], limit: number = CAPS.calls): string[] {
  const lines = toolCallEntries(calls, limit);
  if (calls.length > limit) lines.push(`[… ${calls.length - limit} more tool calls not shown]`);
  return lines;
}

function toolCallSection(parts: MaterialParts): Section {
  const calls = parts.toolCalls;
  if (calls === undefined) return note('(no transcript: tool calls unknown)');
  if (calls.length === 0) return fact('tool calls', 'none: the session made no tool call');
  const controller = calls.filter(isController).length;
  const entries = toolCallEntries(calls, CAPS.calls);
  return {
    text: [
      `${controller} by the controller, ${calls.length - controller} inside subagents; inputs shown, outputs not.`,
      ...toolCallDigest(calls),
    ].join('\n'),
    evidence: entries.map((text, index) => ({ label: `tool call ${index + 1}`, text })),
  };
}

function fileText(
  files: Readonly<Record<string, CapturedFile>> | undefined,
  repoPath: string,
): { text: string } | { why: string } {
  const file = files !== undefined && Object.hasOwn(files, repoPath) ? files[repoPath] : undefined;
  if (file === undefined) return { why: 'not captured' };
  return 'text' in file ? { text: blindWorkPaths(file.text) } : { why: file.omitted };
}

function prefixed(text: string, mark: string): string {
  return capText(text, CAPS.fileText)
    .split('\n')
    .map((line) => `${mark}${line}`)
    .join('\n');
}

/** One changed file: what the judge reads, and the evidence in it (notes left out). */
function fileChangeLines(
  change: ReturnType<typeof diffSnapshots>['fileChanges'][number],
  parts: Pick<MaterialParts, 'filesBefore' | 'filesAfter'>,
): { shown: string[]; evidence: string[] } {
  const tracked = change.trackedAfter || change.trackedBefore ? 'tracked' : 'untracked';
  const before = fileText(parts.filesBefore, change.path);
  const after = fileText(parts.filesAfter, change.path);
  const shown: string[] = [];
  const evidence: string[] = [];
  const both = (line: string) => {
    shown.push(line);
    evidence.push(line);
  };
  if (change.kind === 'added') {
    both(`added: ${change.path} (${tracked})`);
    if ('text' in after) both(prefixed(after.text, '+'));
    else shown.push(`(its text: ${after.why})`);
  } else if (change.kind === 'removed') {
    both(`removed: ${change.path} (${tracked})`);
    if ('text' in before) both(prefixed(before.text, '-'));
    else shown.push(`(its text before: ${before.why})`);
  } else {
    both(`modified: ${change.path} (${tracked})`);
    if ('text' in before && 'text' in after) {
      both(capText(unifiedDiff(before.text, after.text), CAPS.fileText));
    } else if ('text' in after) {
      shown.push(`(its text before the session: ${'why' in before ? before.why : ''}; after:)`);
      both(prefixed(after.text, '+'));
    } else {
      shown.push(`(its text after the session: ${after.why})`);
    }
  }
  return { shown, evidence };
}

function diffSection(
  parts: Pick<MaterialParts, 'before' | 'after' | 'filesBefore' | 'filesAfter'>,
): Section {
  if (parts.before === undefined || parts.after === undefined) {
    return note('(no snapshots: the changes are unknown)');
  }
  const diff = diffSnapshots(parts.before, parts.after);
  const state = [
    diff.headBefore === diff.headAfter
      ? `HEAD unchanged (${diff.headBefore ?? 'none'})`
      : `HEAD moved: ${diff.headBefore ?? 'none'} -> ${diff.headAfter ?? 'none'}`,
    ...diff.refChanges.map(
      (change) => `ref ${change.ref}: ${change.before ?? 'absent'} -> ${change.after ?? 'absent'}`,
    ),
  ].join('\n');
  const evidence: EvidencePart[] = [{ label: 'git state', text: state }];
  if (diff.fileChanges.length === 0) {
    const none = 'No file in the work tree was added, modified or removed.';
    return { text: `${state}\n${none}`, evidence: [...evidence, { label: 'files', text: none }] };
  }
  const out = [state];
  for (const change of diff.fileChanges) {
    const lines = fileChangeLines(change, parts);
    out.push('', ...lines.shown);
    evidence.push({ label: `diff: ${change.path}`, text: lines.evidence.join('\n') });
  }
  return { text: capText(out.join('\n'), CAPS.diff), evidence };
}

const TITLES: Readonly<Record<MaterialKind, string>> = {
  prompt: "The user's request (the prompt the session was given; context, not evidence)",
  reply: 'Reply (the final message of the session, verbatim)',
  dispatches: 'Subagent dispatches by the controller',
  'tool-calls': 'Tool calls, in order',
  diff: 'Files the session changed',
  skill: 'Skill text under test (SKILL.md)',
};

function sectionOf(parts: MaterialParts, kind: MaterialKind): Section {
  switch (kind) {
    case 'prompt':
      // The user's words, not the session's: shown so the rubric reads in context, never evidence.
      return note(
        parts.prompt === undefined
          ? '(the prompt could not be read)'
          : capText(blindWorkPaths(parts.prompt), CAPS.reply),
      );
    case 'reply': {
      if (parts.reply.trim() === '') return note('(no reply text)');
      return fact('reply', capText(blindWorkPaths(parts.reply), CAPS.reply));
    }
    case 'dispatches':
      return dispatchSection(parts);
    case 'tool-calls':
      return toolCallSection(parts);
    case 'diff':
      return diffSection(parts);
    case 'skill':
      // Shown when the scenario asks for it, but never evidence: it is the arm's text, not the session's.
      return note(
        parts.skillText === undefined
          ? '(the skill text could not be read)'
          : capText(parts.skillText, CAPS.skill),
      );
  }
}

/** The material of one rep, in the order the kinds are named. Pure. */
export function buildMaterial(parts: MaterialParts, kinds: readonly MaterialKind[]): Material {
  const sections = kinds.map((kind) => ({ kind, ...sectionOf(parts, kind) }));
  const unmarked = JSON.stringify(sections.map((section) => [section.kind, section.text]));
  const marker = sha256Hex(unmarked).slice(0, 16);
  const text = [
    materialOpen(marker),
    ...sections.flatMap((section) => [
      materialHeading(marker, TITLES[section.kind]),
      '',
      section.text,
      '',
    ]),
    materialClose(marker),
  ].join('\n');
  return {
    text,
    hash: sha256Hex(text),
    marker,
    evidence: sections.flatMap((section) => section.evidence),
  };
}
