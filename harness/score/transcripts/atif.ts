/**
 * ATIF (Harbor's Agent Trajectory Interchange Format) v1.4 to v1.7: one
 * JSON document whose `schema_version` says `ATIF-v1.<4..7>`. `redgreen
 * export --atif` writes v1.4; the superpowers ecosystem's other harnesses
 * write v1.7. What the versions add that is read here: a step's `message`
 * as text or content parts (1.5), agent steps without a message, an optional
 * `session_id`, subagent trajectories embedded in the document
 * (`subagent_trajectories`, resolved by `trajectory_id`), and links by
 * `trajectory_id` (1.7).
 *
 * Read: the controller's tool calls from its agent steps, each with the
 * observation that answers it as output (a call named in the step's
 * `extra.tool_errors`, as redgreen's export writes them, is an error); the
 * final reply (the last agent message); how the session ended; and each
 * subagent a result links to (`subagent_trajectory_ref`), read back as a
 * seat from its trajectory (embedded, or a file the link names, read by
 * atif-links.ts): its calls marked with the call that started it, placed
 * after the call that started or resumed the stretch they belong to. A
 * subagent whose trajectory is not there, or cannot be read, is a seat whose
 * calls are unknown, with the file and the reason. `use_skill` (the skill
 * tool of the harnesses that write v1.7) is read as `Skill`.
 */
import { z } from 'zod';
import { type InputError, inputError } from '../../lib/input-error.js';
import { err, ok, type Result } from '../../lib/result.js';
import type { RunnerStatus } from '../runner-status.js';
import { stringField, type ToolCall } from '../tool-call.js';
import { contentText } from './content-text.js';
import type { FormatReader, LinkedFile, ReadOptions, TranscriptSource } from './format-reader.js';
import { recordOf } from './format-reader.js';
import type {
  MalformedLine,
  SessionTranscript,
  TranscriptFormat,
  TranscriptSeat,
} from './session-transcript.js';

const VERSIONS: Readonly<Record<string, TranscriptFormat>> = {
  'ATIF-v1.4': 'atif-1.4',
  'ATIF-v1.5': 'atif-1.5',
  'ATIF-v1.6': 'atif-1.6',
  'ATIF-v1.7': 'atif-1.7',
};

const contentPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });
/** Text or content parts (1.5+); absent or null on an agent step that only calls tools. */
const messageSchema = z.union([z.string(), z.array(contentPartSchema)]).nullish();

const toolCallSchema = z.looseObject({
  tool_call_id: z.string().min(1),
  function_name: z.string().min(1),
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
});

const refSchema = z.looseObject({
  session_id: z.string().min(1).nullish(),
  trajectory_id: z.string().min(1).nullish(),
  trajectory_path: z.string().min(1).nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
});

const stepSchema = z.looseObject({
  step_id: z.number().int().min(1),
  source: z.enum(['system', 'user', 'agent']),
  message: messageSchema,
  model_name: z.string().nullish(),
  tool_calls: z.array(toolCallSchema).nullish(),
  observation: z
    .looseObject({
      results: z.array(
        z.looseObject({
          source_call_id: z.string().nullish(),
          content: messageSchema,
          subagent_trajectory_ref: z.array(refSchema).nullish(),
        }),
      ),
    })
    .nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
});

interface AtifDocument {
  schema_version: string;
  session_id?: string | null | undefined;
  trajectory_id?: string | null | undefined;
  agent: { name: string; model_name?: string | null | undefined };
  steps: AtifStep[];
  subagent_trajectories?: AtifDocument[] | null | undefined;
  extra?: unknown;
}

const documentSchema: z.ZodType<AtifDocument> = z.lazy(() =>
  z.looseObject({
    schema_version: z.string(),
    session_id: z.string().min(1).nullish(),
    trajectory_id: z.string().min(1).nullish(),
    agent: z.looseObject({ name: z.string(), model_name: z.string().nullish() }),
    steps: z.array(stepSchema).min(1),
    subagent_trajectories: z.array(documentSchema).nullish(),
    extra: z.unknown().optional(),
  }),
);

type AtifStep = z.infer<typeof stepSchema>;

