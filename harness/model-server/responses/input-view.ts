/**
 * A Responses request read into the conversation view the scripted policies
 * use: the Messages-API shapes conversation.ts reads (tool_use blocks paired
 * with tool_result blocks, user and assistant text, a system text), built
 * from Codex's `input` items through the tool map (codex-tools.ts). Developer
 * and system messages become the system text; each policy turn's Codex calls
 * (its place in the turn travels in the call id) become one assistant turn
 * of tool_use blocks under the policy's own tool names and ids, answered by
 * their outputs; a spawn or send_input with its face-made wait is one
 * Agent or SendMessage call answered by the wait's result.
 *
 * When the last turn holds a spawn or a send_input whose wait the face has
 * not asked for yet, the view says so (`pendingWaits`): the face answers
 * those waits itself, without asking the policy.
 */
import { err, ok, type Result } from '../../lib/result.js';
import { type ApiError, apiError } from '../api-error.js';
import type { ContentBlock, CreateMessageRequest, MessageParam } from '../api-schema.js';
import {
  type CodexCall,
  codexListedSkills,
  type FaceCallId,
  type ListedSkill,
  type Outcome,
  readCallId,
  shellOutcome,
  skillListing,
  skillOutcome,
  spawnedAgentId,
  viewToolsOffered,
  waitCallFor,
  waitOutcome,
} from './codex-tools.js';
import {
  type CreateResponseRequest,
  type CustomToolCallItem,
  type FunctionCallItem,
  type InputItem,
  isCallItem,
  isMessageItem,
  isToolOutputItem,
  type ToolOutputItem,
  textParts,
} from './request-schema.js';

export interface ResponsesView {
  /** The request as the Messages face would have received it. */
  readonly message: CreateMessageRequest;
  /** Waits the face owes before the policy's turn can go on (empty: ask the policy). */
  readonly pendingWaits: readonly CodexCall[];
  /** The skills Codex lists, which the policy's Skill calls read through the shell. */
  readonly skills: readonly ListedSkill[];
  /** The Codex responses the thread's history holds; the one asked for is this + 1. */
  readonly responses: number;
  readonly firstUserText: string;
  readonly lastUserText: string;
}

type CallItem = FunctionCallItem | CustomToolCallItem;

interface CallsEntry {
  readonly kind: 'calls';
  readonly calls: { readonly item: CallItem; readonly face: FaceCallId | undefined }[];
}

type Entry =
  | { readonly kind: 'user' | 'assistant'; readonly texts: readonly string[] }
  | CallsEntry;

const shellTools = new Set(['Bash', 'Read', 'Glob', 'Grep', 'Write', 'Skill']);

export function readResponsesRequest(
  request: CreateResponseRequest,
): Result<ResponsesView, ApiError> {
  const items: readonly InputItem[] =
    typeof request.input === 'string'
      ? [{ type: 'message', role: 'user', content: request.input }]
      : request.input;
  if (request.tools === undefined && items.some((item) => item.type === 'additional_tools')) {
    return err(
      invalid(
        'input: this request offers its tools through code mode (additional_tools), which the scripted face does not drive; give the model a catalog entry without tool_mode "code_mode_only"',
      ),
    );
  }

  const system: string[] = request.instructions ? [request.instructions] : [];
  const outputs = new Map<string, ToolOutputItem>();
  const waits = new Map<string, CallItem>();
  const entries: Entry[] = [];
  const seenCallIds = new Set<string>();
  for (const [index, item] of items.entries()) {
    if (isToolOutputItem(item)) {
      if (outputs.has(item.call_id)) {
        return err(invalid(`input.${index}: call_id ${item.call_id} has two outputs`));
      }
      outputs.set(item.call_id, item);
      continue;
    }
    if (isCallItem(item)) {
      if (seenCallIds.has(item.call_id)) {
        return err(invalid(`input.${index}: call_id ${item.call_id} is used more than once`));
      }
      seenCallIds.add(item.call_id);
      const face = readCallId(item.call_id);
      if (face?.kind === 'wait') {
        waits.set(face.policyId, item);
        continue;
      }
      const last = entries.at(-1);
      const continues =
        last?.kind === 'calls' &&
        (face === undefined
          ? last.calls.at(-1)?.face === undefined
          : face.index > 0 && last.calls.at(-1)?.face?.kind === 'call');
      if (continues) last.calls.push({ item, face });
      else entries.push({ kind: 'calls', calls: [{ item, face }] });
      continue;
    }
    if (!isMessageItem(item)) continue;
    const texts = textParts(item.content);
    // Codex's context (AGENTS.md, the environment) travels as user messages;
    // it is the engine's, not the user's words: the view files it with the
    // system text, as Claude Code's own context is kept out of the request.
    if (item.role === 'developer' || item.role === 'system' || isEngineContext(item.role, texts)) {
      system.push(...texts);
    } else entries.push({ kind: item.role, texts });
  }

  const skills = codexListedSkills(system.join('\n'));
  const listing = skillListing(skills);
  const systemText = [
    ...system,
    ...engineFacts(system),
    ...(listing === undefined ? [] : [listing]),
  ].join('\n\n');
  const messages: MessageParam[] = [];
  const pendingWaits: CodexCall[] = [];
  let responses = 0;
  for (const [position, entry] of entries.entries()) {
    if (entry.kind !== 'calls') {
      if (entry.kind === 'assistant') responses += 1;
      if (entry.texts.length > 0) {
        messages.push({
          role: entry.kind,
          content: entry.texts.map((text) => ({ type: 'text' as const, text })),
        });
      }
      continue;
    }
    responses += 1;
    const uses: ContentBlock[] = [];
    const results: ContentBlock[] = [];
    const loaded: ContentBlock[] = [];
    let waited = false;
    for (const { item, face } of entry.calls) {
      const id = face?.kind === 'call' ? face.policyId : item.call_id;
      const tool = face?.kind === 'call' ? face.tool : item.name;
      const args = argumentsOf(item);
      uses.push({ type: 'tool_use', id, name: tool, input: policyInputOf(tool, args) });
      const output = outputs.get(item.call_id);
      if (output === undefined) {
        return err(invalid(`input: the call ${item.call_id} (${item.name}) has no output`));
      }
      const text = textParts(output.output).join('\n');
      const outcome =
        tool === 'Skill'
          ? ({
              kind: 'result',
              value: skillOutcome(text, typeof args.cmd === 'string' ? args.cmd : '', skills),
              waited: false,
            } as const)
          : outcomeOf(tool, text, args, id, waits, outputs);
      if (outcome.kind === 'error') return err(outcome.error);
      if (outcome.kind === 'waits-on') {
        if (position !== lastCallsEntry(entries)) {
          return err(invalid(`input: the agent call ${item.call_id} was never waited for`));
        }
        pendingWaits.push(waitCallFor(id, outcome.agentId));
        continue;
      }
      if (outcome.waited) waited = true;
      results.push({
        type: 'tool_result',
        tool_use_id: id,
        content: outcome.value.text,
        is_error: outcome.value.isError,
      });
      if ('loaded' in outcome.value && typeof outcome.value.loaded === 'string') {
        loaded.push({ type: 'text', text: outcome.value.loaded });
      }
    }
    if (waited) responses += 1;
    messages.push({ role: 'assistant', content: uses });
    if (pendingWaits.length === 0)
      messages.push({ role: 'user', content: [...results, ...loaded] });
  }

  const userTexts = entries.flatMap((entry) =>
    entry.kind === 'user' ? [entry.texts.join('\n')] : [],
  );
  if (messages.length === 0) {
    return err(invalid('input: the request holds no user or assistant message'));
  }
  const offered = viewToolsOffered(request.tools ?? [], systemText, skills);
  return ok({
    message: {
      model: request.model,
      max_tokens: 32_000,
      stream: request.stream === true,
      system: systemText,
      messages,
      tools: [...offered].map((name) => ({ name })),
    },
    pendingWaits,
    skills,
    responses,
    firstUserText: userTexts[0] ?? '',
    lastUserText: userTexts.at(-1) ?? '',
  });
}

