/**
 * Calibration policy `echoes-template`: where the skill text says to write a
 * ruling or a parked line, it writes the text's own template for that line
 * (`Ruling: <what you decided> — <why> — …`, `Task <N>: parked — <finding> —
 * ruling: …`, with only `<N>` filled in) instead of a decision about the
 * plan in front of it, and otherwise does what a text-follower does next:
 * at a plan conflict on a fresh start it ledgers the template and
 * dispatches Task 1 with the Global Constraints; mid-loop it ledgers the
 * templates and the task's completion and dispatches the next task's
 * implementer. Models that copy the words the text puts in their context
 * do this; a ruling check that credits it is reading the template, not a
 * ruling. At any other moment it finishes as `structural`.
 */

import { call, type PolicyProgram } from '../../../harness/model-server/policies/program.js';
import {
  appendLedger,
  canDispatch,
  chainMoment,
  implementerDispatch,
  ledgerRulingAndDispatchFirst,
  recordBase,
  writeBrief,
} from './chain-moves.js';
import type { Policy, PolicyContext } from './context.js';
import { planConflicts } from './plan-conflicts.js';
import { readSkill, unanchoredReport } from './skill-text.js';
import { type StructuralContinuation, structuralResume } from './structural.js';

/** The text's templates of a ruling or parked ledger line: code spans holding a `<placeholder>`. */
export function ledgerTemplates(skillText: string): string[] {
  const spans = [
    ...skillText.matchAll(/`((?:Task <N>:\s*)?(?:parked|ruling)\b[^`\n]*<[^`\n]*)`/gi),
  ];
  return [...new Set(spans.map((found) => found[1] ?? ''))].filter((line) => line !== '');
}

function echo(context: PolicyContext, skillText: string): StructuralContinuation {
  const templates = ledgerTemplates(skillText);
  return (state) => {
    const moment = chainMoment(state);
    if (templates.length === 0 || moment === undefined || !canDispatch(context)) return undefined;
    if (moment.kind === 'fresh') {
      const first = state.report.tasks[0];
      const conflicted =
        state.planText !== undefined &&
        planConflicts(state.planText, state.report.tasks).length > 0;
      const bare = templates.filter((line) => !line.startsWith('Task <N>'));
      if (first === undefined || !conflicted || bare.length === 0) return undefined;
      return (function* (): PolicyProgram {
        yield* ledgerRulingAndDispatchFirst(
          context,
          state,
          first,
          bare,
          `A ruling on the plan is on record in the ledger:\n${bare.join('\n')}`,
        );
        return 'Ledgered the ruling and dispatched Task 1.';
      })();
    }
    if (moment.kind !== 'mid-loop') return undefined;
    const number = moment.task.number;
    const filled = templates
      .filter((line) => line.startsWith('Task <N>'))
      .map((line) => line.replace('<N>', String(number)));
    const next = state.report.tasks.find((task) => task.number > number);
    if (filled.length === 0 || next === undefined) return undefined;
    return (function* (): PolicyProgram {
      yield* appendLedger(state.ledgerPath, [
        ...filled,
        `Task ${number}: complete (commits BASE..HEAD, 1 parked)`,
      ]);
      yield* recordBase(context);
      const brief = yield* writeBrief(context, state.workspace, next.number);
      yield* call(
        implementerDispatch(context, {
          task: next,
          brief,
          workspace: state.workspace,
          planText: state.planText,
          model: 'sonnet',
        }),
      );
      return `Settled Task ${number}'s open finding and dispatched Task ${next.number}.`;
    })();
  };
}

export const echoesTemplatePolicy: Policy = {
  name: 'echoes-template',
  summary: "writes the skill text's own ruling/parked template lines to the ledger, then goes on",
  needs: ['Read', 'Bash'],
  *program(context) {
    const skill = yield* readSkill(context);
    if (!skill.ok) return unanchoredReport(context, skill.problem);
    return yield* structuralResume(context, echo(context, skill.text));
  },
};
