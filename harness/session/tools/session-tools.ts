/**
 * The tools one `messages`-backend session offers, and how each of its calls
 * is answered: Bash, Read, Glob and Grep run (tools/index.ts); the subagent
 * tools (and, under `stop: first-dispatch`, the question tool) are offered
 * under Claude Code's names and schemas (dispatch-tools.ts). Under
 * `stop: complete` a valid `Agent`/`Task` call starts a subagent, SendMessage
 * resumes one (../subagent-seats.ts) and AskUserQuestion is answered by the
 * scripted user (../scripted-user-session.ts); otherwise no subagent ever runs and no
 * one is reached: a valid call is refused with the fixed neutral result, and
 * under `stop: first-dispatch` the controller's first one is captured first
 * (../dispatch-capture.ts).
 */
import type Anthropic from '@anthropic-ai/sdk';
import { CONTROLLER_SEAT } from '../../score/seat-record.js';
import type { StopMode } from '../../score/stop-mode.js';
import {
  type DispatchCapture,
  isCapturedTool,
  NOT_RUN_RESULT,
  refusalFor,
} from '../dispatch-capture.js';
import { type InstalledLibrary, skillToolAnswer } from '../installed-library.js';
import type { ScriptedUserSession } from '../scripted-user-session.js';
import {
  REFUSED_TOOLS,
  sessionToolNames,
  type ToolChanges,
  toolRefusal,
} from '../session-tool-table.js';
import type { SubagentSeats } from '../subagent-seats.js';
import {
  agentInputSchema,
  agentToolDefinition,
  askUserQuestionToolDefinition,
  dispatchInputProblem,
  sendMessageInputSchema,
  sendMessageToolDefinition,
} from './dispatch-tools.js';
import { executeTool, type ToolContext, type ToolOutput, toolDefinitions } from './index.js';
import { skillToolDefinition, webFetchToolDefinition } from './skill-tools.js';

/**
 * The tools a session is offered: Bash, Read, Glob and Grep, and the subagent
 * tool `Agent` (as Claude Code offers it), whose calls are refused; under
 * `stop: first-dispatch` also `SendMessage` and `AskUserQuestion`, as the
 * claude-code backend offers them then; under `stop: complete` `Agent` and
 * `SendMessage`, whose calls run subagents, and `AskUserQuestion`, which the
 * scripted user answers. The last tool carries the cache
 * breakpoint.
 */
export function offeredTools(
  stop: StopMode,
  options: { readonly library: boolean; readonly changes?: ToolChanges | undefined } = {
    library: false,
  },
): Anthropic.Tool[] {
  const tools = sessionToolNames('messages', stop, options).map((name) => {
    const definition = DEFINITIONS.get(name);
    if (definition === undefined) throw new Error(`the messages backend has no ${name} tool`);
    return definition;
  });
  return tools.map((tool, index) =>
    index === tools.length - 1 ? { ...tool, cache_control: { type: 'ephemeral' } } : tool,
  );
}

/** Every tool the backend can offer, by name (the table in ../session-tool-table.ts lists them). */
const DEFINITIONS: ReadonlyMap<string, Anthropic.Tool> = new Map(
  [
    ...toolDefinitions,
    agentToolDefinition,
    sendMessageToolDefinition,
    askUserQuestionToolDefinition,
    skillToolDefinition,
    webFetchToolDefinition,
  ].map((tool) => [tool.name, tool]),
);

/** Whether a call names a subagent or question tool this session offers (`Task` is Agent's other name). */
function offersCapturedTool(tools: readonly Anthropic.Tool[], name: string): boolean {
  if (!isCapturedTool(name)) return false;
  const offered = name === 'Task' ? 'Agent' : name;
  return tools.some((tool) => tool.name === offered);
}

/**
 * Answer one call of a turn. A call after a captured dispatch (or after a
 * seat limit was met) is not run; a subagent tool call is validated and then,
 * when the session has seats (`stop: complete`), run as a subagent, else
 * refused like a question tool call (captured first, under
 * `stop: first-dispatch`); anything else runs.
 */
export async function answerCall(
  call: Anthropic.ToolUseBlock,
  session: {
    readonly tools: readonly Anthropic.Tool[];
    readonly capture: DispatchCapture | undefined;
    readonly seats?: SubagentSeats | undefined;
    /** Under `stop: complete`: answers AskUserQuestion calls (../scripted-user-session.ts). */
    readonly user?: ScriptedUserSession | undefined;
    readonly toolContext: ToolContext;
    readonly signal: AbortSignal;
    /** The installed skills library, whose Skill tool calls are answered here. */
    readonly library?: InstalledLibrary | undefined;
  },
): Promise<ToolOutput> {
  if ((session.capture?.captured ?? null) !== null || session.seats?.limitReached !== undefined)
    return { content: NOT_RUN_RESULT, isError: true };
  const offered = session.tools.some((tool) => tool.name === call.name);
  // An event stop decides every call before it runs; a dispatch or question after its input is checked.
  if (
    offered &&
    !isCapturedTool(call.name) &&
    session.capture?.decide({
      toolUseId: call.id,
      tool: call.name,
      input: call.input,
      insideSubagent: false,
    }) === 'capture'
  ) {
    return { content: refusalFor(call.name), isError: true };
  }
  if (offered && REFUSED_TOOLS.includes(call.name)) {
    return { content: toolRefusal(call.name), isError: true };
  }
  if (offered && call.name === 'Skill' && session.library !== undefined) {
    const answer = skillToolAnswer(session.library, call.input);
    return { content: answer.result, isError: answer.isError, followUp: answer.loaded };
  }
  if (offersCapturedTool(session.tools, call.name)) {
    const problem = dispatchInputProblem(call.name, call.input);
    if (problem !== undefined) return problem;
    if (session.seats !== undefined && call.name === 'SendMessage') {
      return session.seats.resume(call, sendMessageInputSchema.parse(call.input));
    }
    if (session.user !== undefined && call.name === 'AskUserQuestion') {
      const answered = await session.user.answerQuestionCall(call.id, call.input, CONTROLLER_SEAT);
      return { content: answered.result, isError: answered.isError };
    }
    if (session.seats !== undefined && call.name !== 'AskUserQuestion') {
      return session.seats.dispatch(call, agentInputSchema.parse(call.input));
    }
    session.capture?.decide({
      toolUseId: call.id,
      tool: call.name,
      input: call.input,
      insideSubagent: false,
    });
    return { content: refusalFor(call.name), isError: true };
  }
  return executeTool(call.name, call.input, session.toolContext, session.signal);
}
