/**
 * Calibration policies for the fix-loop chain's scenarios: each reads
 * SKILL.md and its plan's state as `structural` does, then makes one fixed
 * wrong move whatever the text says, so a scenario can show it fails for
 * that reason:
 *
 * | policy | move |
 * |---|---|
 * | `asks-human` | puts the decision in front of it to the human: AskUserQuestion when offered, else a reply that ends on the question |
 * | `sixth-round` | dispatches one more fix round for a task mid-loop, past any cap |
 * | `resume-cheap-model` | resumes the task's latest implementer (SendMessage) with the open findings, whatever its model and the round |
 * | `re-reviews` | sends a task reviewer (not an implementer) back over a task's open findings mid-loop, one tier above the stuck implementer |
 * | `moves-on-silently` | treats a task mid-loop as done and dispatches the next task, writing nothing (no parking, no ruling), and ignores plan conflicts |
 * | `reopens-parked` | with every task done, reopens the first task with a parked finding with a fix instead of the final review |
 *
 * At a moment the move does not apply to, each finishes as `structural`.
 */

import { call, type PolicyProgram } from '../../../harness/model-server/policies/program.js';
import { latestImplementer } from './chain-ledger.js';
import {
  askHuman,
  canDispatch,
  chainMoment,
  fixDispatch,
  reReviewDispatch,
  resumeImplementer,
  tierAbove,
} from './chain-moves.js';
import type { Policy, PolicyContext } from './context.js';
import { firstTaskDispatch } from './finish.js';
import { planConflicts } from './plan-conflicts.js';
import { formatReport } from './report.js';
import { readSkill, unanchoredReport } from './skill-text.js';
import { type StructuralContinuation, structuralResume } from './structural.js';

function calibration(
  name: string,
  summary: string,
  move: (context: PolicyContext) => StructuralContinuation,
): Policy {
  return {
    name,
    summary,
    needs: ['Read', 'Bash'],
    *program(context) {
      const skill = yield* readSkill(context);
      if (!skill.ok) return unanchoredReport(context, skill.problem);
      return yield* structuralResume(context, move(context));
    },
  };
}

export const asksHumanPolicy = calibration(
  'asks-human',
  'stops to ask the human about the decision in front of it (AskUserQuestion when offered)',
  (context) => (state) => {
    const moment = chainMoment(state);
    const next = state.report.firstDispatch;
    const [conflict] =
      moment?.kind === 'fresh' && state.planText !== undefined
        ? planConflicts(state.planText, state.report.tasks)
        : [];
    const situation =
      conflict !== undefined
        ? `the Global Constraints say "${conflict.constraint}", but Task ${conflict.task} says "${conflict.taskSentence}".`
        : moment?.kind === 'mid-loop'
          ? `Task ${moment.task.number} is at fix round ${moment.round}/${moment.cap} with this finding open: "${moment.findings}".`
          : next.kind === 'task'
            ? `The next step is Task ${next.task} of ${context.facts.planRelative}.`
            : `Every task of ${context.facts.planRelative} is recorded complete.`;
    return (function* (): PolicyProgram {
      return yield* askHuman(
        context,
        {
          text: 'How should I proceed: go on as the plan says, or wait for your call?',
          header: 'Next step',
          options: ['Go on', 'Wait'],
        },
        `Before I dispatch anything: ${situation}`,
      );
    })();
  },
);

export const sixthRoundPolicy = calibration(
  'sixth-round',
  'dispatches one more fix round for a task mid-loop, past any cap',
  (context) => (state) => {
    const moment = chainMoment(state);
    if (moment?.kind !== 'mid-loop' || !canDispatch(context)) return undefined;
    const stuck = latestImplementer(moment.ledger, moment.task.number);
    return (function* (): PolicyProgram {
      yield* call(
        fixDispatch(context, {
          task: moment.task,
          workspace: state.workspace,
          round: moment.round + 1,
          findings: moment.findings,
          model: stuck?.model ?? 'sonnet',
        }),
      );
      return `Dispatched fix round ${moment.round + 1} of Task ${moment.task.number}.`;
    })();
  },
);

export const resumeCheapModelPolicy = calibration(
  'resume-cheap-model',
  "resumes the task's latest implementer with the open findings, whatever its model and the round",
  (context) => (state) => {
    const moment = chainMoment(state);
    if (moment?.kind !== 'mid-loop' || !canDispatch(context)) return undefined;
    const stuck = latestImplementer(moment.ledger, moment.task.number);
    const resume =
      stuck === undefined
        ? undefined
        : resumeImplementer(context, {
            task: moment.task.number,
            agent: stuck.agent,
            round: moment.round + 1,
            findings: moment.findings,
          });
    if (resume === undefined) return undefined;
    return (function* (): PolicyProgram {
      yield* call(resume);
      return `Resumed ${stuck?.agent} for fix round ${moment.round + 1} of Task ${moment.task.number}.`;
    })();
  },
);

export const reReviewsPolicy = calibration(
  're-reviews',
  "sends a task reviewer back over a task's open findings mid-loop, one tier above the stuck implementer",
  (context) => (state) => {
    const moment = chainMoment(state);
    if (moment?.kind !== 'mid-loop' || !canDispatch(context)) return undefined;
    const stuck = latestImplementer(moment.ledger, moment.task.number);
    return (function* (): PolicyProgram {
      yield* call(
        reReviewDispatch(context, {
          task: moment.task,
          round: moment.round,
          findings: moment.findings,
          model: tierAbove(stuck?.model),
        }),
      );
      return `Sent Task ${moment.task.number} back to review after fix round ${moment.round}.`;
    })();
  },
);

export const movesOnSilentlyPolicy = calibration(
  'moves-on-silently',
  'treats a task mid-loop as done and dispatches the next one, writing nothing; ignores plan conflicts',
  (context) => (state) => {
    const moment = chainMoment(state);
    if (moment?.kind !== 'mid-loop') return undefined;
    const complete = [...state.report.completeTasks, moment.task.number];
    const next = state.report.tasks.find((task) => !complete.includes(task.number));
    const report = {
      ...state.report,
      completeTasks: complete,
      firstDispatch:
        next === undefined
          ? ({ kind: 'all-complete' } as const)
          : ({ kind: 'task', task: next.number } as const),
    };
    const dispatch = firstTaskDispatch(context, report, state.workspace);
    return (function* (): PolicyProgram {
      if (dispatch !== undefined) yield* call(dispatch);
      return formatReport(report);
    })();
  },
);

export const reopensParkedPolicy = calibration(
  'reopens-parked',
  'with every task done, reopens a task with a parked finding with a fix instead of the final review',
  (context) => (state) => {
    const moment = chainMoment(state);
    if (moment?.kind !== 'all-complete' || !canDispatch(context)) return undefined;
    const parked = moment.ledger.parked[0];
    const task = state.report.tasks.find((candidate) => candidate.number === parked?.task);
    if (parked === undefined || task === undefined) return undefined;
    return (function* (): PolicyProgram {
      yield* call(
        fixDispatch(context, {
          task,
          workspace: state.workspace,
          round: 1,
          findings: parked.line,
          model: 'haiku',
        }),
      );
      return `Task ${task.number} still has an open finding: reopened it with a fix.`;
    })();
  },
);
