/**
 * `always-redo`: ignores every ledger and restarts the plan at Task 1, claiming
 * nothing complete. In S2 it re-does Tasks 1–2, which is the failure the
 * ledger exists to prevent; it is here so the scorer can be shown failing it.
 */

import type { PolicyProgram } from '../../../harness/model-server/policies/program.js';
import { call } from '../../../harness/model-server/policies/program.js';
import { bash } from '../../../harness/model-server/policies/tools.js';
import type { Policy, PolicyContext } from './context.js';
import { finishResume } from './finish.js';
import { readSkill, unanchoredReport, workspaceFor } from './skill-text.js';
import { git, maybeLookAround, maybeVerify, planRead, readFile } from './steps.js';

export const alwaysRedoPolicy: Policy = {
  name: 'always-redo',
  summary: 'ignores every ledger and starts the plan at Task 1',
  needs: ['Read', 'Bash'],
  *program(context) {
    const skill = yield* readSkill(context);
    if (!skill.ok) return unanchoredReport(context, skill.problem);
    return yield* freshStart(
      context,
      'none consulted — starting the plan over from Task 1.',
      workspaceFor(context, skill.text),
    );
  },
};

/** Start the plan from Task 1 without reading any ledger; briefs go to `workspace`. */
export function* freshStart(
  context: PolicyContext,
  ledgersNote: string,
  workspace: string,
): PolicyProgram {
  const plan = planRead(yield* readFile(context.facts.planFile));
  yield* maybeLookAround(context);
  yield* call(bash(git(context, 'log --oneline -n 10'), 'See where the branch stands'));
  yield* maybeVerify(context);
  return yield* finishResume(
    context,
    {
      ledgers: [],
      noLedgersNote: ledgersNote,
      completeTasks: [],
      firstDispatch: { kind: 'task', task: plan.tasks[0]?.number ?? 1 },
      tasks: plan.tasks,
    },
    workspace,
  );
}
