/**
 * The tools each backend offers a session: one table, which the backends
 * build their tool lists from and which checks and scenarios are validated
 * against (a tool a scenario adds must be one its backend can offer).
 *
 * - `defaults`: every session's tools (Claude Code names `Task` what it
 *   advertises as `Agent`);
 * - `byStop`: what a stop mode adds (the dispatch and question tools of
 *   `first-dispatch` and `complete`);
 * - `library`: what an installed skills library adds (the engine's Skill tool);
 * - `addable`: what a scenario's `tools.add` may add. `WebFetch` and
 *   `WebSearch` are offered, never run: every call gets a neutral refusal
 *   (sessions have no network). `AskUserQuestion` outside `complete` is
 *   refused too, unless an event stop captures it.
 *
 * A scenario's `tools.remove` may take away any default or stop tool.
 */
import type { StopMode } from '../score/stop-mode.js';

/** The session backends, as `--backend` and a campaign's `backend` name them. */
export const BACKEND_NAMES = ['claude-code', 'messages', 'codex'] as const;
export type BackendName = (typeof BACKEND_NAMES)[number];

interface BackendTools {
  readonly defaults: readonly string[];
  readonly byStop: Readonly<Record<StopMode, readonly string[]>>;
  readonly library: readonly string[];
  readonly addable: readonly string[];
}

const DISPATCH_AND_QUESTION = ['SendMessage', 'AskUserQuestion'] as const;

export const SESSION_TOOLS: Readonly<Record<BackendName, BackendTools>> = {
  'claude-code': {
    defaults: ['Bash', 'Read', 'Glob', 'Grep', 'Edit', 'Write', 'NotebookEdit', 'Task'],
    byStop: {
      report: [],
      'first-dispatch': DISPATCH_AND_QUESTION,
      complete: DISPATCH_AND_QUESTION,
    },
    library: ['Skill'],
    addable: [
      'AskUserQuestion',
      'EnterWorktree',
      'ExitWorktree',
      'WebFetch',
      'WebSearch',
      'TodoWrite',
    ],
  },
  messages: {
    defaults: ['Bash', 'Read', 'Glob', 'Grep', 'Agent'],
    byStop: {
      report: [],
      'first-dispatch': DISPATCH_AND_QUESTION,
      complete: DISPATCH_AND_QUESTION,
    },
    library: ['Skill'],
    addable: ['AskUserQuestion', 'WebFetch'],
  },
  // Codex's own tools in the names scoring reads them by (exec_command is Bash, spawn_agent
  // Agent, send_input SendMessage); skills are listed, read through the shell: no Skill tool.
  codex: {
    defaults: ['Bash', 'Agent'],
    byStop: { report: [], 'first-dispatch': ['SendMessage'], complete: ['SendMessage'] },
    library: [],
    addable: [],
  },
};

/** Tools offered but answered with a neutral refusal whenever called. */
export const REFUSED_TOOLS: readonly string[] = ['WebFetch', 'WebSearch'];

export { toolRefusal } from '../score/refusals.js';

export interface ToolChanges {
  readonly add?: readonly string[] | undefined;
  readonly remove?: readonly string[] | undefined;
}

/** `Agent` and its legacy name `Task` are one tool. */
function sameTool(a: string, b: string): boolean {
  const canonical = (name: string): string => (name === 'Task' ? 'Agent' : name);
  return canonical(a) === canonical(b);
}

/** The tools a session is offered, in the backend's names. */
export function sessionToolNames(
  backend: BackendName,
  stop: StopMode,
  options: { readonly library: boolean; readonly changes?: ToolChanges | undefined },
): string[] {
  const table = SESSION_TOOLS[backend];
  const names = [
    ...table.defaults,
    ...table.byStop[stop],
    ...(options.library ? table.library : []),
    ...(options.changes?.add ?? []),
  ];
  const removed = options.changes?.remove ?? [];
  return names.filter(
    (name, index) =>
      names.findIndex((other) => sameTool(other, name)) === index &&
      !removed.some((gone) => sameTool(gone, name)),
  );
}

/**
 * Every name a call of a session of a scenario may carry, on either backend
 * (a scenario runs on both), in its stop mode with its tool changes, the
 * Skill tool included (a library arm's sessions are given it), and `Agent`
 * and `Task` both (a transcript may record either): what a scenario's tool
 * checks and tool event selectors may name. A check on a tool no session is
 * given (a typo such as "write" or "Wrte", SendMessage under `stop: report`,
 * a tool the scenario removes) is refused when the scenario loads instead of
 * passing, or failing, vacuously at every rep.
 */
export function scenarioToolNames(stop: StopMode, changes?: ToolChanges | undefined): string[] {
  const names = (['claude-code', 'messages'] as const).flatMap((backend) =>
    sessionToolNames(backend, stop, { library: true, changes }),
  );
  return [
    ...new Set(names.flatMap((name) => (sameTool(name, 'Agent') ? ['Agent', 'Task'] : [name]))),
  ];
}

