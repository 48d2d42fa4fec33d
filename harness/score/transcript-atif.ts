/**
 * Reading an ATIF v1.4 trajectory (`redgreen export --atif` writes them, as
 * may other tools) into what scoring needs: the controller's tool calls
 * from its agent steps (a call named Agent or Task stays a dispatch), each
 * with the observation that answers it as output; the final reply (the last
 * agent message); how the session ended; and the subagent seats. ATIF keeps
 * a subagent in a trajectory of its own, linked from the observation result
 * of the call that delegated to it (`subagent_trajectory_ref`); the linked
 * trajectories are given by their trajectory_path (atif-subtrajectories.ts
 * reads them from beside the file), and each becomes a seat, so a check by
 * seat scores an export as it scores the original transcript.
 */
import { z } from 'zod';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import type { RunnerStatus } from './score-rep.js';
import { isSubagentDispatch, stringField, type ToolCall } from './tool-call.js';
import type { SessionTranscript } from './transcript-formats.js';
import type { MalformedLine } from './transcript-reader.js';
import type { TranscriptSeat } from './transcript-seats.js';

const ATIF_VERSION = 'ATIF-v1.4';

const atifToolCallSchema = z.looseObject({
  tool_call_id: z.string().min(1),
  function_name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
});

const atifStepSchema = z.looseObject({
  step_id: z.number().int().min(1),
  source: z.enum(['system', 'user', 'agent']),
  message: z.string(),
  model_name: z.string().nullish(),
  tool_calls: z.array(atifToolCallSchema).nullish(),
  observation: z
    .looseObject({
      results: z.array(
        z.looseObject({
          source_call_id: z.string().nullish(),
          content: z.string().nullish(),
          subagent_trajectory_ref: z
            .array(
              z.looseObject({
                session_id: z.string().min(1),
                trajectory_path: z.string().min(1).nullish(),
                extra: z.record(z.string(), z.unknown()).nullish(),
              }),
            )
            .nullish(),
        }),
      ),
    })
    .nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
});

const atifSchema = z.looseObject({
  schema_version: z.string(),
  extra: z.unknown().optional(),
  session_id: z.string().min(1),
  agent: z.looseObject({ name: z.string(), model_name: z.string().nullish() }),
  steps: z.array(atifStepSchema).min(1),
});

type AtifStep = z.infer<typeof atifStepSchema>;

/** One ATIF document's agent-step tool calls, in order, skipping ids already `seen`. */
function callsOf(
  steps: readonly AtifStep[],
  seen: Set<string>,
): { readonly step: AtifStep; readonly call: ToolCall }[] {
  const out: { step: AtifStep; call: ToolCall }[] = [];
  for (const step of steps) {
    if (step.source !== 'agent') continue;
    for (const call of step.tool_calls ?? []) {
      if (seen.has(call.tool_call_id)) continue;
      seen.add(call.tool_call_id);
      out.push({ step, call: atifToolCall(step, call) });
    }
  }
  return out;
}

/** Parse and check one ATIF document: its version, then its shape. */
function parseAtif(
  document: unknown,
  source: string,
): Result<z.infer<typeof atifSchema>, InputError> {
  const version = (document as { schema_version?: unknown }).schema_version;
  if (version !== ATIF_VERSION) {
    return err(
      inputError(
        source,
        `is ATIF ${typeof version === 'string' ? version : '(no version)'}, not ${ATIF_VERSION}`,
        `give an ${ATIF_VERSION} trajectory (redgreen export --atif writes them)`,
      ),
    );
  }
  const parsed = atifSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? '' : `${issue.path.join('.')}: ${issue.message}`;
    return err(
      inputError(
        source,
        `is not a readable ${ATIF_VERSION} trajectory (${where})`,
        'give a trajectory that validates against schemas/atif-v1.4.schema.json',
      ),
    );
  }
  return ok(parsed.data);
}

/**
 * Read an ATIF v1.4 trajectory: the controller's tool calls from its agent
 * steps, and, for each subagent its results link to
 * (`subagent_trajectory_ref`), that subagent's trajectory from
 * `subTrajectories` (by trajectory_path) read back as a seat: its calls
 * marked with the dispatch that started it (`parentToolUseId`), placed after
 * the call that started or resumed the stretch they belong to. A linked
 * trajectory that was not given, or cannot be read, is a malformed line
 * (numbered by the linking step), so checks about absent calls stay
 * undecided rather than pass.
 */
