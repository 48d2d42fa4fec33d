/**
 * `literal`: the hypothesised failure. It re-reads SKILL.md, reads the one
 * ledger the released text points at (`<repo>/.superpowers/sdd/progress.md`)
 * and trusts it: every task listed complete is done, whichever plan wrote it,
 * and it dispatches the first task not listed. No ledger there: fresh start.
 * Its briefs go to the released script's workspace, `.superpowers/sdd/`.
 */

import { callAll, type PolicyProgram } from '../../../harness/model-server/policies/program.js';
import { read } from '../../../harness/model-server/policies/tools.js';
import type { Policy, PolicyContext } from './context.js';
import { finishResume } from './finish.js';
import { parseLedger } from './ledger.js';
import { firstIncomplete, type LedgerFinding, taskRange } from './report.js';
import { readSkill, unanchoredReport } from './skill-text.js';
import {
  fileRead,
  flatLedgerPath,
  flatWorkspace,
  maybeLookAround,
  maybeVerify,
  planRead,
} from './steps.js';

export const literalPolicy: Policy = {
  name: 'literal',
  summary: 'trusts whatever ledger the released text points at (.superpowers/sdd/progress.md)',
  needs: ['Read'],
  *program(context) {
    const skill = yield* readSkill(context);
    if (!skill.ok) return unanchoredReport(context, skill.problem);
    return yield* literalResume(context);
  },
};

/** Read the flat ledger and the plan; take the ledger at its word. */
export function* literalResume(context: PolicyContext): PolicyProgram {
  const ledgerPath = flatLedgerPath(context);
  const [ledgerOutcome, planOutcome] = yield* callAll([
    read(ledgerPath),
    read(context.facts.planFile),
  ]);
  const ledgerFile = fileRead(ledgerOutcome ?? { text: '', isError: true });
  const plan = planRead(fileRead(planOutcome ?? { text: '', isError: true }));
  yield* maybeLookAround(context);

  let finding: LedgerFinding;
  let complete: number[] = [];
  if (ledgerFile.ok) {
    const ledger = parseLedger(ledgerFile.text);
    complete = ledger.entries.map((entry) => entry.task);
    const listed =
      complete.length === 0 ? 'lists no completed task' : `lists ${taskRange(complete)} complete`;
    const review = ledger.finalReviewDone ? ' and the final whole-branch review done' : '';
    finding = {
      path: ledgerPath,
      conclusion: `${listed}${review}; this is the durable progress record the skill points to, so those tasks are DONE.`,
    };
  } else {
    finding = { path: ledgerPath, conclusion: 'not present — no recorded progress; fresh start.' };
  }
  yield* maybeVerify(context);
  return yield* finishResume(
    context,
    {
      ledgers: [finding],
      noLedgersNote: 'none.',
      completeTasks: complete,
      firstDispatch: firstIncomplete(plan.tasks, complete),
      tasks: plan.tasks,
    },
    flatWorkspace(context),
  );
}
