/**
 * Each subagent seat of a rep as an ATIF v1.4 trajectory of its own. ATIF
 * v1.4 keeps a subagent in a separate trajectory and links to it from the
 * observation result of the call that delegated to it
 * (`subagent_trajectory_ref: [{session_id, trajectory_path, extra}]`);
 * redgreen writes each seat to `<scenario>-rep<N>/<agent-id>.json` beside the
 * rep's trajectory, and links it from the controller's dispatch result
 * (`extra.event: "dispatch"`) and from each SendMessage result that resumed
 * it (`extra.event: "resume"`).
 *
 * A seat's trajectory: step 1 is the dispatch prompt (user, `extra.dispatch`
 * names the call; Claude Code's echo of it is not repeated); then the seat's own turns as agent and user steps, as
 * the main trajectory maps them; each resume is a user step carrying the
 * message the SendMessage sent (`extra.resume.via` = that call's id), where
 * it came in the session. Its root `extra.seat` holds the seat's facts
 * (agent id, dispatch, tool, subagent_type, model, description, resumes,
 * tool calls) and `extra.parent_session_id` the controller's trajectory.
 * The seats are readSessionTranscript's (score/transcripts/).
 */
import type { RepMeta } from '../results/rep-meta.js';
import { stringField, type ToolCall } from '../score/tool-call.js';
import { readSessionTranscript } from '../score/transcripts/read-transcript.js';
import type { TranscriptSeat } from '../score/transcripts/session-transcript.js';
import {
  ATIF_SCHEMA_VERSION,
  type AtifStep,
  type AtifSubagentRef,
  type AtifTrajectory,
} from './atif-document.js';
import { stepSum } from './step-metrics.js';
import { emptyMappingGaps } from './trajectory-notes.js';
import { agentStep, userStep } from './trajectory-steps.js';
import { readTranscriptSequence } from './transcript-sequence.js';

/** One seat's trajectory, where it is written, and the calls that link to it. */
export interface SeatTrajectory {
  /** Relative to the main trajectory's directory, `/`-separated. */
  readonly path: string;
  readonly trajectory: AtifTrajectory;
  readonly dispatch: string;
  readonly resumes: readonly string[];
  readonly agentId: string | null;
}

export interface SeatSources {
  readonly transcript: string;
  readonly toolCalls: readonly ToolCall[];
  /** The directory the seats' files go in, relative to the main trajectory's. */
  readonly directory: string;
  readonly parentSessionId: string;
  readonly repId: string;
  readonly meta: RepMeta;
  readonly pricedModel: string | undefined;
}

/** A file name for a seat: its agent id, or its place in the session when it has none. */
function fileName(seat: TranscriptSeat, index: number): string {
  const base = seat.agentId ?? `seat-${index + 1}`;
  return `${base.replace(/[^\w.-]/g, '_')}.json`;
}

function seatSteps(
  seat: TranscriptSeat,
  sources: SeatSources,
  dispatch: ToolCall | undefined,
): AtifStep[] {
  const calls = new Map(
    sources.toolCalls
      .filter((call) => call.parentToolUseId === seat.dispatch)
      .map((call) => [call.id, call]),
  );
  const sequence = readTranscriptSequence(sources.transcript, {
    dispatch: seat.dispatch,
    resumes: seat.resumes,
  });
  const gaps = emptyMappingGaps();
  const prompt = (dispatch === undefined ? undefined : stringField(dispatch.input, 'prompt')) ?? '';
  const steps: AtifStep[] = [
    {
      step_id: 1,
      source: 'user',
      message: prompt,
      extra: {
        dispatch: { tool_call_id: seat.dispatch, tool: seat.tool, description: seat.description },
      },
    },
  ];
  for (const turn of sequence.turns) {
    const stepId = steps.length + 1;
    if (turn.kind === 'agent') {
      steps.push(agentStep(turn, stepId, calls, sources.pricedModel, gaps));
    } else if (turn.kind === 'resume') {
      steps.push({
        step_id: stepId,
        ...(turn.timestamp === undefined ? {} : { timestamp: turn.timestamp }),
        source: 'user',
        message: turn.message,
        extra: { resume: { via: turn.via, agent_id: seat.agentId } },
      });
    } else if (steps.length === 1 && turn.text === prompt) {
      // Claude Code's stream-json repeats the dispatch prompt as the seat's first message.
    } else {
      steps.push(userStep(turn, stepId));
    }
  }
  return steps;
}