export function readAtif(
  document: object,
  source: string,
  subTrajectories: ReadonlyMap<string, string>,
): Result<SessionTranscript, InputError> {
  const parsed = parseAtif(document, source);
  if (!parsed.ok) return parsed;
  const seen = new Set<string>();
  const main = callsOf(parsed.value.steps, seen);
  const seats = readLinkedSeats(parsed.value.steps, main, subTrajectories, seen);
  const toolCalls = main.flatMap(({ call }) => [call, ...(seats.after.get(call.id) ?? [])]);
  const lastWords = parsed.value.steps
    .filter((step) => step.source === 'agent' && step.message.trim() !== '')
    .at(-1)?.message;
  const firstWords = parsed.value.steps.find(
    (step) => step.source === 'user' && step.message.trim() !== '',
  )?.message;
  return ok({
    format: 'atif-1.4',
    toolCalls,
    reply: lastWords,
    model: parsed.value.agent.model_name ?? undefined,
    prompt: firstWords,
    malformed: seats.malformed,
    ending: atifEnding(parsed.value),
    seats: seats.seats,
    // ATIF carries no scripted-user records: user-answered is undecided on an ATIF file.
    questions: undefined,
  });
}

/** A subagent the controller's results link to: where its trajectory is, and the calls that reached it. */
interface SubagentLink {
  readonly path: string | null;
  /** The step whose result links it first (malformed lines are numbered by it). */
  readonly stepId: number;
  readonly agentId: string | null;
  /** The calls whose results link it, in order: its dispatch, then its resumes. */
  readonly callIds: string[];
}

/** Each subagent the steps link to, by its session_id. */
function linksOf(steps: readonly AtifStep[]): Map<string, SubagentLink> {
  const links = new Map<string, SubagentLink>();
  for (const step of steps) {
    for (const result of step.observation?.results ?? []) {
      const callId = result.source_call_id;
      if (callId === undefined || callId === null) continue;
      for (const ref of result.subagent_trajectory_ref ?? []) {
        const known = links.get(ref.session_id);
        const agentId = typeof ref.extra?.agent_id === 'string' ? ref.extra.agent_id : null;
        if (known === undefined) {
          links.set(ref.session_id, {
            path: ref.trajectory_path ?? null,
            stepId: step.step_id,
            agentId,
            callIds: [callId],
          });
        } else if (!known.callIds.includes(callId)) {
          known.callIds.push(callId);
        }
      }
    }
  }
  return links;
}

function readLinkedSeats(
  steps: readonly AtifStep[],
  main: readonly { readonly call: ToolCall }[],
  subTrajectories: ReadonlyMap<string, string>,
  seen: Set<string>,
): { seats: TranscriptSeat[]; after: Map<string, ToolCall[]>; malformed: MalformedLine[] } {
  const byId = new Map(main.map(({ call }) => [call.id, call]));
  const seats: TranscriptSeat[] = [];
  const after = new Map<string, ToolCall[]>();
  const malformed: MalformedLine[] = [];
  for (const [sessionId, link] of linksOf(steps)) {
    const dispatch = link.callIds
      .map((id) => byId.get(id))
      .find((call) => call !== undefined && isSubagentDispatch(call));
    if (dispatch === undefined) {
      malformed.push({
        line: link.stepId,
        problem: `subagent ${sessionId} is linked from no Agent or Task call`,
      });
      continue;
    }
    const resumes = link.callIds.filter((id) => id !== dispatch.id);
    const text = link.path === null ? undefined : subTrajectories.get(link.path);
    const sub = text === undefined ? undefined : subagentDocument(text, link.path ?? sessionId);
    let toolCalls = 0;
    if (sub === undefined || !sub.ok) {
      malformed.push({
        line: link.stepId,
        problem:
          sub === undefined
            ? `subagent trajectory ${link.path ?? `of ${sessionId}`} was not given, so its calls are unknown`
            : sub.error.problem,
      });
    } else {
      let via = dispatch.id;
      for (const step of sub.value.steps) {
        const resumed = (step.extra?.resume as { via?: unknown } | undefined)?.via;
        if (step.source === 'user' && typeof resumed === 'string' && resumes.includes(resumed)) {
          via = resumed;
        }
        const calls = callsOf([step], seen).map(({ call }) => ({
          ...call,
          parentToolUseId: dispatch.id,
        }));
        toolCalls += calls.length;
        after.set(via, [...(after.get(via) ?? []), ...calls]);
      }
    }
    const seat = sub?.ok === true ? sub.value.extra : undefined;
    const recorded = (seat as { seat?: { agent_id?: unknown; model_used?: unknown } } | undefined)
      ?.seat;
    const recordedId = recorded?.agent_id;
    const recordedModel = recorded?.model_used;
    seats.push({
      dispatch: dispatch.id,
      agentId: typeof recordedId === 'string' ? recordedId : link.agentId,
      tool: dispatch.name,
      subagentType: stringField(dispatch.input, 'subagent_type') ?? null,
      model: stringField(dispatch.input, 'model') ?? null,
      modelUsed: typeof recordedModel === 'string' ? recordedModel : null,
      description: stringField(dispatch.input, 'description') ?? null,
      resumes,
      toolCalls,
      source: 'recorded',
    });
  }
  return { seats, after, malformed };
}

