/**
 * One rep as an ATIF v1.4 trajectory. The mapping:
 * - step 1 is the scenario prompt (prompt.md), source `user`; the system
 *   prompt is not in redgreen transcripts and is not a step;
 * - each main-session assistant turn (SDK messages sharing `message.id`) is
 *   one `agent` step: its text is the message, its thinking blocks the
 *   reasoning_content, its tool_use blocks the tool_calls, and the
 *   tool_result that answers each call goes into that step's observation;
 * - main-session user messages with text (not only tool results) are `user`
 *   steps;
 * - the final reply redgreen recorded (reply.md) is the last agent step.
 * Everything redgreen knows about the rep (verdict, campaign, model, whether
 * it was scripted) goes into `extra`; what could not be mapped is said in
 * `notes`. Pure.
 */

import type { Override } from '../judge/overrides.js';
import { sha256Hex } from '../lib/hash.js';
import type { RecordedRep } from '../report/load-results.js';
import type { CampaignRecord } from '../run/prepare-run.js';
import { parseReplyFile } from '../score/reply-file.js';
import { isInsideSubagent, type ToolCall } from '../score/tool-call.js';
import { readTranscript } from '../score/transcripts/claude-messages.js';
import {
  ATIF_SCHEMA_VERSION,
  type AtifStep,
  type AtifSubagentRef,
  type AtifTrajectory,
} from './atif-document.js';
import { finalMetrics, pricedModelOf } from './step-metrics.js';
import { seatTrajectories, subagentRefs } from './subagent-trajectory.js';
import { emptyMappingGaps, type MappingGaps, trajectoryNotes } from './trajectory-notes.js';
import { agentStep, userStep } from './trajectory-steps.js';
import { readTranscriptSequence, type TranscriptSequence } from './transcript-sequence.js';

export interface TrajectorySource {
  readonly record: CampaignRecord;
  readonly rep: RecordedRep;
  /** The hand verdict that replaces the scored one, when overrides.json has one. */
  readonly override: Override | undefined;
  /** prompt.md: the scenario prompt the session was given. */
  readonly prompt: string;
  /** transcript.jsonl, verbatim. */
  readonly transcript: string;
}

/**
 * Make the recorded final reply the last agent step. When the session's last
 * step is an agent turn without tool calls, that turn is the reply: if its
 * text differs from reply.md (the engine's result text can differ from the
 * turn's blocks), the step carries the recorded reply and keeps its own text
 * in `extra.turn_text`. Otherwise the reply gets an agent step of its own.
 */
function placeFinalReply(steps: AtifStep[], reply: string, gaps: MappingGaps): void {
  if (reply.trim() === '') return;
  const last = steps[steps.length - 1];
  if (last !== undefined && last.source === 'agent' && last.tool_calls === undefined) {
    if (last.message === reply) return;
    last.extra = { ...(last.extra ?? {}), turn_text: last.message };
    last.message = reply;
    gaps.finalReply =
      "The last agent step carries the final reply as redgreen recorded it (reply.md); the turn's own text differed and is kept in that step's extra.turn_text.";
    return;
  }
  steps.push({
    step_id: steps.length + 1,
    source: 'agent',
    message: reply,
    extra: { origin: 'reply.md' },
  });
  gaps.finalReply =
    'The transcript has no final agent turn without tool calls, so the final reply redgreen recorded (reply.md) is a last agent step of its own (extra.origin "reply.md").';
}

/** The steps: the prompt, then the transcript's turns in order, then the final reply placed. */
function buildSteps(
  source: TrajectorySource,
  sequence: TranscriptSequence,
  calls: ReadonlyMap<string, ToolCall>,
  pricedModel: string | undefined,
  gaps: MappingGaps,
  refs: ReadonlyMap<string, AtifSubagentRef[]>,
): AtifStep[] {
  const steps: AtifStep[] = [{ step_id: 1, source: 'user', message: source.prompt }];
  for (const turn of sequence.turns) {
    const stepId = steps.length + 1;
    if (turn.kind === 'agent') {
      steps.push(agentStep(turn, stepId, calls, pricedModel, gaps, refs));
    } else if (turn.kind === 'resume') {
      // The main conversation is read without a seat, so it has no resume turns.
    } else if (steps.length === 1 && turn.text === source.prompt) {
      gaps.promptEchoes++;
    } else {
      steps.push(userStep(turn, stepId));
    }
  }
  placeFinalReply(steps, parseReplyFile(source.rep.reply).reply, gaps);
  return steps;
}

/** A session id unique to this rep attempt and stable across exports of the same files. */
function sessionIdOf(source: TrajectorySource): string {
  const digest = sha256Hex(source.transcript).slice(0, 12);
  return `redgreen:${source.record.campaign.id}:${source.rep.id}:attempt${source.rep.meta.attempt}:${digest}`;
}

