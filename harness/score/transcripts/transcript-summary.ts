/**
 * What redgreen read from a session's files, for a person checking them
 * before scoring (`redgreen transcript`): the format, whether the session
 * is complete, its models, the tool calls of each seat, the dispatches and
 * resumes, the skills invoked, the final reply and what could not be read.
 * `summariseTranscript` builds the JSON object (`--json` prints it,
 * validated against its schema); `formatTranscriptSummary` the text.
 */
import { z } from 'zod';
import { COMMAND_JSON_VERSION } from '../../lib/command-json-version.js';
import { dispatchesOf } from '../dispatches.js';
import { SKILL_FORMS, skillInvocations } from '../skill-invocations.js';
import { callRan, isInsideSubagent, type ToolCall } from '../tool-call.js';
import { FORMAT_READERS } from './read-transcript.js';
import { type SessionTranscript, TRANSCRIPT_FORMATS } from './session-transcript.js';

/** The most reply text the JSON carries (the text output shows less). */
export const REPLY_MAX_CHARS = 4000;
const REPLY_SHOWN_CHARS = 400;

const seatSummarySchema = z
  .object({
    seat: z.enum(['controller', 'subagent']),
    /** The dispatch that created a subagent seat; null for the controller. */
    dispatch: z.string().nullable(),
    agentId: z.string().nullable(),
    agentType: z.string().nullable(),
    /** The model its replies name (the latest). */
    model: z.string().nullable(),
    description: z.string().nullable(),
    /** Its calls the files hold; null when they do not hold them. */
    toolCalls: z.number().int().nonnegative().nullable(),
    /** Its calls by tool name, most first. */
    tools: z.record(z.string(), z.number().int().positive()),
    resumes: z.array(z.string()),
    /** Why its calls are unknown, when they are. */
    unknownWhy: z.string().nullable(),
  })
  .strict();

export const transcriptSummarySchema = z
  .object({
    schemaVersion: z.literal(COMMAND_JSON_VERSION),
    files: z.array(z.string()).min(1),
    format: z.enum(TRANSCRIPT_FORMATS),
    complete: z.boolean(),
    /** Why the session is not complete; null when it is. */
    incomplete: z.string().nullable(),
    models: z.array(z.string()),
    toolCalls: z
      .object({
        controller: z.number().int().nonnegative().nullable(),
        subagent: z.number().int().nonnegative().nullable(),
      })
      .strict(),
    dispatches: z.array(
      z
        .object({
          index: z.number().int().positive(),
          callId: z.string(),
          tool: z.string(),
          kind: z.enum(['fresh', 'resume']),
          subagentType: z.string().nullable(),
          model: z.string().nullable(),
          description: z.string().nullable(),
          agentId: z.string().nullable(),
        })
        .strict(),
    ),
    seats: z.array(seatSummarySchema),
    skills: z.array(
      z
        .object({
          name: z.string(),
          bare: z.string(),
          form: z.enum(SKILL_FORMS),
          seat: z.enum(['controller', 'subagent']),
          dispatch: z.string().nullable(),
          position: z.number().int().nonnegative(),
          callId: z.string(),
          path: z.string().nullable(),
          succeeded: z.boolean(),
        })
        .strict(),
    ),
    /** The final reply, whitespace-trimmed, cut at REPLY_MAX_CHARS; null when there is none. */
    reply: z.string().nullable(),
    unreadable: z.array(
      z
        .object({ file: z.string().nullable(), line: z.number().int(), problem: z.string() })
        .strict(),
    ),
  })
  .strict();
export type TranscriptSummary = z.infer<typeof transcriptSummarySchema>;

