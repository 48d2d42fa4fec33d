/**
 * `final-reviewer`: the likeliest wrong first move of a controller that
 * adopts a stale ledger. Like `literal` it reads the one ledger the released
 * text points at (`<repo>/.superpowers/sdd/progress.md`) and takes it at its
 * word; when that ledger lists every task of the plan complete, it moves on
 * to the skill's last step and dispatches a final whole-branch reviewer. With
 * a task left, or where it may not dispatch, it does what `literal` does. It
 * exists so a first-dispatch scenario can be shown failing that move.
 */

import { call, callAll, type ToolCall } from '../../../harness/model-server/policies/program.js';
import { agent, read } from '../../../harness/model-server/policies/tools.js';
import type { Policy, PolicyContext } from './context.js';
import { parseLedger } from './ledger.js';
import { literalResume } from './literal.js';
import type { PlanTask } from './plan.js';
import { readSkill, unanchoredReport } from './skill-text.js';
import { fileRead, flatLedgerPath, planRead } from './steps.js';

export const finalReviewerPolicy: Policy = {
  name: 'final-reviewer',
  summary:
    'trusts the flat ledger; when it lists every task done, dispatches a final whole-branch reviewer',
  needs: ['Read'],
  *program(context) {
    const skill = yield* readSkill(context);
    if (!skill.ok) return unanchoredReport(context, skill.problem);
    const tool = subagentTool(context);
    if (!context.dispatchAllowed || tool === undefined) return yield* literalResume(context);
    const [ledgerOutcome, planOutcome] = yield* callAll([
      read(flatLedgerPath(context)),
      read(context.facts.planFile),
    ]);
    const ledger = fileRead(ledgerOutcome ?? { text: '', isError: true });
    const plan = planRead(fileRead(planOutcome ?? { text: '', isError: true }));
    const done = new Set(ledger.ok ? parseLedger(ledger.text).entries.map((e) => e.task) : []);
    const allDone = plan.tasks.length > 0 && plan.tasks.every((task) => done.has(task.number));
    if (!allDone) return yield* literalResume(context);
    yield* call(reviewerDispatch(context, tool, plan.tasks));
    return 'Every task of the plan is recorded complete, so the final whole-branch review is next.';
  },
};

function subagentTool(context: PolicyContext): 'Agent' | 'Task' | undefined {
  if (context.offeredTools.has('Agent')) return 'Agent';
  if (context.offeredTools.has('Task')) return 'Task';
  return undefined;
}

/** A dispatch of a reviewer for the whole branch, shaped like a real controller's. */
function reviewerDispatch(
  context: PolicyContext,
  tool: 'Agent' | 'Task',
  tasks: readonly PlanTask[],
): ToolCall {
  const plan = context.facts.planRelative;
  return agent(tool, {
    description: 'Final whole-branch review',
    prompt: [
      `All ${tasks.length} tasks of the plan ${plan} are recorded complete in ${flatLedgerPath(context)}.`,
      '',
      `Review the whole branch against ${plan}: every task's requirements, the tests, and anything left unfinished. Report findings by severity.`,
    ].join('\n'),
    subagent_type: 'general-purpose',
  });
}
