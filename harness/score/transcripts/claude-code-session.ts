/**
 * Claude Code's own session log, with its subagents (the lines are read by
 * claude-code-session-lines.ts): one session log and any of its subagents'
 * logs, given together, joined by agent id. Recognised by the log's line
 * envelope (`isSidechain`, `parentUuid`) or a line type only the log writes.
 *
 * - Calls: every `tool_use` block, once by id, with the `tool_result` that
 *   answers it; a subagent's calls (inline `agent_progress` lines, or its own
 *   log) are marked with the dispatch that started it, found through the
 *   agent id the dispatch's result names. A subagent log whose dispatch the
 *   files do not hold is a seat of its own (`agent:<id>`), and the controller's
 *   calls are then unknown.
 * - Seats: one per dispatch that started an agent, with its agent type (the
 *   engine's `agentType`, else the dispatch's subagent_type) and the model its
 *   replies name. Its calls are known when its log was given, or when the
 *   inline lines hold as many as its result counts (`totalToolUseCount`);
 *   otherwise they are unknown (null), never 0.
 * - The end: a log has no final result line. It is complete when the last
 *   turn of its main seat ends in text with no tool call pending; a log that
 *   ends on a call, a tool result or a user message did not finish.
 * - Models: every reply names its model; the controller's is its first.
 */
import { type InputError, inputError } from '../../lib/input-error.js';
import { err, ok, type Result } from '../../lib/result.js';
import { apiReportedModel } from '../reported-model.js';
import type { RunnerStatus } from '../runner-status.js';
import {
  agentIdInResult,
  isSubagentDispatch,
  refusedResume,
  stringField,
  type ToolCall,
} from '../tool-call.js';
import {
  isSessionLogLine,
  type LineSeat,
  type LogLine,
  readLogLines,
  type SessionMessage,
} from './claude-code-session-lines.js';
import { contentText } from './content-text.js';
import type { FormatReader, TranscriptSource } from './format-reader.js';
import type { MalformedLine, SessionTranscript, TranscriptSeat } from './session-transcript.js';

/** What a dispatch's result line says about the agent it ran. */
interface AgentFacts {
  readonly agentId?: string;
  readonly agentType?: string;
  readonly totalToolUseCount?: number;
}

const SKILL_BASE = /^Base directory for this skill:\s*(\S.*?)\s*$/m;

function seatKey(seat: LineSeat): string {
  return seat.kind === 'controller' ? 'controller' : `agent:${seat.agentId}`;
}

/** The last turn of one seat, for its ending: what came last, and the calls not answered. */
interface TurnState {
  last: 'none' | 'prompt' | 'text' | 'tool_use' | 'tool_result';
  lastPrompt: string;
  lastCall: string;
  pending: Set<string>;
  sawReply: boolean;
  /** The stop_reason of the last assistant message (null: the log does not record it). */
  stopReason: string | null;
}

