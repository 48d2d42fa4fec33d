/**
 * Codex CLI rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`): one
 * file per thread, each line `{timestamp, type, payload}` with `type`
 * `session_meta`, `turn_context`, `response_item`, `event_msg`. Recognised by
 * that envelope. A session is its root thread's rollout plus, given with it,
 * the rollouts of the threads it spawned (their `session_meta.source` is
 * `{subagent: {thread_spawn: {parent_thread_id, …}}}`), joined by thread id.
 *
 * `readCodexRollouts` is the whole reader, so a Codex backend can turn the
 * rollouts of a run it made into a transcript with it:
 *
 * - calls: every `function_call`, `custom_tool_call` and `local_shell_call`
 *   item once by `call_id`, with the output item that answers it, in Claude
 *   Code's names where Codex does the same thing (codex-tools.ts);
 * - seats: each spawned thread, started by the `spawn_agent` call whose
 *   result names its thread id (`agent_id`); its calls follow that call. A
 *   spawned thread whose parent is not given is a seat of its own
 *   (`thread:<id>`) and the controller's calls are then unknown; a spawn
 *   whose thread's rollout is not given is a seat whose calls are unknown;
 * - `send_input` (and v2's `followup_task`) to a live thread is a resume of
 *   its seat (SendMessage);
 * - the model from `turn_context`, the reply from the last assistant message
 *   (else `task_complete.last_agent_message`), the prompt from the first user
 *   message that is not Codex's own context (`<environment_context>`,
 *   AGENTS.md instructions, a `<skill>` injection);
 * - the end: complete when the main thread's last turn ends with
 *   `task_complete`; a turn that was aborted, or a rollout that stops before
 *   `task_complete`, did not finish.
 *
 * Not read: reasoning items, token counts, the sandbox's denials beyond the
 * call's output, and tool calls made inside a code-mode script other than
 * its shell commands.
 */
import { type InputError, inputError } from '../../lib/input-error.js';
import { err, ok, type Result } from '../../lib/result.js';
import type { RunnerStatus } from '../runner-status.js';
import { refusedResume, stringField, type ToolCall } from '../tool-call.js';
import {
  type CodexCall,
  customToolCall,
  functionCall,
  localShellCall,
  outputFailed,
  outputText,
  spawnedAgentId,
  webSearchCall,
} from './codex-tools.js';
import { contentText } from './content-text.js';
import { type FormatReader, jsonLines, recordOf, type TranscriptSource } from './format-reader.js';
import type { MalformedLine, SessionTranscript, TranscriptSeat } from './session-transcript.js';

const ENVELOPE_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg']);

/**
 * Rollout line types that hold no call of their own: a compaction's history
 * repeats earlier lines; `world_state` (the AGENTS.md text, the collaboration
 * mode) and `token_usage_record` (a response's usage) are what Codex 0.169
 * writes beside them.
 */
const PASSED_OVER_LINES = new Set(['compacted', 'world_state', 'token_usage_record']);

/**
 * Response items that are not calls, or answer one: passed over. Any item type
 * neither read as a call nor named here is listed as unreadable, so a call of
 * a kind this reader does not know is never silently left out.
 */
const NOT_CALLS = new Set([
  'message',
  'reasoning',
  'function_call_output',
  'custom_tool_call_output',
  'tool_search_output',
  'ghost_snapshot',
  'compaction',
  'compaction_summary',
]);

/** Whether a parsed line is a rollout line. */
function isRolloutLine(value: unknown): boolean {
  const line = recordOf(value);
  return (
    line !== undefined &&
    typeof line.type === 'string' &&
    ENVELOPE_TYPES.has(line.type) &&
    recordOf(line.payload) !== undefined
  );
}

/** One thread's rollout, read. */
interface Thread {
  readonly file: string;
  readonly id: string;
  readonly sessionId: string | undefined;
  /** The thread that spawned it; undefined for a root thread. */
  readonly parent: string | undefined;
  readonly nickname: string | undefined;
  readonly role: string | undefined;
  /** The working directory the thread ran in (session_meta). */
  readonly cwd: string | undefined;
  readonly calls: ToolCall[];
  readonly models: string[];
  prompt: string | undefined;
  reply: string | undefined;
  lastAgentMessage: string | undefined;
  /** What ended its last turn: task_complete, an abort, or nothing yet. */
  end: 'complete' | 'aborted' | 'open';
}

/** Response items read as calls. */
const CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call']);

