/**
 * The controller's subagent dispatches, derived from its tool calls in
 * transcript order: every controller-seat call named `Agent` or `Task` is a
 * fresh dispatch, `SendMessage` a resume. A resume the tool refused (an
 * error result: no live agent by that id, a bad input) reached no subagent
 * and is no dispatch; the first-dispatch capture's own refusal is the one
 * error that still counts (it is how a probe records the decision). Each
 * dispatch is read by the installed packs' readers (dispatch-reading.ts),
 * so checks compare values and never read prose.
 */

import type { DispatchReader } from './dispatch-reading.js';
import { type Dispatch, seatOf } from './evidence.js';
import type { Facts } from './placeholders.js';
import { registeredDispatchReadings } from './score-registry.js';
import { agentIdInResult, refusedResume, stringField, type ToolCall } from './tool-call.js';

const FRESH_TOOLS: readonly string[] = ['Agent', 'Task'];
const RESUME_TOOLS: readonly string[] = ['SendMessage'];

/**
 * The subagent a dispatch reaches: for a fresh one the agent id the
 * transcript records for it (a reader sets it), else the one its result
 * names; a resume's `to`.
 */
function agentIdOf(call: ToolCall, fresh: boolean): string | null {
  if (!fresh) return stringField(call.input, 'to') ?? null;
  return call.agentId ?? agentIdInResult(call.output);
}

function nullable(input: unknown, ...fields: string[]): string | null {
  for (const field of fields) {
    const value = stringField(input, field);
    if (value !== undefined) return value;
  }
  return null;
}

/** The readers of a rep's dispatches: each installed pack's, with the scenario's fields and the rep's facts. */
export function dispatchReaders(
  scenario: Readonly<Record<string, unknown>>,
  facts: Facts,
): Readonly<Record<string, DispatchReader>> {
  return Object.fromEntries(
    registeredDispatchReadings().map(({ owner, entry }) => [owner, entry.reader(scenario, facts)]),
  );
}

/** The dispatches among `calls`, each read by `readers` (by pack). */
export function dispatchesOf(
  calls: readonly ToolCall[],
  readers: Readonly<Record<string, DispatchReader>> = {},
): Dispatch[] {
  const dispatches: Dispatch[] = [];
  for (const call of calls) {
    if (seatOf(call) !== 'controller') continue;
    const fresh = FRESH_TOOLS.includes(call.name);
    if (!fresh && !RESUME_TOOLS.includes(call.name)) continue;
    if (refusedResume(call)) continue;
    const description = nullable(call.input, 'description', 'summary');
    const prompt = nullable(call.input, 'prompt', 'message', 'content');
    const subagentType = fresh ? nullable(call.input, 'subagent_type') : null;
    const readings = Object.fromEntries(
      Object.entries(readers).map(([pack, read]) => [
        pack,
        read({ description, prompt, subagentType }),
      ]),
    );
    dispatches.push({
      index: dispatches.length + 1,
      callId: call.id,
      tool: call.name,
      kind: fresh ? 'fresh' : 'resume',
      subagentType,
      model: nullable(call.input, 'model'),
      description,
      prompt,
      agentId: agentIdOf(call, fresh),
      // Claude Code makes an agent addressable by its `name` while it runs.
      ...(fresh && stringField(call.input, 'name') !== undefined
        ? { agentName: stringField(call.input, 'name') ?? null }
        : {}),
      readings,
    });
  }
  return dispatches;
}
