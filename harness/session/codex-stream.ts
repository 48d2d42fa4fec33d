/**
 * What the codex backend trusts of a session: `codex exec --json`'s stdout,
 * the event stream the engine writes to redgreen itself, which no command
 * of the session can write to (it is a socket, not a file; the session's
 * own files, Codex's rollouts among them, are writable by its commands).
 *
 * The rollouts hold more (each call's full arguments and output, the
 * spawned threads' calls), so the transcript is still read from them, and
 * then checked against the stream (`trustedTranscript`):
 *
 * - the root thread's calls are those the stream reports, in its order
 *   (`command_execution`, `collab_tool_call`, `file_change`, `web_search`),
 *   each matched to the rollout call that agrees with it (the same command,
 *   tool, target, and for a spawn or a message the same text, the stream's
 *   `prompt`); a rollout call no streamed call stands for is dropped,
 *   never counted, and named in the result's `dropped`;
 * - a streamed call the rollout does not hold as the stream reports it (the
 *   command differs, a spawn names another thread) is a `problem`: the rep is
 *   indeterminate, never scored on a transcript that disagrees with what
 *   the engine did;
 * - a spawned thread is a seat only when a kept spawn of the stream started
 *   it (its `receiver_thread_ids`); a rollout of any other thread is
 *   dropped with its calls. The calls inside a spawned thread are not in
 *   the stream (Codex reports the root thread's items only): the backend
 *   checks them against the model server's record (codex-issued-check.ts);
 * - the reply is the stream's last agent message.
 *
 * Pure: stdout text and a transcript in, a checked transcript out.
 */
import { stringField, type ToolCall } from '../score/tool-call.js';
import type { SessionTranscript } from '../score/transcripts/session-transcript.js';

/** One call of the root thread as the stream reports it. */
export interface StreamedCall {
  readonly itemId: string;
  readonly kind: 'command_execution' | 'collab_tool_call' | 'file_change' | 'web_search';
  /** command_execution: the command as run (`/usr/bin/bash -lc '…'`). */
  readonly command?: string;
  /** collab_tool_call: `spawn_agent`, `wait`, `send_input`, `close_agent`, … */
  readonly tool?: string;
  /** collab_tool_call: the text a spawn or a message sent (Codex's `prompt`), when it reports one. */
  readonly prompt?: string;
  readonly receivers: readonly string[];
}

export interface ExecItems {
  readonly rootThread: string | undefined;
  readonly calls: readonly StreamedCall[];
  /** The last agent message of the root thread. */
  readonly reply: string | undefined;
}

const CALL_KINDS = new Set(['command_execution', 'collab_tool_call', 'file_change', 'web_search']);

/** The root thread's calls and reply as `codex exec --json` printed them (each item once, by id). */
export function execItems(stdout: string): ExecItems {
  let rootThread: string | undefined;
  const calls = new Map<string, StreamedCall>();
  let reply: string | undefined;
  for (const line of stdout.split('\n')) {
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof event !== 'object' || event === null) continue;
    const record = event as Record<string, unknown>;
    if (record.type === 'thread.started' && typeof record.thread_id === 'string') {
      rootThread ??= record.thread_id;
      continue;
    }
    if (record.type !== 'item.started' && record.type !== 'item.completed') continue;
    const item = record.item as Record<string, unknown> | undefined;
    if (typeof item !== 'object' || item === null || typeof item.id !== 'string') continue;
    if (item.type === 'agent_message' && typeof item.text === 'string') {
      reply = item.text;
      continue;
    }
    if (typeof item.type !== 'string' || !CALL_KINDS.has(item.type)) continue;
    if (calls.has(item.id) && record.type === 'item.started') continue;
    calls.set(item.id, {
      itemId: item.id,
      kind: item.type as StreamedCall['kind'],
      ...(typeof item.command === 'string' ? { command: item.command } : {}),
      ...(typeof item.tool === 'string' ? { tool: item.tool } : {}),
      ...(typeof item.prompt === 'string' && item.prompt !== '' ? { prompt: item.prompt } : {}),
      receivers: Array.isArray(item.receiver_thread_ids)
        ? item.receiver_thread_ids.filter((id): id is string => typeof id === 'string')
        : [],
    });
  }
  return { rootThread, calls: [...calls.values()], reply };
}

