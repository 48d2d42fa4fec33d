/**
 * The claude-code seat watch's PreToolUse hook (claude-code-seat-watch.ts)
 * holds each tool call until the engine's stream has shown the message that
 * made it, then checks the seat limits. Its wait is bounded: a call whose
 * tool_use message never arrives goes on after the bound (injected small
 * here), so the session never deadlocks; a call whose message arrives goes
 * on at once; once a limit is met the call is denied and the engine stopped.
 * The hook is driven directly with engine-shaped messages; no wall-clock
 * sleeps beyond the injected bound of a few milliseconds.
 */
import type {
  HookCallback,
  HookJSONOutput,
  PreToolUseHookInput,
  SDKMessage,
} from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { ClaudeCodeSeatWatch, SEEN_WAIT_MS } from '../../harness/session/claude-code-seat-watch.js';
import { seatSpendFor } from '../../harness/session/seat-spend.js';

function watchWith(options: { maxSeats?: number; seenWaitMs?: number } = {}) {
  let limits = 0;
  const watch = new ClaudeCodeSeatWatch({
    maxSeats: options.maxSeats ?? 12,
    seatMaxTurns: 40,
    spend: seatSpendFor({ limits: {} }),
    onLimit: () => {
      limits += 1;
    },
    ...(options.seenWaitMs === undefined ? {} : { seenWaitMs: options.seenWaitMs }),
  });
  const matcher = watch.queryOptions().hooks?.PreToolUse?.[0];
  const hook = matcher?.hooks[0] as HookCallback;
  const call = (toolUseId: string, toolName = 'Bash'): Promise<HookJSONOutput> => {
    const input: PreToolUseHookInput = {
      hook_event_name: 'PreToolUse',
      session_id: 'session-1',
      transcript_path: '/nonexistent/transcript.jsonl',
      cwd: '/nonexistent',
      tool_name: toolName,
      tool_input: {},
      tool_use_id: toolUseId,
    };
    return hook(input, toolUseId, { signal: new AbortController().signal });
  };
  return { watch, call, limitsMet: () => limits };
}

/** The engine's stream-json message for a controller turn that calls one tool. */
function controllerTurn(toolUseId: string, name: string): SDKMessage {
  return {
    type: 'assistant',
    parent_tool_use_id: null,
    uuid: '00000000-0000-4000-8000-000000000001',
    session_id: 'session-1',
    message: {
      id: `msg_${toolUseId}`,
      content: [{ type: 'tool_use', id: toolUseId, name, input: { description: 'a seat' } }],
    },
  } as unknown as SDKMessage;
}

/** Whether a promise has settled after the microtasks and one macrotask turn. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('the seat watch’s PreToolUse hold', () => {
  it('the default bound is 5 s; a call whose message never arrives proceeds after the injected bound', async () => {
    expect(SEEN_WAIT_MS).toBe(5000);
    const { call, limitsMet } = watchWith({ seenWaitMs: 20 });
    // Let through after the bound, unchanged (no denial), without a limit met. Without the
    // bound this never settles and the test times out.
    expect(await call('toolu_never_streamed')).toEqual({});
    expect(limitsMet()).toBe(0);
  });

  it('a held call goes on as soon as its message is observed, long before the bound', async () => {
    const { watch, call } = watchWith({ seenWaitMs: 600_000 });
    const held = call('toolu_bash_1');
    expect(await settled(held)).toBe(false);
    watch.observe(controllerTurn('toolu_bash_1', 'Bash'));
    expect(await settled(held)).toBe(true);
    expect(await held).toEqual({});
    // A call whose message was already seen is not held at all.
    expect(await settled(call('toolu_bash_1'))).toBe(true);
  });

  it('a call past a limit is denied and stops the engine, once', async () => {
    const { watch, call, limitsMet } = watchWith({ maxSeats: 0, seenWaitMs: 600_000 });
    const held = call('toolu_agent_1', 'Agent');
    watch.observe(controllerTurn('toolu_agent_1', 'Agent'));
    const reason = 'the controller started more subagents than the per-rep seat limit allows (0)';
    expect(await held).toEqual({
      continue: false,
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: `Not run: ${reason}.`,
      },
    });
    expect(watch.limitReached).toBe(reason);
    expect(limitsMet()).toBe(1);
  });

  it('a call never streamed after a limit was met is denied after the bound, not let through', async () => {
    const { watch, call } = watchWith({ maxSeats: 0, seenWaitMs: 20 });
    watch.observe(controllerTurn('toolu_agent_1', 'Agent'));
    const output = await call('toolu_never_streamed');
    expect(output).toMatchObject({ continue: false });
  });
});
