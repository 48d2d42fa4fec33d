/**
 * First-dispatch capture, the part both backends share. Under
 * `stop: first-dispatch` a session ends at the controller's first decision
 * made through a tool: a subagent dispatch, a call to `Agent` (Claude Code's
 * subagent tool), `Task` (its legacy name) or `SendMessage` (a message to a
 * live agent, which resumes it); or a question to the human, a call to
 * `AskUserQuestion`. The call's complete input is recorded, the call is
 * refused with one fixed result, and no further model request is made.
 *
 * Other calls of the turn that holds the dispatch: those before it run (the
 * Claude Code engine starts them as they stream in, before the dispatch has
 * arrived; the messages backend runs them too, so both backends agree); those
 * after it are not run and get a fixed "not run" result. A dispatch made
 * inside a subagent is never the controller's, and is not captured.
 */
import { type EventSelector, eventMatch } from '../score/event-selector.js';
import { DISPATCH_REFUSAL, QUESTION_REFUSAL } from '../score/refusals.js';
import { eventsOfCall } from '../score/session-events.js';
import { toolRefusal } from './session-tool-table.js';

export { DISPATCH_REFUSAL, NOT_RUN_RESULT, QUESTION_REFUSAL } from '../score/refusals.js';

/** The tools through which a controller dispatches work to a subagent. */
export const DISPATCH_TOOL_NAMES: readonly string[] = ['Agent', 'Task', 'SendMessage'];

export function isDispatchTool(name: string): boolean {
  return DISPATCH_TOOL_NAMES.includes(name);
}

/** The tools through which a controller asks the human a question (Claude Code's name). */
export const QUESTION_TOOL_NAMES: readonly string[] = ['AskUserQuestion'];

export function isQuestionTool(name: string): boolean {
  return QUESTION_TOOL_NAMES.includes(name);
}

/** Whether a call is a decision the capture takes: a dispatch or a question to the human. */
export function isCapturedTool(name: string): boolean {
  return isDispatchTool(name) || isQuestionTool(name);
}

/**
 * The fixed result that refuses a captured call of this tool: a dispatch's
 * or a question's as above; any other call an event stop captures gets
 * `<Tool> is not available in this session.`, as plain.
 */
export function refusalFor(tool: string): string {
  if (isQuestionTool(tool)) return QUESTION_REFUSAL;
  if (isDispatchTool(tool)) return DISPATCH_REFUSAL;
  return toolRefusal(tool);
}

/** The controller's first dispatch (or question): the tool_use block as the model sent it. */
export interface CapturedDispatch {
  readonly toolUseId: string;
  /** The tool name as the model called it (`Agent`, `Task`, `SendMessage` or `AskUserQuestion`). */
  readonly tool: string;
  /** The complete tool input, unchanged. */
  readonly input: unknown;
}

/** A tool call as a backend sees it when deciding whether to run it. */
export interface ObservedCall {
  readonly toolUseId: string;
  readonly tool: string;
  readonly input: unknown;
  /** True when a subagent made the call (not the controller). */
  readonly insideSubagent: boolean;
}

/**
 * What happens to a call: `run` as usual; `capture`: this is the controller's
 * first dispatch or question, refuse it and end the session; `skip`: one was
 * already captured, do not run this call.
 */
export type CallFate = 'run' | 'capture' | 'skip';

/** Which calls end a session: the first that this says yes to is captured. */
export type StopRule = (call: ObservedCall) => boolean;

/** `first-dispatch`: the controller's dispatch or question to the human. */
export const firstDispatchRule: StopRule = (call) =>
  !call.insideSubagent && isCapturedTool(call.tool);

/**
 * An event stop: a call that makes an event one of the selectors picks
 * (harness/score/session-events.ts reads the call as the event list does;
 * `repoDir` places the paths it writes).
 */
export function eventStopRule(selectors: readonly EventSelector[], repoDir: string): StopRule {
  return (call) => {
    const events = eventsOfCall(
      {
        id: call.toolUseId,
        name: call.tool,
        input: call.input,
        parentToolUseId: call.insideSubagent ? 'subagent' : null,
      },
      0,
      repoDir,
    );
    return selectors.some((selector) =>
      events.some((event) => eventMatch(selector, event) !== undefined),
    );
  };
}

/** The capture state of one session: the first call its stop rule picks, once seen. */
export class DispatchCapture {
  #captured: CapturedDispatch | null = null;
  readonly #rule: StopRule;

  constructor(rule: StopRule = firstDispatchRule) {
    this.#rule = rule;
  }

  get captured(): CapturedDispatch | null {
    return this.#captured;
  }

  /** Decide a call's fate, recording it when it is the first call the stop rule picks. */
  decide(call: ObservedCall): CallFate {
    if (this.#captured !== null) return 'skip';
    if (!this.#rule(call)) return 'run';
    this.#captured = { toolUseId: call.toolUseId, tool: call.tool, input: call.input };
    return 'capture';
  }
}
