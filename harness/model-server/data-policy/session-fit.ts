/**
 * Whether a policy file can run in a session: every tool step names a tool
 * the session is offered (an arm guarded by `offered: <tool>` runs only
 * where it is, so its steps are checked only there), and nothing waits for
 * what the session's stop mode never gives: a step after a question where no
 * scripted user answers, seats where no subagent runs, a step after the
 * dispatch a `first-dispatch` session stops at. The tool lists come from the
 * caller (harness/session/session-tool-table.ts); this module knows no
 * backend. With `everySession`, the lists are all the sessions the scenario
 * can have, and an arm no session can reach is a problem too.
 */
import type { PolicyProblem } from './check-policy.js';
import type { Condition, PolicyFile, Step } from './policy-schema.js';

export interface SessionTools {
  /** How the problem names the session: `the messages backend (stop: report)`. */
  readonly label: string;
  readonly stop: 'report' | 'first-dispatch' | 'complete' | 'at';
  readonly offered: ReadonlySet<string>;
  /** The tools every session is offered (with `everySession`, fewer than `offered`). */
  readonly everyOffered: ReadonlySet<string>;
  /** True when `offered` is every tool any session of the scenario can be offered. */
  readonly everySession: boolean;
}

/** 'Agent' and its legacy name 'Task' are one tool. */
export function offeredName(tool: string, offered: ReadonlySet<string>): string | undefined {
  if (offered.has(tool)) return tool;
  const other = tool === 'Task' ? 'Agent' : tool === 'Agent' ? 'Task' : undefined;
  return other !== undefined && offered.has(other) ? other : undefined;
}

const DISPATCH_TOOLS = new Set(['Agent', 'Task']);

export function fitPolicyToSession(file: PolicyFile, session: SessionTools): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  if (file.steps !== undefined) walk(file.steps, 'steps', session, problems);
  if (file.seats !== undefined && session.stop !== 'complete') {
    problems.push({
      field: 'seats',
      problem: `can never be reached: only a stop: complete session runs subagents, and ${session.label} is stop: ${session.stop}`,
      fix: 'remove seats, or make the scenario stop: complete',
    });
  }
  for (const [index, seat] of (file.seats ?? []).entries()) {
    walk(seat.steps, `seats[${index}].steps`, session, problems);
  }
  return problems;
}

/** Walk a list; a step the session stops at leaves the rest unreachable. */
function walk(
  steps: readonly Step[],
  field: string,
  session: SessionTools,
  problems: PolicyProblem[],
): void {
  for (const [index, step] of steps.entries()) {
    const here = `${field}[${index}]`;
    const stopsHere = visit(step, here, session, problems);
    if (stopsHere !== undefined && index < steps.length - 1) {
      problems.push({
        field: `${field}[${index + 1}]`,
        problem: `can never be reached: ${stopsHere}`,
        fix: 'remove the steps after it, or change the scenario',
      });
      return;
    }
  }
}

/** Check one step; say why the session ends at it, if it does. */
function visit(
  step: Step,
  field: string,
  session: SessionTools,
  problems: PolicyProblem[],
): string | undefined {
  switch (step.kind) {
    case 'tool':
    case 'parallel': {
      const calls = step.kind === 'tool' ? [step] : step.parallel;
      for (const [index, call] of calls.entries()) {
        const at = step.kind === 'tool' ? `${field}.tool` : `${field}.parallel[${index}].tool`;
        if (offeredName(call.tool, session.offered) === undefined) {
          problems.push({
            field: at,
            problem: `"${call.tool}" is not a tool ${session.label} is given (it is given ${[...session.offered].join(', ')})`,
            fix: `use one of those, or guard the step with a branch on { offered: ${call.tool} }`,
          });
        }
      }
      if (
        session.stop === 'first-dispatch' &&
        calls.some((call) => DISPATCH_TOOLS.has(call.tool))
      ) {
        return `${field} dispatches a subagent, where a stop: first-dispatch session ends`;
      }
      return undefined;
    }
    case 'branch': {
      for (const [index, arm] of step.branch.entries()) {
        const here = `${field}.branch[${index}]`;
        if ('else' in arm) {
          walk(arm.else, `${here}.else`, session, problems);
          continue;
        }
        const never = unreachable(arm.when, session);
        if (never !== undefined) {
          if (session.everySession) {
            problems.push({
              field: `${here}.when`,
              problem: `can never be reached: ${never}`,
              fix: 'name a tool the sessions are offered, or remove the arm',
            });
          }
          continue;
        }
        walk(arm.steps, `${here}.steps`, session, problems);
      }
      return undefined;
    }
    case 'ask':
      return session.stop === 'complete'
        ? undefined
        : `${field} asks the user, and only a stop: complete session has a scripted user who answers (${session.label} is stop: ${session.stop})`;
    default:
      return undefined;
  }
}

/**
 * Why a condition can never hold in the session, if so (only tool conditions
 * decide): a tool no session is offered, or the absence of one every session is.
 */
function unreachable(condition: Condition, session: SessionTools): string | undefined {
  if (
    condition.kind === 'offered' &&
    offeredName(condition.offered, session.offered) === undefined
  ) {
    return `no session of this scenario is offered the tool it asks for (${[...session.offered].join(', ')} are)`;
  }
  if (
    condition.kind === 'not' &&
    condition.not.kind === 'offered' &&
    offeredName(condition.not.offered, session.everyOffered) !== undefined
  ) {
    return `every session of this scenario is offered ${condition.not.offered}`;
  }
  return undefined;
}
