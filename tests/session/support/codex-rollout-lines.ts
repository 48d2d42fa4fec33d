/**
 * Codex rollout lines for the transcript-trust tests (codex-stream, codex-issued-check):
 * a root thread and one spawned thread, as `codex exec` writes them.
 */

export const ROOT = '01a23581-1de9-7073-81d6-e920111da746';
export const CHILD = '01a23581-1fc6-72e2-aecc-c521f3b5de0c';

/** One rollout line. */
export const line = (type: string, payload: Record<string, unknown>): string =>
  JSON.stringify({ timestamp: '2026-12-02T00:00:00.000Z', type, payload });

/** A multi_agent_v1 call and its output. */
export const agentCall = (callId: string, name: string, args: object, output: object): string[] => [
  line('response_item', {
    type: 'function_call',
    name,
    namespace: 'multi_agent_v1',
    arguments: JSON.stringify(args),
    call_id: callId,
  }),
  line('response_item', {
    type: 'function_call_output',
    call_id: callId,
    output: JSON.stringify(output),
  }),
];

/** A rollout's session_meta: the root thread's, or a spawned thread's under `parent`. */
export const meta = (id: string, parent?: string): string =>
  line('session_meta', {
    id,
    session_id: ROOT,
    cwd: '/rep/repo',
    ...(parent === undefined
      ? {}
      : { source: { subagent: { thread_spawn: { parent_thread_id: parent, depth: 1 } } } }),
  });

/** A thread's last assistant message and its task_complete. */
export const done = (text: string): string[] => [
  line('response_item', {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text }],
  }),
  line('event_msg', { type: 'task_complete', last_agent_message: text }),
];