/**
 * Tool names a session recorded elsewhere may hold beyond what redgreen's own
 * sessions are offered: the rest of Claude Code's tools (the Agent SDK's tool
 * inputs, and the older names session logs keep), and the names the
 * transcript readers keep from Codex (its shell, spawn and message tools read
 * as Bash, Agent and SendMessage; these stay as Codex wrote them).
 */
export const RECORDED_TOOL_NAMES: readonly string[] = [
  // Claude Code
  'MultiEdit',
  'LS',
  'NotebookRead',
  'TodoWrite',
  'TodoRead',
  'BashOutput',
  'KillShell',
  'KillBash',
  'TaskCreate',
  'TaskGet',
  'TaskUpdate',
  'TaskList',
  'TaskOutput',
  'TaskStop',
  'EnterPlanMode',
  'ExitPlanMode',
  'EnterWorktree',
  'ExitWorktree',
  'WebFetch',
  'WebSearch',
  'SlashCommand',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
  'CronCreate',
  'CronDelete',
  'CronList',
  'Monitor',
  // Codex CLI
  'apply_patch',
  'update_plan',
  'view_image',
  'wait',
  'wait_agent',
  'close_agent',
  'request_user_input',
];

/**
 * What the tool checks of a scenario redgreen does not calibrate may name (one
 * `redgreen check` scores against sessions recorded elsewhere): the names of
 * scenarioToolNames and those of RECORDED_TOOL_NAMES, so a check on a real
 * session's TodoWrite or apply_patch loads while a typo ("Wrte") is still
 * refused.
 */
export function recordedScenarioToolNames(
  stop: StopMode,
  changes?: ToolChanges | undefined,
): string[] {
  return [...new Set([...scenarioToolNames(stop, changes), ...RECORDED_TOOL_NAMES])];
}

/** Why a scenario's tool changes cannot run on a backend, or undefined. */
export function toolChangesProblem(
  backend: BackendName,
  changes: ToolChanges,
):
  | { readonly field: 'add' | 'remove'; readonly problem: string; readonly fix: string }
  | undefined {
  // Codex offers its own tools (exec_command, its multi-agent tools): redgreen does not change them.
  if (backend === 'codex' && (changes.add?.length ?? 0) + (changes.remove?.length ?? 0) > 0) {
    return {
      field: (changes.add?.length ?? 0) > 0 ? 'add' : 'remove',
      problem: 'the codex backend offers Codex its own tools, which a scenario cannot change',
      fix: 'drop the tools changes',
    };
  }
  const table = SESSION_TOOLS[backend];
  const offerable = [...table.defaults, ...Object.values(table.byStop).flat(), ...table.library];
  for (const tool of changes.add ?? []) {
    if (
      !table.addable.some((name) => sameTool(name, tool)) &&
      !offerable.some((name) => sameTool(name, tool))
    ) {
      return {
        field: 'add',
        problem: `"${tool}" is not a tool the ${backend} backend can offer`,
        fix: `add one of ${table.addable.join(', ')}`,
      };
    }
  }
  for (const tool of changes.remove ?? []) {
    if (!offerable.some((name) => sameTool(name, tool))) {
      return {
        field: 'remove',
        problem: `"${tool}" is not one of the ${backend} backend's tools`,
        fix: `remove one of ${[...new Set(offerable)].join(', ')}`,
      };
    }
  }
  return undefined;
}

/**
 * Whether an event stop's selector is one the codex backend can capture: a
 * dispatch, with no narrowing by description or subagent type (the engine
 * is ended at the first dispatch its stream reports, whichever it is).
 */
export function isDispatchStop(selector: { readonly event: string }): boolean {
  const { event, seat, ...narrowing } = selector as Record<string, unknown>;
  return (
    event === 'dispatch' &&
    (seat === undefined || seat === 'any' || seat === 'controller') &&
    Object.keys(narrowing).length === 0
  );
}

/**
 * Why a scenario's stop cannot run on a backend, or undefined. The codex
 * backend has no hook to refuse a call before it runs: it captures the
 * controller's first dispatch by ending the engine where its stream reports
 * one (codex-capture.ts), which a spawned agent that is never served makes
 * harmless; a stop at any other event (a write, a tool, a skill read) would
 * let the call run first, and Codex offers no question tool in `exec`, so a
 * scripted user has nothing to answer. Such a scenario is refused when it
 * loads, never run as something it is not.
 */
export function stopProblem(
  backend: BackendName,
  stop: StopMode | { readonly at: unknown },
  scriptedUser = false,
): { readonly problem: string; readonly fix: string } | undefined {
  if (backend !== 'codex') return undefined;
  if (scriptedUser) {
    return {
      problem:
        'a scripted user answers the question tool, which the codex backend does not have (Codex offers none in exec)',
      fix: 'drop "user"',
    };
  }
  if (typeof stop === 'string') return undefined;
  const selectors = (Array.isArray(stop.at) ? stop.at : [stop.at]) as { event: string }[];
  if (selectors.every(isDispatchStop)) return undefined;
  return {
    problem:
      'stop { "at": … } captures a call other than a dispatch before it runs, which the codex backend cannot (it has no hook to refuse a call)',
    fix: 'use stop "first-dispatch", "report" or "complete", or { "at": { "event": "dispatch" } }',
  };
}
