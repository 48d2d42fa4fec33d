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
 * The result a refused dispatch gets, in both stop modes. Plain and neutral:
 * it says what is true (no subagent will run) and nothing about why.
 */
export const DISPATCH_REFUSAL = 'Subagent dispatch is not available in this session.';

/** The result a refused question to the human gets: as plain, and as silent about why. */
export const QUESTION_REFUSAL = 'Asking the user is not available in this session.';

/** The fixed result that refuses a captured call of this tool. */
export function refusalFor(tool: string): string {
  return isQuestionTool(tool) ? QUESTION_REFUSAL : DISPATCH_REFUSAL;
}

/** The result of a call that came after a captured dispatch in the same turn. */
export const NOT_RUN_RESULT = 'Not run.';

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

/** The capture state of one session: the first controller dispatch or question, once seen. */
export class DispatchCapture {
  #captured: CapturedDispatch | null = null;

  get captured(): CapturedDispatch | null {
    return this.#captured;
  }

  /** Decide a call's fate, recording it when it is the controller's first dispatch or question. */
  decide(call: ObservedCall): CallFate {
    if (this.#captured !== null) return 'skip';
    if (call.insideSubagent || !isCapturedTool(call.tool)) return 'run';
    this.#captured = { toolUseId: call.toolUseId, tool: call.tool, input: call.input };
    return 'capture';
  }
}