/** Parse and check one ATIF document: its version, then its shape. */
function parseAtif(
  document: unknown,
  source: string,
): Result<{ document: AtifDocument; format: TranscriptFormat }, InputError> {
  const version = recordOf(document)?.schema_version;
  const format = typeof version === 'string' ? VERSIONS[version] : undefined;
  if (format === undefined) {
    return err(
      inputError(
        source,
        `is ATIF ${typeof version === 'string' ? version : '(no version)'}, which redgreen does not read`,
        'give an ATIF-v1.4 to ATIF-v1.7 trajectory',
      ),
    );
  }
  const parsed = documentSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? '' : `${issue.path.join('.')}: ${issue.message}`;
    return err(
      inputError(
        source,
        `is not a readable ${version} trajectory (${where})`,
        'give a trajectory that validates against the ATIF schema of its version',
      ),
    );
  }
  return ok({ document: parsed.data, format });
}

/** Tool names the ATIF producers give the skill tool, and the argument naming the skill. */
const SKILL_TOOLS: Readonly<Record<string, string>> = { use_skill: 'skill_name' };

/**
 * One ATIF tool call, with its observation as output. ATIF has no error
 * flag: a call the step's `extra.tool_errors` lists (as redgreen's export
 * writes them) is marked isError; for any other call whether it failed is
 * unknown.
 */
function toolCallOf(step: AtifStep, call: z.infer<typeof toolCallSchema>): ToolCall {
  const outputs = (step.observation?.results ?? [])
    .filter((result) => result.source_call_id === call.tool_call_id)
    .map((result) => contentText(result.content));
  const errors = step.extra?.tool_errors;
  const failed = Array.isArray(errors) && errors.includes(call.tool_call_id);
  const input = argumentsOf(call.arguments);
  const skillField = SKILL_TOOLS[call.function_name];
  const skill = skillField === undefined ? undefined : stringField(input, skillField);
  return {
    id: call.tool_call_id,
    ...(skill === undefined
      ? { name: call.function_name, input }
      : {
          name: 'Skill',
          input: { ...(recordOf(input) ?? {}), skill },
          recordedAs: call.function_name,
        }),
    parentToolUseId: null,
    ...(typeof step.model_name === 'string' && step.model_name !== ''
      ? { model: step.model_name }
      : {}),
    ...(outputs.length === 0 ? {} : { output: outputs.join('\n') }),
    ...(failed ? { isError: true } : {}),
  };
}

/** A call's arguments: the object, or a JSON string of one (some writers), else the string itself. */
function argumentsOf(value: z.infer<typeof toolCallSchema>['arguments']): unknown {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** One document's agent-step tool calls, in order, skipping ids already `seen`. */
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
      out.push({ step, call: toolCallOf(step, call) });
    }
  }
  return out;
}

/** A subagent the controller's results link to: where its trajectory is, and the calls that reached it. */
interface SubagentLink {
  readonly ref: z.infer<typeof refSchema>;
  /** The step whose result links it first. */
  readonly stepId: number;
  /** The calls whose results link it, in order: its dispatch, then its resumes. */
  readonly callIds: string[];
}

/** Each subagent the steps link to, by its trajectory_id, else session_id, else path. */
function linksOf(steps: readonly AtifStep[]): Map<string, SubagentLink> {
  const links = new Map<string, SubagentLink>();
  for (const step of steps) {
    for (const result of step.observation?.results ?? []) {
      const callId = result.source_call_id;
      if (callId === undefined || callId === null) continue;
      for (const ref of result.subagent_trajectory_ref ?? []) {
        const key = ref.trajectory_id ?? ref.session_id ?? ref.trajectory_path;
        if (key === undefined || key === null) continue;
        const known = links.get(key);
        if (known === undefined) links.set(key, { ref, stepId: step.step_id, callIds: [callId] });
        else if (!known.callIds.includes(callId)) known.callIds.push(callId);
      }
    }
  }
  return links;
}

