/**
 * A policy is written as a straight-line generator program: it yields the tool
 * calls of one assistant turn and receives their outcomes, in order, as the
 * value of the `yield`; it returns the final report text. Because the server
 * replays the program against the tool results already in the conversation
 * (see next-turn.ts), a program must be deterministic given those outcomes
 * and its seeded random source: no clock, no I/O, no hidden state.
 */

/**
 * The tools a policy may call, under Claude Code's names: the four it works
 * with, the subagent tools a controller dispatches through ('Agent', its
 * legacy name 'Task', and 'SendMessage' to a live agent), the question tool
 * 'AskUserQuestion', 'Skill' and 'Write'.
 */
export const toolNames = [
  'Bash',
  'Read',
  'Glob',
  'Grep',
  'Agent',
  'Task',
  'SendMessage',
  'AskUserQuestion',
  'Skill',
  'Write',
] as const;
export type ToolName = (typeof toolNames)[number];

export interface ToolCall {
  readonly name: ToolName;
  readonly input: Readonly<Record<string, unknown>>;
}

/** A call of any tool the session offers, as a data brain (../data-policy/) may make. */
export interface BrainCall {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** What a tool call produced, as the client reported it in its tool_result. */
export interface ToolOutcome {
  readonly text: string;
  readonly isError: boolean;
}

/** The tool calls of one assistant turn (several calls run in parallel). */
export type Step = readonly ToolCall[];

/** A program part that yields steps and finally returns a value of type T. */
export type SubProgram<T> = Generator<Step, T, readonly ToolOutcome[]>;

/** A whole policy program: it returns the text of its final report. */
export type PolicyProgram = SubProgram<string>;

/** Make one tool call as a turn of its own and get its outcome. */
export function* call(toolCall: ToolCall): SubProgram<ToolOutcome> {
  const [outcome] = yield [toolCall];
  if (outcome === undefined) throw new Error('replay fed no outcome for a tool call');
  return outcome;
}

/** Make several tool calls in one turn (parallel tool use) and get their outcomes in order. */
export function* callAll(toolCalls: readonly ToolCall[]): SubProgram<readonly ToolOutcome[]> {
  if (toolCalls.length === 0) return [];
  const outcomes = yield toolCalls;
  if (outcomes.length !== toolCalls.length) {
    throw new Error('replay fed a different number of outcomes than calls');
  }
  return outcomes;
}