function endingOf(state: TurnState | undefined, who: string): RunnerStatus {
  const indeterminate = (reason: string): RunnerStatus => ({
    kind: 'indeterminate',
    stage: 'engine',
    reason,
  });
  if (state === undefined || !state.sawReply) {
    return indeterminate(`the log holds no reply of the ${who}, so the session did not run`);
  }
  if (state.last === 'text' && state.pending.size === 0) {
    // A reply's blocks are one line each, and each line records the reply's stop_reason (newer
    // engines): a last text line of a reply that stopped for a tool call is a log cut before it.
    if (state.stopReason !== 'tool_use') return { kind: 'completed' };
    return indeterminate(
      `the log ends inside a reply of the ${who} that stopped for a tool call the log does not hold, so it was cut short`,
    );
  }
  if (state.last === 'tool_use' || state.pending.size > 0) {
    return indeterminate(
      `the log ends on a ${state.lastCall} call with no result, so the session may not have finished`,
    );
  }
  if (state.last === 'tool_result') {
    return indeterminate(
      'the log ends on a tool result with no reply after it, so the session may not have finished',
    );
  }
  return indeterminate(
    /^\[Request interrupted/.test(state.lastPrompt.trim())
      ? 'the user interrupted the session'
      : 'the log ends on a user message with no reply to it, so the session may not have finished',
  );
}

/**
 * The file of `perFile` whose session (the first session id it names) is
 * not the first file's, with both ids; undefined when they are one session.
 * (One log may name several ids, when a session was resumed: only files
 * are compared.)
 */
function otherSession(
  perFile: readonly (readonly LogLine[])[],
): { file: string; id: string; firstFile: string; firstId: string } | undefined {
  let first: { file: string; id: string } | undefined;
  for (const fileLines of perFile) {
    const named = fileLines.find((line) => line.sessionId !== undefined);
    if (named?.sessionId === undefined) continue;
    if (first === undefined) first = { file: named.file, id: named.sessionId };
    else if (named.sessionId !== first.id) {
      return { file: named.file, id: named.sessionId, firstFile: first.file, firstId: first.id };
    }
  }
  return undefined;
}

export function readClaudeCodeSession(
  sources: readonly TranscriptSource[],
): Result<SessionTranscript, InputError> {
  const malformed: MalformedLine[] = [];
  const perFile = sources.map((source) => {
    const read = readLogLines(source.text, source.name);
    malformed.push(...read.malformed);
    return read.lines;
  });
  // The session log first, its subagents' logs after it, whatever order they were given in.
  const holdsController = (fileLines: readonly LogLine[]) =>
    fileLines.some((line) => line.message.seat.kind === 'controller');
  const lines = [
    ...perFile.filter(holdsController).flat(),
    ...perFile.filter((fileLines) => !holdsController(fileLines)).flat(),
  ];
  const other = otherSession(perFile);
  if (other !== undefined) {
    return err(
      inputError(
        other.file,
        `is from another session (${other.id}) than ${other.firstFile} (${other.firstId})`,
        "give one session's log and its own subagents' logs",
      ),
    );
  }
  const multi = sources.length > 1;
  const calls = new Map<string, ToolCall>();
  const outputs = new Map<string, { output: string; isError: boolean }>();
  const facts = new Map<string, AgentFacts>();
  const loadedFrom = new Map<string, string>();
  /** The dispatch each agent id's inline lines came under. */
  const dispatchOfAgent = new Map<string, string>();
  /** Agents whose own log was given, and the calls read from such logs. */
  const agentFiles = new Set<string>();
  const fromOwnLog = new Set<string>();
  const modelsBySeat = new Map<string, string[]>();
  const turns = new Map<string, TurnState>();
  const textByMessage = new Map<string, string[]>();
  const lastTextMessage = new Map<string, string>();
  const prompts = new Map<string, string>();

  for (const { message } of lines) {
    const key = seatKey(message.seat);
    const ownLog = message.seat.kind === 'subagent' && message.seat.dispatch === null;
    if (message.seat.kind === 'subagent') {
      if (message.seat.dispatch !== null) {
        dispatchOfAgent.set(message.seat.agentId, message.seat.dispatch);
      } else {
        agentFiles.add(message.seat.agentId);
      }
    }
    const turn: TurnState = turns.get(key) ?? {
      last: 'none',
      lastPrompt: '',
      lastCall: '',
      pending: new Set(),
      sawReply: false,
      stopReason: null,
    };
    turns.set(key, turn);
    if (message.kind === 'assistant') turn.stopReason = message.stopReason;
    readMessage(message, key, {
      onCall: (call) => {
        if (!calls.has(call.id)) {
          calls.set(call.id, call);
          if (ownLog) fromOwnLog.add(call.id);
        }
        turn.last = 'tool_use';
        turn.lastCall = call.name;
        turn.pending.add(call.id);
        turn.sawReply = true;
      },
      onText: (messageId, text) => {
        const known = textByMessage.get(messageId) ?? [];
        if (!known.includes(text)) known.push(text);
        textByMessage.set(messageId, known);
        lastTextMessage.set(key, messageId);
        turn.last = 'text';
        turn.sawReply = true;
      },
      onModel: (model) => {
        const known = modelsBySeat.get(key) ?? [];
        if (!known.includes(model)) known.push(model);
        modelsBySeat.set(key, known);
      },
      onResult: (id, output, isError, result) => {
        outputs.set(id, { output, isError });
        turn.pending.delete(id);
        turn.last = 'tool_result';
        if (result !== undefined) facts.set(id, agentFacts(result));
      },
      onPrompt: (text) => {
        if (!prompts.has(key)) prompts.set(key, text);
        turn.last = 'prompt';
        turn.lastPrompt = text;
      },
      onSkillBase: (id, dir) => loadedFrom.set(id, dir),
    });
  }

  // Each dispatch's agent, from its result (else the inline lines under it, else its result text).
  const agentOfDispatch = new Map<string, string>();
  for (const [agentId, dispatch] of dispatchOfAgent) agentOfDispatch.set(dispatch, agentId);
  for (const call of calls.values()) {
    if (!isSubagentDispatch(call) || call.parentToolUseId !== null) continue;
    const agentId = facts.get(call.id)?.agentId ?? agentIdInResult(outputs.get(call.id)?.output);
    if (agentId !== undefined && agentId !== null) agentOfDispatch.set(call.id, agentId);
  }
  const dispatchByAgent = new Map(
    [...agentOfDispatch].map(([dispatch, agent]) => [agent, dispatch]),
  );

  const resolved = [...calls.values()].map((call): ToolCall => {
    const result = outputs.get(call.id);
    const parent =
      call.parentToolUseId?.startsWith('agent:') === true
        ? (dispatchByAgent.get(call.parentToolUseId.slice('agent:'.length)) ?? call.parentToolUseId)
        : call.parentToolUseId;
    const agentId = agentOfDispatch.get(call.id);
    const skillDir = loadedFrom.get(call.id);
    return {
      ...call,
      parentToolUseId: parent ?? null,
      ...(result === undefined ? {} : { output: result.output, isError: result.isError }),
      ...(agentId === undefined ? {} : { agentId }),
      ...(skillDir === undefined ? {} : { loadedFrom: skillDir }),
    };
  });
  const toolCalls = inDispatchOrder(resolved, fromOwnLog);
  const controllerRecorded = turns.has('controller');
  const seats = seatsOf(toolCalls, {
    facts,
    agentOfDispatch,
    agentFiles,
    modelsBySeat,
    hasResult: (id) => outputs.has(id),
  });
  const mainKey = controllerRecorded ? 'controller' : seatKey(firstSubagentSeat(lines));
  const replyMessage = lastTextMessage.get(mainKey);
  const reply =
    replyMessage === undefined ? undefined : textByMessage.get(replyMessage)?.join('\n\n');
  const controllerModels = modelsBySeat.get('controller') ?? [];
  const models = [...new Set([...controllerModels, ...[...modelsBySeat.values()].flat()])];
  return ok({
    format: 'claude-code-session',
    files: sources.map((source) => source.name),
    toolCalls,
    reply,
    model: controllerModels[0],
    models,
    prompt: prompts.get(mainKey),
    // The directory the session started in: its first line's (a later `cd` changes later lines').
    cwd: lines.find((line) => line.cwd !== undefined)?.cwd,
    malformed: multi ? malformed : malformed.map(({ file: _file, ...rest }) => rest),
    ending: endingOf(turns.get(mainKey), controllerRecorded ? 'controller' : 'subagent'),
    controllerRecorded,
    seats,
    questions: undefined,
  });
}

function firstSubagentSeat(lines: readonly LogLine[]): LineSeat {
  return (
    lines.find((line) => line.message.seat.kind === 'subagent')?.message.seat ?? {
      kind: 'controller',
    }
  );
}

function agentFacts(result: Record<string, unknown>): AgentFacts {
  return {
    ...(typeof result.agentId === 'string' ? { agentId: result.agentId } : {}),
    ...(typeof result.agentType === 'string' ? { agentType: result.agentType } : {}),
    ...(typeof result.totalToolUseCount === 'number'
      ? { totalToolUseCount: result.totalToolUseCount }
      : {}),
  };
}

interface MessageHandlers {
  readonly onCall: (call: ToolCall) => void;
  readonly onText: (messageId: string, text: string) => void;
  readonly onModel: (model: string) => void;
  readonly onResult: (
    id: string,
    output: string,
    isError: boolean,
    toolUseResult: Record<string, unknown> | undefined,
  ) => void;
  readonly onPrompt: (text: string) => void;
  readonly onSkillBase: (callId: string, dir: string) => void;
}

/** Hand one message's parts to the handlers: calls, texts, results, prompts. */
function readMessage(message: SessionMessage, key: string, on: MessageHandlers): void {
  const parent =
    message.seat.kind === 'controller'
      ? null
      : (message.seat.dispatch ?? `agent:${message.seat.agentId}`);
  if (message.kind === 'assistant') {
    const model = apiReportedModel(message.model) ?? undefined;
    if (model !== undefined) on.onModel(model);
    for (const block of message.blocks) {
      if (
        block.type === 'tool_use' &&
        typeof block.id === 'string' &&
        block.id !== '' &&
        typeof block.name === 'string' &&
        block.name !== ''
      ) {
        on.onCall({
          id: block.id,
          name: block.name,
          input: block.input,
          parentToolUseId: parent,
          ...(model === undefined ? {} : { model }),
        });
      } else if (block.type === 'text' && typeof block.text === 'string' && block.text.trim()) {
        on.onText(`${key}/${message.messageId}`, block.text);
      }
    }
    return;
  }
  if (message.meta) {
    const base = SKILL_BASE.exec(contentText(message.content))?.[1];
    if (message.sourceToolUseId !== undefined && base !== undefined) {
      on.onSkillBase(message.sourceToolUseId, base);
    }
    return;
  }
  if (typeof message.content !== 'string') {
    const results = message.content.filter((block) => block.type === 'tool_result');
    for (const block of results) {
      if (typeof block.tool_use_id !== 'string') continue;
      on.onResult(
        block.tool_use_id,
        contentText(block.content, { placeholders: true }),
        block.is_error === true,
        results.length === 1 ? message.toolUseResult : undefined,
      );
    }
    if (results.length > 0) return;
  }
  const text = contentText(message.content);
  if (text.trim() !== '') on.onPrompt(text);
}

/**
 * The calls in session order: a subagent's calls read from its own log
 * (`moved`) come just after the dispatch that started it; inline ones are
 * already where the parent log put them.
 */
function inDispatchOrder(calls: readonly ToolCall[], moved: ReadonlySet<string>): ToolCall[] {
  const ids = new Set(calls.map((call) => call.id));
  const after = new Map<string, ToolCall[]>();
  const main: ToolCall[] = [];
  for (const call of calls) {
    const parent = call.parentToolUseId ?? null;
    if (parent !== null && moved.has(call.id) && ids.has(parent)) {
      after.set(parent, [...(after.get(parent) ?? []), call]);
    } else {
      main.push(call);
    }
  }
  return main.flatMap((call) => [call, ...(after.get(call.id) ?? [])]);
}

function seatsOf(
  calls: readonly ToolCall[],
  known: {
    readonly facts: ReadonlyMap<string, AgentFacts>;
    readonly agentOfDispatch: ReadonlyMap<string, string>;
    readonly agentFiles: ReadonlySet<string>;
    readonly modelsBySeat: ReadonlyMap<string, readonly string[]>;
    readonly hasResult: (id: string) => boolean;
  },
): TranscriptSeat[] {
  const callsUnder = (dispatch: string) =>
    calls.filter((call) => call.parentToolUseId === dispatch).length;
  const sends = calls.filter(
    (call) => call.parentToolUseId === null && call.name === 'SendMessage' && !refusedResume(call),
  );
  const seats: TranscriptSeat[] = [];
  const seated = new Set<string>();
  for (const call of calls) {
    if (call.parentToolUseId !== null || !isSubagentDispatch(call)) continue;
    const agentId = known.agentOfDispatch.get(call.id) ?? null;
    const inline = callsUnder(call.id);
    if (agentId === null && inline === 0 && call.isError === true) continue;
    if (agentId !== null) seated.add(agentId);
    const total = known.facts.get(call.id)?.totalToolUseCount;
    const fromFile = agentId !== null && known.agentFiles.has(agentId);
    const complete =
      fromFile || (inline > 0 && (total === undefined || inline >= total)) || total === 0;
    const unknownWhy = complete
      ? undefined
      : !known.hasResult(call.id)
        ? 'the dispatch has no result in the log'
        : agentId === null
          ? 'the log names no agent id for it'
          : `its calls are in subagents/agent-${agentId}.jsonl beside the session log, which was not given`;
    const models = agentId === null ? [] : (known.modelsBySeat.get(`agent:${agentId}`) ?? []);
    seats.push({
      dispatch: call.id,
      agentId,
      tool: call.name,
      subagentType:
        known.facts.get(call.id)?.agentType ?? stringField(call.input, 'subagent_type') ?? null,
      model: stringField(call.input, 'model') ?? null,
      modelUsed: models.at(-1) ?? null,
      description: stringField(call.input, 'description') ?? null,
      resumes:
        agentId === null
          ? []
          : sends
              .filter((send) => stringField(send.input, 'to') === agentId)
              .map((send) => send.id),
      toolCalls: complete ? inline : null,
      ...(unknownWhy === undefined ? {} : { unknownWhy }),
      source: 'derived',
    });
  }
  for (const agentId of known.agentFiles) {
    if (seated.has(agentId)) continue;
    const dispatch = `agent:${agentId}`;
    const models = known.modelsBySeat.get(dispatch) ?? [];
    seats.push({
      dispatch,
      agentId,
      tool: 'unknown',
      subagentType: null,
      model: null,
      modelUsed: models.at(-1) ?? null,
      description: null,
      resumes: [],
      toolCalls: callsUnder(dispatch),
      source: 'derived',
    });
  }
  return seats;
}

export const claudeCodeSessionReader: FormatReader = {
  label: 'Claude Code session log',
  formats: ['claude-code-session'],
  recognises: (sample) => sample.lines.some(isSessionLogLine),
  multiFile: true,
  read: (sources) => readClaudeCodeSession(sources),
};
