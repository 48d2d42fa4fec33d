/**
 * What `redgreen adjudicate` asks a person about: every rep where the checks
 * and the judge both decided and disagree, then every indeterminate rep,
 * leaving out reps already settled in overrides.json (so a walk-through
 * stopped half way resumes where it stopped). Each entry carries what the
 * screen shows: the reply, the captured dispatch, the key tool calls, the
 * failing and undecided checks, and the judge's items with their rationale.
 */

import path from 'node:path';
import { compareRep } from '../judge/agreement.js';
import type { Judgement } from '../judge/judgement.js';
import { dispatchesOf } from '../judge/material.js';
import { settlesJudgement } from '../judge/report-model.js';
import { readRegularText } from '../lib/contained-file.js';
import type { LoadedResults } from '../report/load-results.js';
import { REP_FILES } from '../results/results-layout.js';
import { parseReplyFile } from '../score/reply-file.js';
import type { ToolCall } from '../score/tool-call.js';
import { readTranscript } from '../score/transcripts/claude-messages.js';

export interface QueuedRep {
  readonly id: string;
  readonly why: 'disagreement' | 'indeterminate';
  /** The scored verdict, and the checks' and judge's verdicts when judged. */
  readonly scored: 'pass' | 'fail' | 'indeterminate';
  readonly checksVerdict: string | undefined;
  readonly judgeVerdict: string | undefined;
  readonly reasons: readonly string[];
  readonly reply: string;
  readonly dispatches: readonly { tool: string; input: unknown; captured: boolean }[];
  readonly toolCalls: readonly ToolCall[] | undefined;
  /** Details of the checks that failed or could not be decided (pre-checks included). */
  readonly checkProblems: readonly string[];
  readonly judgement: Judgement | undefined;
}

/**
 * The reps to settle, disagreements first, each in the tables' order
 * (scenario, arm, rep). Reps already settled are left out: a disagreement
 * whose override settles its judgement (a pass or fail given after it), an
 * indeterminate rep with any override.
 */
export async function adjudicationQueue(loaded: LoadedResults): Promise<QueuedRep[]> {
  const scenarioAt = (id: string) => loaded.record.scenarios.findIndex((s) => s.id === id);
  const armAt = (name: string) => loaded.record.arms.findIndex((arm) => arm.name === name);
  const reps = [...loaded.reps].sort(
    (a, b) =>
      scenarioAt(a.meta.scenario) - scenarioAt(b.meta.scenario) ||
      armAt(a.meta.arm) - armAt(b.meta.arm) ||
      a.meta.rep - b.meta.rep,
  );
  const queue: QueuedRep[] = [];
  for (const why of ['disagreement', 'indeterminate'] as const) {
    for (const rep of reps) {
      const override = loaded.overrides[rep.id];
      const judgement = loaded.judgements.get(rep.id);
      const comparison = judgement === undefined ? undefined : compareRep(rep.score, judgement);
      const matches =
        why === 'disagreement'
          ? comparison?.agreement === 'disagree' &&
            !settlesJudgement(override, judgement as Judgement)
          : override === undefined &&
            rep.score.verdict === 'indeterminate' &&
            comparison?.agreement !== 'disagree';
      if (!matches) continue;
      const replyFile = parseReplyFile(rep.reply);
      const transcript = await readRegularText(path.join(rep.dir, REP_FILES.transcript)).then(
        (text) => readTranscript(text).toolCalls,
        () => undefined,
      );
      queue.push({
        id: rep.id,
        why,
        scored: rep.score.verdict,
        checksVerdict: comparison?.checks,
        judgeVerdict: comparison?.judge,
        reasons: rep.score.reasons,
        reply: replyFile.reply,
        dispatches: dispatchesOf({
          capturedDispatch: replyFile.capturedDispatch,
          toolCalls: transcript,
        }),
        toolCalls: transcript,
        checkProblems: [...rep.score.pre, ...rep.score.checks]
          .filter((check) => check.outcome !== 'pass')
          .map((check) => `${check.outcome}: ${check.detail}`),
        judgement,
      });
    }
  }
  return queue;
}
