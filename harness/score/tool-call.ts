import { z } from 'zod';
import { DISPATCH_REFUSAL, NOT_RUN_RESULT, toolRefusal } from './refusals.js';

/**
 * One tool call a session made, as scoring sees it: what was called with
 * which input, and what came back. Built from a transcript (see
 * transcripts/) or by any backend that records calls itself.
 *
 * `parentToolUseId` is non-null for calls made inside a subagent: it names
 * the main-session tool use (a `Task`/`Agent` call) that started that subagent.
 */
export const toolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
  output: z.string().optional(),
  isError: z.boolean().optional(),
  parentToolUseId: z.string().nullable().optional(),
  /** The model the reply that made the call names (a seat's model: its dispatch's tier, mapped). */
  model: z.string().min(1).optional(),
  /**
   * The tool's own name in the transcript's format, when the reader gave it
   * Claude Code's name for the same thing (Codex `exec_command` read as `Bash`).
   */
  recordedAs: z.string().min(1).optional(),
  /** For a dispatch: the id of the subagent it started, as the transcript records it. */
  agentId: z.string().min(1).optional(),
  /** For a Skill call: the directory the engine loaded the skill from, as the transcript records it. */
  loadedFrom: z.string().min(1).optional(),
});

export type ToolCall = z.infer<typeof toolCallSchema>;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The result of a call the first-dispatch capture refused because it came
 * after the captured dispatch in the same turn: `Not run.` from redgreen's
 * own loop, `PreToolUse:<Tool> hook error: Not run.` through Claude Code.
 */
const NOT_RUN = new RegExp(`^(?:PreToolUse:\\S+ hook error: )?${escapeRegExp(NOT_RUN_RESULT)}$`);

/**
 * Whether a call ran: false for one the capture refused as "Not run." (it
 * came after the captured dispatch), which is no call the session made and
 * is not counted or checked as one.
 */
export function callRan(call: ToolCall): boolean {
  return !(call.isError === true && call.output !== undefined && NOT_RUN.test(call.output.trim()));
}

/**
 * Whether a call is the one an event stop captured: refused with the
 * capture's own result (`<Tool> is not available in this session.`), not by
 * the tool. It is how a probe records the decision, so it counts as made.
 */
export function refusedByStop(call: ToolCall): boolean {
  return call.isError === true && (call.output ?? '').includes(toolRefusal(call.name));
}

/**
 * A SendMessage the tool refused (an error result: no live agent by that id,
 * a bad input): it reached no subagent, so it is no resume. The
 * first-dispatch capture's own refusal is the exception: it is how a probe
 * records the decision.
 */
export function refusedResume(call: ToolCall): boolean {
  if (call.name !== 'SendMessage') return false;
  if (call.isError === true) return !(call.output ?? '').includes(DISPATCH_REFUSAL);
  return undelivered(call.output);
}

/**
 * Claude Code answers a SendMessage it could not deliver (no agent by that
 * name is addressable, the agent failed) with an ordinary result whose JSON
 * says `"success": false`, not with an error result.
 */
function undelivered(output: string | undefined): boolean {
  const text = output?.trim() ?? '';
  if (!text.startsWith('{')) return false;
  try {
    const parsed = JSON.parse(text) as unknown;
    return (
      typeof parsed === 'object' &&
      parsed !== null &&
      (parsed as { success?: unknown }).success === false
    );
  } catch {
    return false;
  }
}

/**
 * The agent id a fresh dispatch's result names: the `agentId: …` line at the
 * start of a line, the last one (Claude Code indents the subagent's report
 * above it, so an id the report quotes is never taken for the agent's own).
 */
export function agentIdInResult(output: string | undefined): string | null {
  const found = [...(output ?? '').matchAll(/^agentId: ([\w-]+)/gm)];
  return found.at(-1)?.[1] ?? null;
}

/** Tool names Claude Code uses to start a subagent. */
export const SUBAGENT_TOOL_NAMES: readonly string[] = ['Task', 'Agent'];

/** A call that starts a subagent (the prompt forbids these). */
export function isSubagentDispatch(call: ToolCall): boolean {
  return SUBAGENT_TOOL_NAMES.includes(call.name);
}

/** A call made by a subagent rather than by the main session. */
export function isInsideSubagent(call: ToolCall): boolean {
  return call.parentToolUseId !== undefined && call.parentToolUseId !== null;
}

/** The `command` of a Bash call, or undefined for any other call. */
export function bashCommand(call: ToolCall): string | undefined {
  if (call.name !== 'Bash') return undefined;
  return stringField(call.input, 'command');
}

/** A string field of a tool input object, or undefined when absent or not a string. */
export function stringField(input: unknown, field: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : undefined;
}