function byTool(calls: readonly ToolCall[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]));
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The summary of a read transcript. */
export function summariseTranscript(transcript: SessionTranscript): TranscriptSummary {
  const calls = transcript.toolCalls.filter(callRan);
  const controller = calls.filter((call) => !isInsideSubagent(call));
  const subagent = calls.filter(isInsideSubagent);
  const subagentKnown = transcript.seats.every((seat) => seat.toolCalls !== null);
  const dispatches = dispatchesOf(calls);
  const reply = transcript.reply?.trim();
  return transcriptSummarySchema.parse({
    schemaVersion: COMMAND_JSON_VERSION,
    files: transcript.files,
    format: transcript.format,
    complete: transcript.ending.kind === 'completed',
    incomplete: transcript.ending.kind === 'completed' ? null : transcript.ending.reason,
    models: transcript.models,
    toolCalls: {
      controller: transcript.controllerRecorded ? controller.length : null,
      subagent: subagentKnown ? subagent.length : null,
    },
    dispatches: dispatches.map((dispatch) => ({
      index: dispatch.index,
      callId: dispatch.callId,
      tool: dispatch.tool,
      kind: dispatch.kind,
      subagentType: dispatch.subagentType,
      model: dispatch.model,
      description: dispatch.description,
      agentId: dispatch.agentId ?? null,
    })),
    seats: [
      {
        seat: 'controller',
        dispatch: null,
        agentId: null,
        agentType: null,
        model: transcript.model ?? null,
        description: null,
        toolCalls: transcript.controllerRecorded ? controller.length : null,
        tools: byTool(controller),
        resumes: [],
        unknownWhy: transcript.controllerRecorded
          ? null
          : "the files hold only subagents' logs, not the session that dispatched them",
      },
      ...transcript.seats.map((seat) => ({
        seat: 'subagent' as const,
        dispatch: seat.dispatch,
        agentId: seat.agentId,
        agentType: seat.subagentType,
        model: seat.modelUsed,
        description: seat.description,
        toolCalls: seat.toolCalls,
        tools: byTool(subagent.filter((call) => call.parentToolUseId === seat.dispatch)),
        resumes: [...seat.resumes],
        unknownWhy: seat.unknownWhy ?? null,
      })),
    ],
    skills: skillInvocations(calls).map((skill) => ({
      name: skill.name,
      bare: skill.bare,
      form: skill.form,
      seat: skill.seat,
      dispatch: skill.dispatch,
      position: skill.position,
      callId: skill.callId,
      path: skill.path,
      succeeded: skill.succeeded,
    })),
    reply: reply === undefined || reply === '' ? null : cut(reply, REPLY_MAX_CHARS),
    unreadable: transcript.malformed.map((line) => ({
      file: line.file ?? null,
      line: line.line,
      problem: line.problem,
    })),
  });
}

function formatLabel(summary: TranscriptSummary): string {
  const label = FORMAT_READERS.find((reader) => reader.formats.includes(summary.format))?.label;
  return label === undefined ? summary.format : `${label} (${summary.format})`;
}

function tools(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts);
  return entries.length === 0 ? '' : ` (${entries.map(([name, n]) => `${name} ${n}`).join(', ')})`;
}

/** The text `redgreen transcript` prints. */
export function formatTranscriptSummary(summary: TranscriptSummary): string {
  const [first, ...more] = summary.files;
  const seatLines = summary.seats.map((seat) => {
    const who =
      seat.seat === 'controller'
        ? 'controller'
        : `subagent ${seat.agentId ?? seat.dispatch}${seat.agentType === null ? '' : ` (${seat.agentType})`}`;
    const inFiles = Object.values(seat.tools).reduce((sum, n) => sum + n, 0);
    const count =
      seat.toolCalls !== null
        ? `${seat.toolCalls} call(s)${tools(seat.tools)}`
        : inFiles === 0
          ? `calls unknown (${seat.unknownWhy})`
          : `${inFiles} call(s) in the files${tools(seat.tools)}, not all of them (${seat.unknownWhy})`;
    const model = seat.model === null ? '' : `, model ${seat.model}`;
    return `    ${who}: ${count}${model}`;
  });
  const dispatchLines = summary.dispatches.map(
    (one) =>
      `    #${one.index} ${one.kind} ${one.tool}${one.subagentType === null ? '' : ` (${one.subagentType})`}${one.description === null ? '' : ` "${cut(one.description, 80)}"`}${one.agentId === null ? '' : ` -> ${one.agentId}`}`,
  );
  const resumes = summary.dispatches.filter((one) => one.kind === 'resume').length;
  const skillLines = summary.skills.map(
    (skill) =>
      `    ${skill.name} (${skill.form}, ${skill.seat}, call ${skill.position + 1}${skill.succeeded ? '' : ', failed'})`,
  );
  const reply =
    summary.reply === null ? 'none' : JSON.stringify(cut(summary.reply, REPLY_SHOWN_CHARS));
  const lines = [
    `${first}: ${formatLabel(summary)}, ${summary.complete ? 'complete' : `not complete (${summary.incomplete})`}`,
    ...(more.length === 0 ? [] : [`  also read: ${more.join(', ')}`]),
    `  models: ${summary.models.length === 0 ? 'none named' : summary.models.join(', ')}`,
    `  tool calls: controller ${summary.toolCalls.controller ?? 'unknown (not in the files given)'}, subagents ${summary.toolCalls.subagent ?? 'unknown (not all in the files given)'}`,
    '  seats:',
    ...seatLines,
    `  dispatches: ${summary.dispatches.length - resumes} fresh, ${resumes} resume(s)`,
    ...dispatchLines,
    `  skills: ${summary.skills.length === 0 ? 'none invoked' : ''}`.trimEnd(),
    ...skillLines,
    `  reply: ${reply}`,
    `  unreadable lines: ${summary.unreadable.length === 0 ? 'none' : summary.unreadable.length}`,
    ...summary.unreadable
      .slice(0, 10)
      .map(
        (line) =>
          `    ${line.file === null ? '' : `${line.file} `}line ${line.line}: ${line.problem}`,
      ),
    ...(summary.unreadable.length > 10 ? [`    … and ${summary.unreadable.length - 10} more`] : []),
  ];
  return `${lines.join('\n')}\n`;
}
