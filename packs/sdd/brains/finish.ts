/**
 * How every SDD policy finishes, once it knows its execution state: it
 * dispatches the first task it chose through the subagent tool the request
 * offers (`Agent`, else `Task`), as a controller executing the plan would;
 * or, when the prompt forbids dispatching (every prompt of the default
 * campaign does), when no subagent tool is offered, or when there is no task
 * to dispatch, it writes the three-part report.
 *
 * The dispatch looks like a real controller's: a short description naming
 * the task, a prompt naming the task by number and title and pointing at the
 * brief the skill's `task-brief` script writes (`<workspace>/task-N-brief.md`),
 * and `subagent_type: general-purpose`. If the session goes on after the
 * dispatch (a backend that refuses it and carries on, or a subagent that ran),
 * the policy ends with the same report, saying what it decided.
 */
import path from 'node:path';
import {
  call,
  type PolicyProgram,
  type ToolCall,
} from '../../../harness/model-server/policies/program.js';
import { agent } from '../../../harness/model-server/policies/tools.js';
import type { PolicyContext } from './context.js';
import { taskLabel } from './plan.js';
import { formatReport, type ResumeReport } from './report.js';

/**
 * End a policy: dispatch the chosen first task when that is allowed and
 * possible, else report. `workspace` is the directory the skill's
 * `sdd-workspace` script gives this plan, where its task briefs go.
 */
export function* finishResume(
  context: PolicyContext,
  report: ResumeReport,
  workspace: string,
): PolicyProgram {
  const dispatch = firstTaskDispatch(context, report, workspace);
  if (dispatch !== undefined) yield* call(dispatch);
  return formatReport(report);
}

/** The dispatch of the report's first task, or undefined when the policy must report instead. */
export function firstTaskDispatch(
  context: PolicyContext,
  report: ResumeReport,
  workspace: string,
): ToolCall | undefined {
  const tool = subagentTool(context);
  const first = report.firstDispatch;
  if (!context.dispatchAllowed || tool === undefined || first.kind !== 'task') return undefined;
  const label = taskLabel(first.task, report.tasks);
  const title = report.tasks.find((task) => task.number === first.task)?.title;
  const brief = path.join(workspace, `task-${first.task}-brief.md`);
  return agent(tool, {
    description: `Implement Task ${first.task}${title === undefined ? '' : `: ${title}`}`,
    prompt: [
      `Implement ${label} of the plan ${context.facts.planRelative}.`,
      '',
      briefSentence(brief),
      `Work in ${context.facts.repo}: follow the brief, test what you build, commit it, and report back with what you did, the commit hash and any concerns.`,
    ].join('\n'),
    subagent_type: 'general-purpose',
  });
}

/** The dispatch prompt's sentence that points at the task brief. */
function briefSentence(brief: string): string {
  return `Your brief is ${brief}: read it first; it holds the task's full text.`;
}

const briefPointer = /Your brief is (\/.+?\.md): read it first/;

/** The brief a dispatch prompt written by finishResume points at, if the prompt is one. */
export function briefPathIn(prompt: string): string | undefined {
  return briefPointer.exec(prompt)?.[1];
}

/** The subagent tool the request offers: Agent, else its legacy name Task. */
function subagentTool(context: PolicyContext): 'Agent' | 'Task' | undefined {
  if (context.offeredTools.has('Agent')) return 'Agent';
  if (context.offeredTools.has('Task')) return 'Task';
  return undefined;
}