/** The subagent trajectory a link names: embedded, or a linked file; else why it is not there. */
function linkedDocument(
  link: SubagentLink,
  embedded: readonly AtifDocument[],
  linked: ReadonlyMap<string, LinkedFile>,
): Result<AtifDocument, string> {
  const { ref } = link;
  const inDocument = embedded.find(
    (one) =>
      (ref.trajectory_id != null && one.trajectory_id === ref.trajectory_id) ||
      (ref.trajectory_id == null && ref.session_id != null && one.session_id === ref.session_id),
  );
  if (inDocument !== undefined) return ok(inDocument);
  const file = ref.trajectory_path;
  if (file === undefined || file === null) {
    return err(
      `subagent trajectory ${ref.trajectory_id ?? ref.session_id} is neither embedded nor linked to a file`,
    );
  }
  const read = linked.get(file);
  if (read === undefined) return err(`linked trajectory ${file} was not given`);
  if ('problem' in read) return err(`linked trajectory ${file} ${read.problem}`);
  let value: unknown;
  try {
    value = JSON.parse(read.text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    return err(`linked trajectory ${file} is not JSON (${(error as Error).message})`);
  }
  const parsed = parseAtif(value, `linked trajectory ${file}`);
  if (!parsed.ok) return err(`${parsed.error.input} ${parsed.error.problem}`);
  const named = parsed.value.document.trajectory_id;
  if (ref.trajectory_id != null && named != null && named !== ref.trajectory_id) {
    return err(`linked trajectory ${file} is trajectory ${named}, not ${ref.trajectory_id}`);
  }
  return ok(parsed.value.document);
}

function nameOf(link: SubagentLink): string {
  return link.ref.trajectory_id ?? link.ref.session_id ?? link.ref.trajectory_path ?? '?';
}

/** Whether a linked trajectory is the document that links it (read again, it would be its own subagent). */
function linksBack(sub: AtifDocument, parent: AtifDocument): boolean {
  return (
    sub === parent ||
    (sub.trajectory_id != null && sub.trajectory_id === parent.trajectory_id) ||
    (sub.trajectory_id == null && sub.session_id != null && sub.session_id === parent.session_id)
  );
}

/** A subagent trajectory, or why its seat's calls are not all known from it: it starts subagents of its own, which are not followed. */
function notFollowed(sub: AtifDocument, link: SubagentLink): Result<AtifDocument, string> {
  if (linksOf(sub.steps).size > 0 || (sub.subagent_trajectories ?? []).length > 0) {
    return err(
      `subagent trajectory ${nameOf(link)} starts subagents of its own, whose calls are not followed`,
    );
  }
  return ok(sub);
}

function readSeats(
  document: AtifDocument,
  main: readonly { readonly call: ToolCall }[],
  linked: ReadonlyMap<string, LinkedFile>,
  seen: Set<string>,
): { seats: TranscriptSeat[]; after: Map<string, ToolCall[]>; malformed: MalformedLine[] } {
  const byId = new Map(main.map(({ call }) => [call.id, call]));
  const seats: TranscriptSeat[] = [];
  const after = new Map<string, ToolCall[]>();
  const malformed: MalformedLine[] = [];
  for (const [key, link] of linksOf(document.steps)) {
    const dispatch = link.callIds.map((id) => byId.get(id)).find((call) => call !== undefined);
    if (dispatch === undefined) {
      malformed.push({ line: link.stepId, problem: `subagent ${key} is linked from no tool call` });
      continue;
    }
    const resumes = link.callIds.filter((id) => id !== dispatch.id);
    const linkedSub = linkedDocument(link, document.subagent_trajectories ?? [], linked);
    const circular = linkedSub.ok && linksBack(linkedSub.value, document);
    const sub = !linkedSub.ok
      ? linkedSub
      : circular
        ? err(
            `subagent trajectory ${nameOf(link)} is the trajectory that links it, a circular link`,
          )
        : notFollowed(linkedSub.value, link);
    let toolCalls: number | null = null;
    if (linkedSub.ok && !circular) {
      // Its calls are read even when the seat is not wholly known (its own subagents unread).
      let counted = 0;
      let via = dispatch.id;
      const own = new Set<string>();
      for (const step of linkedSub.value.steps) {
        const resumed = (step.extra?.resume as { via?: unknown } | undefined)?.via;
        if (step.source === 'user' && typeof resumed === 'string' && resumes.includes(resumed)) {
          via = resumed;
        }
        // Ids are unique within one trajectory, not across them: a subagent's call whose id
        // another trajectory used is kept, under its dispatch's id, never dropped as a duplicate.
        const calls = callsOf([step], own).map(({ call }) => ({
          ...call,
          id: seen.has(call.id) ? `${dispatch.id}/${call.id}` : call.id,
          parentToolUseId: dispatch.id,
        }));
        for (const call of calls) seen.add(call.id);
        counted += calls.length;
        after.set(via, [...(after.get(via) ?? []), ...calls]);
      }
      if (sub.ok) toolCalls = counted;
    }
    const recorded = recordOf(recordOf(sub.ok ? sub.value.extra : undefined)?.seat);
    const agentId =
      typeof recorded?.agent_id === 'string'
        ? recorded.agent_id
        : typeof link.ref.extra?.agent_id === 'string'
          ? link.ref.extra.agent_id
          : null;
    seats.push({
      dispatch: dispatch.id,
      agentId,
      tool: dispatch.name,
      subagentType: stringField(dispatch.input, 'subagent_type') ?? null,
      model: stringField(dispatch.input, 'model') ?? null,
      modelUsed:
        typeof recorded?.model_used === 'string'
          ? recorded.model_used
          : sub.ok
            ? (sub.value.agent.model_name ?? null)
            : null,
      description: stringField(dispatch.input, 'description') ?? null,
      resumes,
      toolCalls,
      ...(sub.ok ? {} : { unknownWhy: sub.error }),
      source: 'recorded',
    });
  }
  return { seats, after, malformed };
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
function endingOf(document: AtifDocument): RunnerStatus {
  const status = recordOf(document.extra)?.status;
  const recorded = status === undefined ? undefined : recordedStatusSchema.safeParse(status);
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

/** Read one ATIF document (already parsed from JSON). */
export function readAtif(
  value: unknown,
  source: string,
  linked: ReadonlyMap<string, LinkedFile> = new Map(),
): Result<SessionTranscript, InputError> {
  const parsed = parseAtif(value, source);
  if (!parsed.ok) return parsed;
  const { document, format } = parsed.value;
  const seen = new Set<string>();
  const main = callsOf(document.steps, seen);
  const seats = readSeats(document, main, linked, seen);
  const toolCalls = main.flatMap(({ call }) => [call, ...(seats.after.get(call.id) ?? [])]);
  const said = (step: AtifStep) => contentText(step.message);
  const reply = document.steps
    .filter((step) => step.source === 'agent' && said(step).trim() !== '')
    .map(said)
    .at(-1);
  const prompt = document.steps
    .filter((step) => step.source === 'user' && said(step).trim() !== '')
    .map(said)[0];
  const model = document.agent.model_name ?? main.find(({ call }) => call.model)?.call.model;
  const models = [
    ...new Set(
      [
        model,
        ...toolCalls.map((call) => call.model),
        ...seats.seats.map((s) => s.modelUsed),
      ].filter((one): one is string => typeof one === 'string' && one !== ''),
    ),
  ];
  return ok({
    format,
    files: [source],
    toolCalls,
    reply,
    model: model ?? undefined,
    models,
    prompt,
    malformed: seats.malformed,
    ending: endingOf(document),
    controllerRecorded: true,
    seats: seats.seats,
    // ATIF carries no scripted-user records: user-answered is undecided on an ATIF file.
    questions: undefined,
  });
}

export const atifReader: FormatReader = {
  label: 'ATIF v1.4-v1.7',
  formats: ['atif-1.4', 'atif-1.5', 'atif-1.6', 'atif-1.7'],
  recognises: (sample) => {
    const version = recordOf(sample.document)?.schema_version;
    return typeof version === 'string' && version.startsWith('ATIF-');
  },
  multiFile: false,
  read: (sources: readonly TranscriptSource[], options: ReadOptions) => {
    const [source] = sources;
    if (source === undefined) throw new Error('atif: no source given');
    return readAtif(JSON.parse(source.text.replace(/^\uFEFF/, '')), source.name, options.linked);
  },
};