function seatTrajectory(
  seat: TranscriptSeat,
  index: number,
  sources: SeatSources,
  dispatch: ToolCall | undefined,
): SeatTrajectory {
  const steps = seatSteps(seat, sources, dispatch);
  const name = seat.agentId ?? `seat-${index + 1}`;
  const costs = steps.filter((step) => step.source === 'agent').map((s) => s.metrics?.cost_usd);
  const trajectory: AtifTrajectory = {
    schema_version: ATIF_SCHEMA_VERSION,
    session_id: `${sources.parentSessionId}/${name}`,
    agent: {
      name: `redgreen/${sources.meta.backend}/subagent`,
      version: sources.meta.harnessVersion,
      model_name:
        seat.modelUsed ?? seat.model ?? sources.meta.model.reported ?? sources.meta.model.requested,
      extra: { subagent_type: seat.subagentType, model_requested: seat.model },
    },
    steps,
    notes: `Subagent ${name} (${seat.description ?? 'no description'}) of redgreen rep ${sources.repId}: started by the controller's ${seat.tool} call ${seat.dispatch}${seat.resumes.length === 0 ? '' : `, resumed by ${seat.resumes.length} SendMessage call(s) (user steps with extra.resume)`}. Step 1 is the dispatch prompt. The controller's trajectory is ${sources.parentSessionId}.`,
    final_metrics: {
      total_prompt_tokens: stepSum(steps, 'prompt_tokens'),
      total_completion_tokens: stepSum(steps, 'completion_tokens'),
      total_cached_tokens: stepSum(steps, 'cached_tokens'),
      total_cost_usd:
        costs.length === 0 || costs.some((cost) => cost === undefined || cost === null)
          ? null
          : costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0),
      total_steps: steps.length,
    },
    extra: {
      rep_id: sources.repId,
      parent_session_id: sources.parentSessionId,
      seat: {
        agent_id: seat.agentId,
        dispatch: seat.dispatch,
        tool: seat.tool,
        subagent_type: seat.subagentType,
        model: seat.model,
        model_used: seat.modelUsed,
        description: seat.description,
        resumes: seat.resumes,
        tool_calls: seat.toolCalls,
      },
    },
  };
  return {
    path: `${sources.directory}/${fileName(seat, index)}`,
    trajectory,
    dispatch: seat.dispatch,
    resumes: seat.resumes,
    agentId: seat.agentId,
  };
}

/** The trajectory of every subagent seat the transcript records, in the order they started. */
export function seatTrajectories(sources: SeatSources): SeatTrajectory[] {
  const read = readSessionTranscript(sources.transcript, 'transcript.jsonl');
  if (!read.ok) return [];
  const dispatches = new Map(sources.toolCalls.map((call) => [call.id, call]));
  return read.value.seats.map((seat, index) =>
    seatTrajectory(seat, index, sources, dispatches.get(seat.dispatch)),
  );
}

/** The links the controller's results carry: by call id, the seat each dispatch or resume reached. */
export function subagentRefs(
  seats: readonly SeatTrajectory[],
): ReadonlyMap<string, AtifSubagentRef[]> {
  const refs = new Map<string, AtifSubagentRef[]>();
  const add = (callId: string, ref: AtifSubagentRef): void => {
    refs.set(callId, [...(refs.get(callId) ?? []), ref]);
  };
  for (const seat of seats) {
    const base = {
      session_id: seat.trajectory.session_id,
      trajectory_path: seat.path,
    };
    add(seat.dispatch, { ...base, extra: { event: 'dispatch', agent_id: seat.agentId } });
    for (const via of seat.resumes) {
      add(via, { ...base, extra: { event: 'resume', agent_id: seat.agentId } });
    }
  }
  return refs;
}