type CallOutcome =
  | { readonly kind: 'result'; readonly value: Outcome; readonly waited: boolean }
  | { readonly kind: 'waits-on'; readonly agentId: string }
  | { readonly kind: 'error'; readonly error: ApiError };

function outcomeOf(
  tool: string,
  text: string,
  args: Readonly<Record<string, unknown>>,
  policyId: string,
  waits: ReadonlyMap<string, CallItem>,
  outputs: ReadonlyMap<string, ToolOutputItem>,
): CallOutcome {
  if (shellTools.has(tool)) return { kind: 'result', value: shellOutcome(text), waited: false };
  if (tool !== 'Agent' && tool !== 'Task' && tool !== 'SendMessage') {
    return { kind: 'result', value: { text, isError: false }, waited: false };
  }
  const agentId =
    tool === 'SendMessage'
      ? typeof args.target === 'string'
        ? args.target
        : undefined
      : spawnedAgentId(text);
  // A spawn that failed (an unknown model, a depth limit) is the call's result.
  if (agentId === undefined || (tool === 'SendMessage' && !/submission_id/.test(text))) {
    return { kind: 'result', value: { text, isError: true }, waited: false };
  }
  const wait = waits.get(policyId);
  if (wait === undefined) return { kind: 'waits-on', agentId };
  const waitOutput = outputs.get(wait.call_id);
  if (waitOutput === undefined) {
    return {
      kind: 'error',
      error: invalid(`input: the call ${wait.call_id} (wait_agent) has no output`),
    };
  }
  return {
    kind: 'result',
    value: waitOutcome(textParts(waitOutput.output).join('\n'), agentId),
    waited: true,
  };
}

const engineContext = /^(?:# AGENTS\.md instructions(?: for |\n)|<environment_context>)/;

function isEngineContext(role: string, texts: readonly string[]): boolean {
  return (
    role === 'user' &&
    texts.length > 0 &&
    texts.every((text) => engineContext.test(text.trimStart()))
  );
}

/**
 * What Codex states in its environment context that the policies read from
 * Claude Code's system text: the working directory, said the way Claude Code
 * says it.
 */
function engineFacts(system: readonly string[]): string[] {
  for (const text of system) {
    const cwd = /<environment_context>[\s\S]*?<cwd>([^<]+)<\/cwd>/.exec(text)?.[1];
    if (cwd !== undefined) return [`Working directory: ${cwd.trim()}`];
  }
  return [];
}

function lastCallsEntry(entries: readonly Entry[]): number {
  return entries.findLastIndex((entry) => entry.kind === 'calls');
}

function argumentsOf(item: CallItem): Readonly<Record<string, unknown>> {
  if (item.type === 'custom_tool_call') return { input: item.input };
  try {
    const parsed: unknown = JSON.parse(item.arguments);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { arguments: item.arguments };
  } catch {
    return { arguments: item.arguments };
  }
}

/** A policy call's input as the view shows it: what Codex ran, under the policy tool's keys. */
function policyInputOf(
  tool: string,
  args: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  if (shellTools.has(tool)) return { command: args.cmd };
  if (tool === 'Agent' || tool === 'Task') return { prompt: args.message };
  if (tool === 'SendMessage') return { to: args.target, message: args.message };
  return { ...args };
}

function invalid(message: string): ApiError {
  return apiError('invalid_request_error', message);
}