/** A linked subagent trajectory's text, parsed and checked. */
function subagentDocument(
  text: string,
  source: string,
): Result<z.infer<typeof atifSchema>, InputError> {
  let document: unknown;
  try {
    document = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return err(inputError(source, 'is not JSON', 'give the subagent trajectory the export wrote'));
  }
  if (typeof document !== 'object' || document === null) {
    return err(inputError(source, 'is not an ATIF document', 'give an ATIF-v1.4 trajectory'));
  }
  const parsed = parseAtif(document, source);
  return parsed.ok
    ? parsed
    : err({ ...parsed.error, problem: `${source} ${parsed.error.problem}` });
}

const recordedStatusSchema = z.looseObject({
  kind: z.enum(['completed', 'indeterminate']),
  stage: z.string().optional(),
  reason: z.string().optional(),
});

/**
 * How an ATIF session ended. ATIF has no final result message: a status the
 * producer recorded in the root `extra.status` (redgreen's export writes the
 * runner's) decides; an agent step carrying an `extra.engine_error`, or a
 * trajectory that ends on a tool call nothing answered, did not finish.
 */
function atifEnding(document: z.infer<typeof atifSchema>): RunnerStatus {
  const extra = (document as { extra?: unknown }).extra;
  const recorded =
    typeof extra === 'object' && extra !== null
      ? recordedStatusSchema.safeParse((extra as { status?: unknown }).status)
      : undefined;
  if (recorded?.success === true && recorded.data.kind === 'indeterminate') {
    return {
      kind: 'indeterminate',
      stage: recorded.data.stage ?? 'session',
      reason: recorded.data.reason ?? 'the trajectory records the session as indeterminate',
    };
  }
  const failed = document.steps.find(
    (step) => step.extra?.engine_error !== undefined && step.extra.engine_error !== null,
  );
  if (failed !== undefined) {
    return {
      kind: 'indeterminate',
      stage: 'engine',
      reason: `step ${failed.step_id} records an engine error: ${String(failed.extra?.engine_error).split('\n')[0]}`,
    };
  }
  const last = document.steps.at(-1);
  const unanswered = (last?.tool_calls ?? []).filter(
    (toolCall) =>
      !(last?.observation?.results ?? []).some(
        (observed) => observed.source_call_id === toolCall.tool_call_id,
      ),
  );
  if (last !== undefined && unanswered.length > 0) {
    return {
      kind: 'indeterminate',
      stage: 'engine',
      reason: `the trajectory ends on a tool call nothing answered (${unanswered[0]?.function_name}), so the session may not have finished`,
    };
  }
  return { kind: 'completed' };
}

/**
 * One ATIF tool call, with its observation as output. ATIF has no error flag:
 * a call the step's `extra.tool_errors` lists (as redgreen's export writes
 * them) is marked isError; for any other call whether it failed is unknown.
 */
function atifToolCall(step: AtifStep, call: z.infer<typeof atifToolCallSchema>): ToolCall {
  const outputs = (step.observation?.results ?? [])
    .filter((result) => result.source_call_id === call.tool_call_id)
    .map((result) => result.content ?? '');
  const errors = step.extra?.tool_errors;
  const failed = Array.isArray(errors) && errors.includes(call.tool_call_id);
  return {
    id: call.tool_call_id,
    name: call.function_name,
    input: call.arguments,
    parentToolUseId: null,
    ...(typeof step.model_name === 'string' && step.model_name !== ''
      ? { model: step.model_name }
      : {}),
    ...(outputs.length === 0 ? {} : { output: outputs.join('\n') }),
    ...(failed ? { isError: true } : {}),
  };
}