/** What redgreen knows about the rep beyond the trajectory, for `extra`. */
function repExtra(
  source: TrajectorySource,
  steps: readonly AtifStep[],
  sequence: TranscriptSequence,
  malformedLines: number,
): Record<string, unknown> {
  const { record, rep, override } = source;
  const { meta, score } = rep;
  const arm = record.arms.find((candidate) => candidate.name === meta.arm);
  const scenario = record.scenarios.find((candidate) => candidate.id === meta.scenario);
  return {
    rep_id: rep.id,
    arm: meta.arm,
    arm_role: arm?.role ?? null,
    arm_label: arm?.label ?? null,
    layout: meta.fixture.layout,
    scenario: meta.scenario,
    scenario_title: scenario?.title ?? null,
    rep: meta.rep,
    attempt: meta.attempt,
    verdict: override?.verdict ?? score.verdict,
    verdict_source: override === undefined ? 'scored' : 'override',
    scored_verdict: score.verdict,
    ...(override === undefined ? {} : { override_reason: override.reason }),
    reasons: score.reasons,
    would_fail: score.wouldFail,
    failed_checks: score.checks
      .filter((check) => check.outcome === 'fail')
      .map((check) => check.id),
    undecided_checks: score.checks
      .filter((check) => check.outcome === 'undecided')
      .map((check) => check.id),
    values: score.values,
    observations: Object.fromEntries(
      score.observations.map((observation) => [
        observation.id,
        observation.observed ?? observation.outcome,
      ]),
    ),
    status: meta.status,
    stop_reason: meta.stopReason,
    campaign: {
      id: record.campaign.id,
      title: record.campaign.title,
      identity: record.identity,
      shard: record.shard,
    },
    harness_version: meta.harnessVersion,
    backend: meta.backend,
    engine: meta.engine,
    model: {
      requested: meta.model.requested,
      reported: meta.model.reported,
      scripted: meta.model.scripted,
      policy: record.model.policy,
    },
    scripted_model: meta.model.scripted,
    tokens_estimated: meta.tokensEstimated,
    tool_uses: meta.toolUses,
    tool_calls_exported: steps.reduce((sum, step) => sum + (step.tool_calls?.length ?? 0), 0),
    subagent_tool_uses: meta.subagentToolUses,
    duration_ms: meta.durationMs,
    fixture: meta.fixture,
    skill_tree: meta.skill.tree,
    engine_session_id: sequence.init.sessionId ?? null,
    transcript_lines_skipped: sequence.skipped,
    transcript_lines_in_subagents: sequence.subagentLines,
    transcript_lines_unreadable: malformedLines,
  };
}

/** The trajectory of one rep: the controller's, and one per subagent seat. */
export interface AtifDocuments {
  readonly main: AtifTrajectory;
  /** Each seat's trajectory, with its path relative to the main trajectory's directory. */
  readonly subagents: readonly { readonly path: string; readonly trajectory: AtifTrajectory }[];
}

export function buildAtifTrajectory(source: TrajectorySource): AtifTrajectory {
  return buildAtifDocuments(source).main;
}

/**
 * The rep's trajectory and, for a session whose controller started
 * subagents, each seat's (subagent-trajectory.ts), in the directory
 * `<scenario>-rep<N>/` beside the main file; the controller's dispatch and
 * resume results link to them (`subagent_trajectory_ref`).
 */
export function buildAtifDocuments(source: TrajectorySource): AtifDocuments {
  const meta = source.rep.meta;
  const sequence = readTranscriptSequence(source.transcript);
  const read = readTranscript(source.transcript);
  const calls = new Map(
    read.toolCalls.filter((call) => !isInsideSubagent(call)).map((call) => [call.id, call]),
  );
  const pricedModel = pricedModelOf(meta);
  const gaps = emptyMappingGaps();
  const sessionId = sessionIdOf(source);
  const subagents = seatTrajectories({
    transcript: source.transcript,
    toolCalls: read.toolCalls,
    directory: `${meta.scenario}-rep${meta.rep}`,
    parentSessionId: sessionId,
    repId: source.rep.id,
    meta,
    pricedModel,
  });
  const steps = buildSteps(source, sequence, calls, pricedModel, gaps, subagentRefs(subagents));
  const malformedLines = Math.max(read.malformed.length, sequence.unreadableLines);
  const main = mainTrajectory(
    source,
    sequence,
    steps,
    malformedLines,
    pricedModel,
    gaps,
    sessionId,
  );
  return { main, subagents: subagents.map(({ path, trajectory }) => ({ path, trajectory })) };
}

function mainTrajectory(
  source: TrajectorySource,
  sequence: TranscriptSequence,
  steps: AtifStep[],
  malformedLines: number,
  pricedModel: string | undefined,
  gaps: MappingGaps,
  sessionId: string,
): AtifTrajectory {
  const meta = source.rep.meta;
  return {
    schema_version: ATIF_SCHEMA_VERSION,
    session_id: sessionId,
    agent: {
      name: `redgreen/${meta.backend}`,
      version: meta.harnessVersion,
      model_name: meta.model.reported ?? meta.model.requested,
      extra: {
        engine: meta.engine,
        sandbox: meta.sandbox,
        ...(sequence.init.tools === undefined ? {} : { tools: sequence.init.tools }),
      },
    },
    steps,
    notes: trajectoryNotes({
      repId: source.rep.id,
      campaignId: source.record.campaign.id,
      meta,
      steps,
      sequence,
      malformedLines,
      stepsPriced: pricedModel !== undefined,
      gaps,
    }),
    final_metrics: finalMetrics(meta, steps),
    extra: repExtra(source, steps, sequence, malformedLines),
  };
}