/** The words of a POSIX shell word string (quotes and backslashes removed), or undefined. */
function shellWords(text: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (char === "'") {
      const end = text.indexOf("'", index + 1);
      if (end < 0) return undefined;
      word = (word ?? '') + text.slice(index + 1, end);
      index = end;
    } else if (char === '"') {
      let value = '';
      index += 1;
      while (index < text.length && text[index] !== '"') {
        const inner = text[index] as string;
        const next = text[index + 1];
        if (inner === '\\' && next !== undefined && '\\"$`\n'.includes(next)) {
          value += next;
          index += 2;
        } else {
          value += inner;
          index += 1;
        }
      }
      if (index >= text.length) return undefined;
      word = (word ?? '') + value;
    } else if (char === '\\' && index + 1 < text.length) {
      word = (word ?? '') + text[index + 1];
      index += 1;
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The script a streamed command ran (`<shell> -lc <script>`), or the command itself. */
export function streamedScript(command: string): string {
  const words = shellWords(command);
  // Only a shell's script (as the rollout reader unwraps an argv): `wc -c file` is its own command.
  const [program, flag, script] = words ?? [];
  if (
    words?.length === 3 &&
    program !== undefined &&
    /(?:^|\/)(?:ba|z|da)?sh$/.test(program) &&
    flag !== undefined &&
    /^-\w*c$/.test(flag)
  ) {
    return script as string;
  }
  return command;
}

/** Codex's collab tool name for a rollout call, as the stream names it. */
function collabToolOf(call: ToolCall): string | undefined {
  const codexName = (call.recordedAs ?? call.name).replace(/^.*\./, '');
  if (call.name === 'Agent') return 'spawn_agent';
  if (call.name === 'SendMessage') return codexName;
  if (codexName === 'wait_agent') return 'wait';
  if (['close_agent', 'resume_agent', 'list_agents', 'interrupt_agent'].includes(codexName)) {
    return codexName;
  }
  return undefined;
}

/** The stream kind a rollout call of the root thread must appear as, or undefined when none. */
function streamKindOf(call: ToolCall): StreamedCall['kind'] | undefined {
  if (call.name === 'Bash' && call.recordedAs !== 'exec') return 'command_execution';
  if (call.name === 'apply_patch') return 'file_change';
  if (call.name === 'WebSearch') return 'web_search';
  if (collabToolOf(call) !== undefined) return 'collab_tool_call';
  return undefined;
}

/** Whether a rollout call is the streamed call (same kind and the same command / tool / target). */
function agrees(call: ToolCall, streamed: StreamedCall): boolean {
  if (streamKindOf(call) !== streamed.kind) return false;
  if (streamed.kind === 'command_execution') {
    const command = stringField(call.input, 'command');
    return command !== undefined && streamed.command !== undefined
      ? streamedScript(streamed.command) === command
      : false;
  }
  if (streamed.kind !== 'collab_tool_call') return true;
  if (collabToolOf(call) !== streamed.tool) return false;
  // What a dispatch said is the stream's: a rollout rewritten to say something else is not it.
  const said = stringField(call.input, call.name === 'Agent' ? 'prompt' : 'message');
  if (streamed.prompt !== undefined && (call.name === 'Agent' || call.name === 'SendMessage')) {
    if (said !== streamed.prompt) return false;
  }
  if (call.name === 'Agent') {
    return (
      call.agentId === undefined ||
      streamed.receivers.length === 0 ||
      streamed.receivers.includes(call.agentId)
    );
  }
  const to = stringField(call.input, 'to');
  return to === undefined || streamed.receivers.length === 0 || streamed.receivers.includes(to);
}

export interface TrustedTranscript {
  readonly transcript: SessionTranscript;
  /** Rollout calls the stream does not report: left out (what each was). */
  readonly dropped: readonly string[];
  /** Streamed calls the rollout does not hold as reported: the rep is indeterminate. */
  readonly problems: readonly string[];
}

function describe(call: ToolCall): string {
  const command = stringField(call.input, 'command');
  return `${call.id} ${call.recordedAs ?? call.name}${command === undefined ? '' : ` (${command.slice(0, 80)})`}`;
}

/** The rollouts' transcript, kept to what the stream reports (see the module comment). */
export function trustedTranscript(read: SessionTranscript, items: ExecItems): TrustedTranscript {
  const dropped: string[] = [];
  const problems: string[] = [];
  // Each streamed call stands for one rollout call: the first unused one that agrees with it.
  const matchOf = new Map<string, number>();
  const used = new Set<number>();
  const spawned = new Set<string>();
  for (const call of read.toolCalls) {
    if ((call.parentToolUseId ?? null) !== null) continue;
    const at = items.calls.findIndex(
      (streamed, index) => !used.has(index) && agrees(call, streamed),
    );
    if (at < 0) {
      dropped.push(`${describe(call)}: the --json stream reports no such call`);
      continue;
    }
    used.add(at);
    matchOf.set(call.id, at);
    const streamed = items.calls[at] as StreamedCall;
    if (streamed.tool === 'spawn_agent') for (const id of streamed.receivers) spawned.add(id);
  }
  items.calls.forEach((missed, index) => {
    if (!used.has(index)) problems.push(missedWhy(missed));
  });
  const kept = new Set(matchOf.keys());
  const seats = read.seats.filter((seat) => {
    const trusted = kept.has(seat.dispatch) && (seat.agentId === null || spawned.has(seat.agentId));
    if (!trusted) {
      dropped.push(
        `the seat of thread ${seat.agentId ?? seat.dispatch}: no spawn of the --json stream started it`,
      );
    }
    return trusted;
  });
  const seated = new Set(seats.map((seat) => seat.dispatch));
  // The stream's order is the root thread's order (parallel calls of one reply run in any order);
  // a seat's calls follow the call that started it, as the rollout reader places them.
  const under = new Map<string, ToolCall[]>();
  for (const call of read.toolCalls) {
    const parent = call.parentToolUseId ?? null;
    if (parent === null || !seated.has(parent)) continue;
    under.set(parent, [...(under.get(parent) ?? []), call]);
  }
  const toolCalls = read.toolCalls
    .filter((call) => matchOf.has(call.id))
    .sort((a, b) => (matchOf.get(a.id) ?? 0) - (matchOf.get(b.id) ?? 0))
    .flatMap((call) => [call, ...(under.get(call.id) ?? [])]);
  return {
    transcript: {
      ...read,
      toolCalls,
      seats: seats.map((seat) => ({
        ...seat,
        resumes: seat.resumes.filter((via) => kept.has(via)),
      })),
      reply: items.reply,
    },
    dropped,
    problems,
  };
}

function missedWhy(missed: StreamedCall): string {
  const what = missed.command ?? missed.tool ?? missed.kind;
  return `the --json stream's ${missed.itemId} (${missed.kind} ${what.slice(0, 80)}) is not in the rollout as reported`;
}