/** Codex's own context messages, which are no prompt. */
const CONTEXT_MESSAGE =
  /^\s*(?:<(?:environment_context|user_instructions|skill|subagent_notification)\b|# AGENTS\.md instructions)/;

function readThread(
  source: TranscriptSource,
  index: number,
): { thread: Thread; malformed: MalformedLine[] } {
  const malformed: MalformedLine[] = [];
  const calls = new Map<string, ToolCall>();
  const outputs = new Map<string, string>();
  let meta: Record<string, unknown> | undefined;
  let model: string | undefined;
  const models: string[] = [];
  const thread: Omit<Thread, 'id' | 'sessionId' | 'parent' | 'nickname' | 'role' | 'cwd'> = {
    file: source.name,
    calls: [],
    models,
    prompt: undefined,
    reply: undefined,
    lastAgentMessage: undefined,
    end: 'open',
  };
  const addCall = (callId: unknown, line: number, read: CodexCall) => {
    const id = typeof callId === 'string' && callId !== '' ? callId : `${source.name}:${line}`;
    if (calls.has(id)) return;
    calls.set(id, {
      id,
      name: read.name,
      input: read.input,
      parentToolUseId: null,
      ...(read.recordedAs === undefined ? {} : { recordedAs: read.recordedAs }),
      ...(model === undefined ? {} : { model }),
    });
    thread.end = 'open';
  };
  for (const { line, value, error } of jsonLines(source.text)) {
    const record = recordOf(value);
    const payload = recordOf(record?.payload);
    if (record === undefined || payload === undefined || typeof record.type !== 'string') {
      malformed.push({
        line,
        file: source.name,
        problem:
          error === undefined
            ? 'not a rollout line ({timestamp, type, payload})'
            : `not JSON (${error})`,
      });
      continue;
    }
    if (record.type === 'session_meta') {
      meta ??= payload;
    } else if (record.type === 'turn_context') {
      if (typeof payload.model === 'string' && payload.model !== '') {
        model = payload.model;
        if (!models.includes(model)) models.push(model);
      }
    } else if (record.type === 'event_msg') {
      if (payload.type === 'task_complete') {
        thread.end = 'complete';
        if (typeof payload.last_agent_message === 'string') {
          thread.lastAgentMessage = payload.last_agent_message;
        }
      } else if (payload.type === 'turn_aborted') {
        thread.end = 'aborted';
      }
    } else if (record.type === 'response_item') {
      const kind = payload.type;
      if (kind === 'function_call' && typeof payload.name === 'string') {
        addCall(
          payload.call_id,
          line,
          functionCall(payload.name, payload.namespace, payload.arguments),
        );
      } else if (kind === 'custom_tool_call' && typeof payload.name === 'string') {
        addCall(payload.call_id, line, customToolCall(payload.name, payload.input));
      } else if (kind === 'local_shell_call') {
        addCall(payload.call_id, line, localShellCall(payload.action));
      } else if (kind === 'web_search_call') {
        addCall(payload.call_id ?? payload.id, line, webSearchCall(payload.action));
      } else if (
        (kind === 'function_call_output' || kind === 'custom_tool_call_output') &&
        typeof payload.call_id === 'string'
      ) {
        outputs.set(payload.call_id, outputText(payload.output));
      } else if (kind === 'message') {
        const text = contentText(payload.content);
        if (payload.role === 'assistant' && text.trim() !== '') {
          thread.reply = text;
          thread.end = 'open';
        } else if (payload.role === 'user' && thread.prompt === undefined && text.trim() !== '') {
          if (!CONTEXT_MESSAGE.test(text)) thread.prompt = text;
        }
      }
      if (!CALLS.has(String(kind)) && !NOT_CALLS.has(String(kind))) {
        malformed.push({
          line,
          file: source.name,
          problem: `a response item of type ${JSON.stringify(kind)}, which this reader does not read (a call in it is not counted)`,
        });
      }
    } else if (!PASSED_OVER_LINES.has(record.type)) {
      malformed.push({
        line,
        file: source.name,
        problem: `a rollout line of type ${JSON.stringify(record.type)}, which this reader does not read`,
      });
    }
  }
  const spawn = recordOf(recordOf(recordOf(meta?.source)?.subagent)?.thread_spawn);
  const parent =
    typeof spawn?.parent_thread_id === 'string'
      ? spawn.parent_thread_id
      : typeof meta?.parent_thread_id === 'string'
        ? meta.parent_thread_id
        : undefined;
  const withOutputs = [...calls.values()].map((call): ToolCall => {
    const output = outputs.get(call.id);
    if (output === undefined) return call;
    const spawned = call.name === 'Agent' ? spawnedAgentId(output).agentId : undefined;
    return {
      ...call,
      output,
      ...(call.name === 'Bash' && outputFailed(output) ? { isError: true } : {}),
      ...(spawned === undefined ? {} : { agentId: spawned }),
    };
  });
  return {
    thread: {
      ...thread,
      calls: withOutputs,
      id: stringField(meta, 'id') ?? `${source.name}#${index}`,
      sessionId: stringField(meta, 'session_id'),
      parent,
      nickname: stringField(spawn, 'agent_nickname') ?? stringField(meta, 'agent_nickname'),
      role: stringField(spawn, 'agent_role') ?? stringField(meta, 'agent_role'),
      cwd: stringField(meta, 'cwd'),
    },
    malformed,
  };
}

function endingOf(thread: Thread | undefined): RunnerStatus {
  if (thread?.end === 'complete') return { kind: 'completed' };
  return {
    kind: 'indeterminate',
    stage: 'engine',
    reason:
      thread?.end === 'aborted'
        ? 'the rollout records the turn as aborted'
        : 'the rollout ends before task_complete, so the session may not have finished',
  };
}

/** Read one Codex session from its threads' rollouts. */
export function readCodexRollouts(
  sources: readonly TranscriptSource[],
): Result<SessionTranscript, InputError> {
  const malformed: MalformedLine[] = [];
  const threads = sources.map((source, index) => {
    const read = readThread(source, index);
    malformed.push(...read.malformed);
    return read.thread;
  });
  const sessions = [...new Set(threads.map((thread) => thread.sessionId).filter(Boolean))];
  if (sessions.length > 1) {
    return err(
      inputError(
        threads.find((thread) => thread.sessionId === sessions[1])?.file ?? 'rollouts',
        `is a thread of another Codex session (${sessions[1]}) than the first rollout (${sessions[0]})`,
        "give one session's rollouts: its root thread and the threads it spawned",
      ),
    );
  }
  const roots = threads.filter((thread) => thread.parent === undefined);
  if (roots.length > 1) {
    return err(
      inputError(
        roots[1]?.file ?? 'rollouts',
        `is a second root thread (${roots[1]?.id}) beside ${roots[0]?.file}`,
        "give one session's rollouts: its root thread and the threads it spawned",
      ),
    );
  }
  const root = roots[0];
  const allCalls = threads.flatMap((thread) => thread.calls);
  const spawnOf = (child: Thread): ToolCall | undefined =>
    allCalls.find((call) => call.name === 'Agent' && call.agentId === child.id) ??
    allCalls.find(
      (call) =>
        call.name === 'Agent' &&
        child.nickname !== undefined &&
        call.output !== undefined &&
        spawnedAgentId(call.output).nickname === child.nickname,
    );
  const children = threads.filter((thread) => thread !== root);
  const after = new Map<string, ToolCall[]>();
  const loose: ToolCall[] = [];
  const seats: TranscriptSeat[] = [];
  const seatedThreads = new Set<string>();
  const sends = allCalls.filter((call) => call.name === 'SendMessage' && !refusedResume(call));
  for (const child of children) {
    const spawn = spawnOf(child);
    const dispatch = spawn?.id ?? `thread:${child.id}`;
    const calls = child.calls.map((call) => ({ ...call, parentToolUseId: dispatch }));
    if (spawn === undefined) loose.push(...calls);
    else after.set(spawn.id, [...(after.get(spawn.id) ?? []), ...calls]);
    seatedThreads.add(child.id);
    seats.push({
      dispatch,
      agentId: child.id,
      tool: spawn?.name ?? 'unknown',
      subagentType: child.role ?? null,
      model: spawn === undefined ? null : (stringField(spawn.input, 'model') ?? null),
      modelUsed: child.models.at(-1) ?? null,
      description:
        (spawn === undefined ? undefined : stringField(spawn.input, 'description')) ??
        child.nickname ??
        null,
      resumes: sends
        .filter((send) => stringField(send.input, 'to') === child.id)
        .map((send) => send.id),
      toolCalls: calls.length,
      source: 'derived',
    });
  }
  // A spawn whose thread's rollout was not given: its seat's calls are unknown.
  for (const spawn of root?.calls ?? []) {
    if (spawn.name !== 'Agent' || spawn.isError === true) continue;
    if (spawn.agentId !== undefined && seatedThreads.has(spawn.agentId)) continue;
    if (seats.some((seat) => seat.dispatch === spawn.id)) continue;
    seats.push({
      dispatch: spawn.id,
      agentId: spawn.agentId ?? null,
      tool: spawn.name,
      subagentType: null,
      model: stringField(spawn.input, 'model') ?? null,
      modelUsed: null,
      description: stringField(spawn.input, 'description') ?? null,
      resumes: sends
        .filter((send) => stringField(send.input, 'to') === spawn.agentId)
        .map((send) => send.id),
      toolCalls: null,
      unknownWhy:
        spawn.agentId === undefined
          ? 'its result names no thread id'
          : `its thread's rollout (${spawn.agentId}) was not given`,
      source: 'derived',
    });
  }
  const toolCalls = [
    ...(root?.calls ?? []).flatMap((call) => [call, ...(after.get(call.id) ?? [])]),
    ...loose,
  ];
  const main = root ?? threads[0];
  const models = [...new Set(threads.flatMap((thread) => thread.models))];
  return ok({
    format: 'codex-rollout',
    files: sources.map((source) => source.name),
    toolCalls,
    reply: main?.reply ?? main?.lastAgentMessage,
    model: root?.models[0],
    models,
    prompt: main?.prompt,
    cwd: main?.cwd,
    malformed: sources.length > 1 ? malformed : malformed.map(({ file: _file, ...rest }) => rest),
    ending: endingOf(main),
    controllerRecorded: root !== undefined,
    seats,
    questions: undefined,
  });
}

export const codexRolloutReader: FormatReader = {
  label: 'Codex CLI rollout',
  formats: ['codex-rollout'],
  recognises: (sample) => sample.lines.some(isRolloutLine),
  multiFile: true,
  read: (sources) => readCodexRollouts(sources),
};
