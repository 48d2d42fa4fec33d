/**
 * What `skill-reader` does at the moments of the fix-loop chain, following
 * what the text it read says (its mechanisms, skill-mechanisms.ts). Each
 * case is one moment of `packs/sdd/fixtures/buildclock/README.md` ("Correct first
 * moves, per text"):
 *
 * - a fresh start: the texts that check the plan for conflicts before Task 1
 *   (`ask` or `rule`) do; a conflict is put to the user in one question
 *   (`ask`), or ruled on, ledgered and carried in the Task 1 dispatch (`rule`);
 * - a task mid-way through its fix loop: `unbounded` dispatches another fix
 *   (a fix subagent on the cheapest tier, "a single-file fix takes haiku"),
 *   unless the finding collides with the plan (it names a later task) and the
 *   text asks the user about such findings; `breaker` resumes the implementer
 *   in rounds 1-3, sends rounds 4-5 to a fresh implementer one tier up, and at
 *   the cap settles each open finding: parks it with a ruling (`ruling:` or
 *   `Ruling:`, as the text writes it), or, when a later task builds on it,
 *   stops BLOCKED (`ask`) or rules on it and carries the ruling (`rule`); a
 *   settled task is marked complete and the next task dispatched;
 * - every task complete: the final whole-branch review, pointed at the
 *   ledger's `minor (deferred)` lines, and its `parked` lines too under a
 *   breaker text.
 *
 * Anything else (and any text that predates these mechanisms at a moment it
 * does not speak to) finishes as the structural reader always did. Nothing
 * happens when the prompt forbids dispatching: the policy reports as before.
 */

import { call, type PolicyProgram } from '../../../harness/model-server/policies/program.js';
import { type ChainLedger, latestImplementer, taskBase } from './chain-ledger.js';
import {
  appendLedger,
  canDispatch,
  chainMoment,
  finalReviewDispatch,
  fixDispatch,
  implementerDispatch,
  ledgerRulingAndDispatchFirst,
  namesLaterTask,
  packageBranch,
  recordBase,
  replyOnly,
  resumeImplementer,
  tierAbove,
  writeBrief,
} from './chain-moves.js';
import type { PolicyContext } from './context.js';
import type { PlanTask } from './plan.js';
import { planConflicts } from './plan-conflicts.js';
import { classifyMechanisms, type SkillMechanisms } from './skill-mechanisms.js';
import type { StructuralContinuation, StructuralState } from './structural.js';

/** The continuation of a structural resume that follows the chain text `skillText`. */
export function chainReader(context: PolicyContext, skillText: string): StructuralContinuation {
  const mechanisms = classifyMechanisms(skillText);
  const parkedWord = /Task <N>: parked — <finding> — Ruling:/.test(skillText) ? 'Ruling' : 'ruling';
  return (state) => {
    if (!canDispatch(context)) return undefined;
    const moment = chainMoment(state);
    if (moment === undefined) return undefined;
    switch (moment.kind) {
      case 'fresh':
        return freshStart(context, state, mechanisms);
      case 'all-complete':
        return finalReview(context, state, moment.ledger, mechanisms);
      case 'mid-loop':
        return midLoop(context, state, mechanisms, parkedWord, moment);
      case 'next':
        return undefined;
    }
  };
}

function freshStart(
  context: PolicyContext,
  state: StructuralState,
  mechanisms: SkillMechanisms,
): PolicyProgram | undefined {
  if (mechanisms.planConflicts === 'unknown' || state.planText === undefined) return undefined;
  const [conflict] = planConflicts(state.planText, state.report.tasks);
  const first = state.report.tasks[0];
  if (conflict === undefined || first === undefined) return undefined;
  const found = `The Global Constraints say "${conflict.constraint}", but Task ${conflict.task} (${conflict.taskTitle}) says "${conflict.taskSentence}".`;
  if (mechanisms.planConflicts === 'ask') {
    return replyOnly(
      `Before Task 1 I read the plan for conflicts and found one. ${found}\n\nWhich governs, ${conflict.value} (the Global Constraints) or ${conflict.taskValue} (Task ${conflict.task})?`,
    );
  }
  const ruling = `Ruling: ${conflict.value} governs, Task ${conflict.task} included — the Global Constraints bind every task and "${conflict.constraint}" — if ${conflict.taskValue} was meant, Task ${conflict.task} and its tests change`;
  return (function* () {
    yield* ledgerRulingAndDispatchFirst(
      context,
      state,
      first,
      [ruling],
      `A ruling on the plan is on record in the ledger and binds this task:\n${ruling}`,
    );
    return `Ruled on a plan conflict (${ruling}) and dispatched Task 1.`;
  })();
}

function finalReview(
  context: PolicyContext,
  state: StructuralState,
  ledger: ChainLedger,
  mechanisms: SkillMechanisms,
): PolicyProgram {
  const withParked = mechanisms.fixLoop === 'breaker';
  const lines = [...ledger.minors, ...(withParked ? ledger.parked : [])]
    .sort((a, b) => a.task - b.task)
    .map((line) => line.line);
  return (function* () {
    const packagePath = yield* packageBranch(context, state.workspace);
    yield* call(
      finalReviewDispatch(context, {
        packagePath,
        pointAt: withParked ? '`minor (deferred)` and `parked`' : '`minor (deferred)`',
        lines,
      }),
    );
    return 'Every task is complete: dispatched the final whole-branch review.';
  })();
}

