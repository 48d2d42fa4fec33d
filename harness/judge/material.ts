/**
 * The material a judge sees for one rep, as one deterministic text: the
 * reply, the controller's subagent dispatches (with the captured first
 * dispatch), a digest of the tool calls with their inputs, the diff of the
 * files the session changed (from the before and after snapshots and the
 * file texts captured at rep time), and, only when the scenario asks for it,
 * the skill text under test. Each part is capped, and a cut says so.
 *
 * Everything here is pure: readRepMaterial (material-files.ts) reads the
 * rep's files and hands their contents in. The same parts always give the
 * same text, so its hash keys a stored judgement.
 */
import { diffSnapshots, type Snapshot } from '../fixture/snapshot-schema.js';
import { sha256Hex } from '../lib/hash.js';
import type { CapturedFile } from '../score/evidence.js';
import type { CapturedDispatchRecord } from '../score/reply-file.js';
import type { ToolCall } from '../score/tool-call.js';
import type { MaterialKind } from './judge-spec.js';
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
}

export interface Material {
  /** The whole material, opening and closing tags included, as the judge receives it. */
  readonly text: string;
  /** sha256 of the text. */
  readonly hash: string;
}

export const MATERIAL_OPEN = '<material>';
export const MATERIAL_CLOSE = '</material>';

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

function inputJson(input: unknown, pretty: boolean): string {
  try {
    return JSON.stringify(input, null, pretty ? 2 : undefined) ?? 'null';
  } catch {
    return String(input);
  }
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

function dispatchSection(parts: MaterialParts): string {
  const dispatches = dispatchesOf(parts);
  if (parts.toolCalls === undefined && parts.capturedDispatch === null) {
    return '(no transcript: dispatches unknown)';
  }
  if (dispatches.length === 0) return 'none: the controller dispatched no subagent';
  return dispatches
    .map(
      (dispatch, index) =>
        `Dispatch ${index + 1}: ${dispatch.tool} (${dispatch.tool === 'SendMessage' ? 'message to a live agent' : 'a new agent'})${dispatch.captured ? ', captured: the session ended here and nothing ran' : ''}\n${capText(inputJson(dispatch.input, true), CAPS.dispatchInput)}`,
    )
    .join('\n\n');
}

/** One line per tool call: number, seat, tool name and its input (capped). */
export function toolCallDigest(calls: readonly ToolCall[], limit: number = CAPS.calls): string[] {
  const lines = calls
    .slice(0, limit)
    .map(
      (call, index) =>
        `${index + 1}. ${isController(call) ? '' : '[inside a subagent] '}${call.name} ${capText(inputJson(call.input, false), CAPS.callInput)}`,
    );
  if (calls.length > limit) lines.push(`[… ${calls.length - limit} more tool calls not shown]`);
  return lines;
}

function toolCallSection(parts: MaterialParts): string {
  const calls = parts.toolCalls;
  if (calls === undefined) return '(no transcript: tool calls unknown)';
  if (calls.length === 0) return 'none: the session made no tool call';
  const controller = calls.filter(isController).length;
  return [
    `${controller} by the controller, ${calls.length - controller} inside subagents; inputs shown, outputs not.`,
    ...toolCallDigest(calls),
  ].join('\n');
}

function fileText(
  files: Readonly<Record<string, CapturedFile>> | undefined,
  repoPath: string,
): { text: string } | { why: string } {
  const file = files !== undefined && Object.hasOwn(files, repoPath) ? files[repoPath] : undefined;
  if (file === undefined) return { why: 'not captured' };
  return 'text' in file ? { text: file.text } : { why: file.omitted };
}

function prefixed(text: string, mark: string): string {
  return capText(text, CAPS.fileText)
    .split('\n')
    .map((line) => `${mark}${line}`)
    .join('\n');
}

/** The files the session changed: HEAD and refs, then each added, modified or removed file. */
export function diffSection(
  parts: Pick<MaterialParts, 'before' | 'after' | 'filesBefore' | 'filesAfter'>,
): string {
  if (parts.before === undefined || parts.after === undefined) {
    return '(no snapshots: the changes are unknown)';
  }
  const diff = diffSnapshots(parts.before, parts.after);
  const out: string[] = [];
  out.push(
    diff.headBefore === diff.headAfter
      ? `HEAD unchanged (${diff.headBefore ?? 'none'})`
      : `HEAD moved: ${diff.headBefore ?? 'none'} -> ${diff.headAfter ?? 'none'}`,
  );
  for (const change of diff.refChanges) {
    out.push(`ref ${change.ref}: ${change.before ?? 'absent'} -> ${change.after ?? 'absent'}`);
  }
  if (diff.fileChanges.length === 0) {
    out.push('No file in the work tree was added, modified or removed.');
    return out.join('\n');
  }
  for (const change of diff.fileChanges) {
    const tracked = change.trackedAfter || change.trackedBefore ? 'tracked' : 'untracked';
    const before = fileText(parts.filesBefore, change.path);
    const after = fileText(parts.filesAfter, change.path);
    out.push('');
    if (change.kind === 'added') {
      out.push(`added: ${change.path} (${tracked})`);
      out.push('text' in after ? prefixed(after.text, '+') : `(its text: ${after.why})`);
    } else if (change.kind === 'removed') {
      out.push(`removed: ${change.path} (${tracked})`);
      out.push('text' in before ? prefixed(before.text, '-') : `(its text before: ${before.why})`);
    } else {
      out.push(`modified: ${change.path} (${tracked})`);
      if ('text' in before && 'text' in after) {
        out.push(capText(unifiedDiff(before.text, after.text), CAPS.fileText));
      } else if ('text' in after) {
        out.push(`(its text before the session: ${'why' in before ? before.why : ''}; after:)`);
        out.push(prefixed(after.text, '+'));
      } else {
        out.push(`(its text after the session: ${after.why})`);
      }
    }
  }
  return capText(out.join('\n'), CAPS.diff);
}

const TITLES: Readonly<Record<MaterialKind, string>> = {
  reply: 'Reply (the final message of the session, verbatim)',
  dispatches: 'Subagent dispatches by the controller',
  'tool-calls': 'Tool calls, in order',
  diff: 'Files the session changed',
  skill: 'Skill text under test (SKILL.md)',
};

/** The material of one rep, in the order the kinds are named. Pure. */
export function buildMaterial(parts: MaterialParts, kinds: readonly MaterialKind[]): Material {
  const section = (kind: MaterialKind): string => {
    switch (kind) {
      case 'reply':
        return parts.reply.trim() === '' ? '(no reply text)' : capText(parts.reply, CAPS.reply);
      case 'dispatches':
        return dispatchSection(parts);
      case 'tool-calls':
        return toolCallSection(parts);
      case 'diff':
        return diffSection(parts);
      case 'skill':
        return parts.skillText === undefined
          ? '(the skill text could not be read)'
          : capText(parts.skillText, CAPS.skill);
    }
  };
  const text = [
    MATERIAL_OPEN,
    ...kinds.flatMap((kind) => [`## ${TITLES[kind]}`, '', section(kind), '']),
    MATERIAL_CLOSE,
  ].join('\n');
  return { text, hash: sha256Hex(text) };
}