function midLoop(
  context: PolicyContext,
  state: StructuralState,
  mechanisms: SkillMechanisms,
  parkedWord: string,
  moment: { ledger: ChainLedger; task: PlanTask; round: number; cap: number; findings: string },
): PolicyProgram | undefined {
  const { ledger, task, round, cap, findings } = moment;
  const tasks = state.report.tasks;
  const loadBearing = namesLaterTask(findings, task.number, tasks);
  if (mechanisms.fixLoop !== 'breaker') {
    if (loadBearing && mechanisms.planConflicts === 'ask') {
      return replyOnly(
        `A review finding on Task ${task.number} collides with the plan: "${findings}". Task ${task.number}'s brief prescribes one thing and a later task builds on another.\n\nWhich governs: Task ${task.number}'s brief as written, or the later task's reading?`,
      );
    }
    return (function* () {
      yield* call(
        fixDispatch(context, {
          task,
          workspace: state.workspace,
          round: round + 1,
          findings,
          model: 'haiku',
        }),
      );
      return `Task ${task.number} still has an open finding: dispatched a fix.`;
    })();
  }
  const stuck = latestImplementer(ledger, task.number);
  if (round < 3 && stuck !== undefined) {
    const resume = resumeImplementer(context, {
      task: task.number,
      agent: stuck.agent,
      round: round + 1,
      findings,
    });
    if (resume !== undefined) {
      return (function* () {
        yield* call(resume);
        return `Resumed Task ${task.number}'s implementer for fix round ${round + 1}.`;
      })();
    }
  }
  if (round < cap) {
    return (function* () {
      yield* call(
        fixDispatch(context, {
          task,
          workspace: state.workspace,
          round: round + 1,
          findings,
          // Rounds 4-5 go one tier up, with the hand-over framing; a round 1-3 this session
          // cannot resume goes to a fresh implementer on the stuck one's model.
          ...(round >= 3
            ? {
                model: tierAbove(stuck?.model),
                framing: `Task ${task.number} has had ${round} fix rounds by another implementer; it is yours now, and the report file says what was tried.`,
              }
            : { model: stuck?.model ?? 'sonnet' }),
        }),
      );
      return `Dispatched fix round ${round + 1} of Task ${task.number} to a fresh implementer.`;
    })();
  }
  return breaker(context, state, mechanisms, parkedWord, { ledger, task, findings, loadBearing });
}

function breaker(
  context: PolicyContext,
  state: StructuralState,
  mechanisms: SkillMechanisms,
  parkedWord: string,
  open: { ledger: ChainLedger; task: PlanTask; findings: string; loadBearing: boolean },
): PolicyProgram {
  const { ledger, task, findings, loadBearing } = open;
  const range = `${taskBase(ledger, task.number) ?? 'BASE'}..${
    ledger.rounds
      .filter((r) => r.task === task.number)
      .at(-1)
      ?.range?.split('..')[1] ?? 'HEAD'
  }`;
  const next = state.report.tasks.find((candidate) => candidate.number > task.number);
  if (loadBearing && mechanisms.planConflicts !== 'rule') {
    return (function* () {
      yield* appendLedger(state.ledgerPath, [
        `Task ${task.number}: BLOCKED — ${findings}; it collides with the plan and Task ${task.number} cannot fix it`,
      ]);
      return `Stopped: Task ${task.number} is BLOCKED after five fix rounds. The open finding, "${findings}", collides with what the plan prescribes (Task ${task.number}'s brief against a later task), so parking it would let the later task build on the flaw. The ledger records the five rounds and the block.`;
    })();
  }
  const settle = loadBearing
    ? `Task ${task.number}: Ruling: Task ${task.number} stands as its brief defines it and the later task adapts its input to it (${findings}) — Task ${task.number} meets its brief and the later task is not written yet — if the later task's form was meant, Task ${task.number}'s code and tests change`
    : `Task ${task.number}: parked — ${findings} — ${parkedWord}: real but cosmetic; nothing a later task builds on depends on it, so the final review decides whether it is fixed before merge`;
  return (function* () {
    yield* appendLedger(state.ledgerPath, [
      settle,
      `Task ${task.number}: complete (commits ${range}, 1 parked)`,
    ]);
    if (next === undefined) return `Settled Task ${task.number}'s open finding.`;
    yield* recordBase(context);
    const brief = yield* writeBrief(context, state.workspace, next.number);
    yield* call(
      implementerDispatch(context, {
        task: next,
        brief,
        workspace: state.workspace,
        planText: state.planText,
        model: 'sonnet',
        notes: loadBearing ? [`A ruling on record in the ledger shapes this task:\n${settle}`] : [],
      }),
    );
    return `Settled Task ${task.number}'s open finding at the breaker and dispatched Task ${next.number}.`;
  })();
}
