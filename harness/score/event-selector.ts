/**
 * An event selector: which events of the session's event list
 * (session-events.ts) a check or a stop is about. One shape per kind:
 *
 * - `{ "event": "tool", "tool": "Bash", "input": { "command": "pytest" }, "seat": … }`
 * - `{ "event": "dispatch", "description": "^Implement" }`: an `Agent`, `Task` or
 *   SendMessage call (a SendMessage is matched by its `summary`)
 * - `{ "event": "skill", "skill": "test-driven-development", "form": "tool" }`
 *   (or `pattern` instead of `skill`; `form`: tool, read, shell or any,
 *   default tool); a Skill call or Read whose result is an error loaded
 *   nothing and is no such event, unless it is the call a stop captured
 * - `{ "event": "write", "paths": ["src/**"], "except": ["**\/*.test.*"] }`:
 *   a file written by a tool or a shell command (`paths` default `**`)
 * - `{ "event": "question", "via": ["tool"] }`: a question to the human
 * - `{ "event": "answer", "answer": "<rule id>" }` (or `default: true`,
 *   `unanswered: true`): the scripted user's answer
 *
 * `seat` (controller, subagent, any, or a dispatch's seat) narrows every kind
 * but `answer`, and defaults to any. `turn` (a conversation turn's number or
 * a declared turn's id, turn-selector.ts) narrows every kind to the events of
 * that turn; a transcript that records no turns has none. Matching returns why an event matched,
 * as a reader would quote it, or undefined.
 */
import { z } from 'zod';
import type { Dispatch } from './evidence.js';
import { globSchema, nonBlank, regexSource, seatSelectorSchema } from './param-types.js';
import type { SessionEvent } from './session-events.js';
import { SKILL_FORMS, type SkillInvocation, sameSkill } from './skill-invocations.js';
import { refusedByStop, stringField, type ToolCall } from './tool-call.js';
import { selectsTurn, turnProblem, turnSelectorSchema } from './turn-selector.js';
import type { ParamProblem, ValidationContext } from './verb.js';
import { globMatcher } from './verbs/glob.js';
import { dispatchSeatSelectorSchema, inSeat, unknownToolProblem } from './verbs/tool-match.js';

const seat = z.union([seatSelectorSchema, dispatchSeatSelectorSchema]).default('any');
const names = z.union([nonBlank, z.array(nonBlank).min(1)]);
const turn = turnSelectorSchema.optional();

export const DISPATCH_TOOLS: readonly string[] = ['Agent', 'Task', 'SendMessage'];

export const eventSelectorSchema = z.discriminatedUnion('event', [
  z
    .object({
      event: z.literal('tool'),
      turn,
      tool: names.optional(),
      input: z.record(z.string().min(1), regexSource).optional(),
      seat,
    })
    .strict(),
  z
    .object({
      event: z.literal('dispatch'),
      turn,
      description: regexSource.optional(),
      subagentType: nonBlank.optional(),
      seat,
    })
    .strict(),
  z
    .object({
      event: z.literal('skill'),
      turn,
      skill: nonBlank.optional(),
      pattern: regexSource.optional(),
      form: z.enum([...SKILL_FORMS, 'any']).default('tool'),
      seat,
    })
    .strict()
    .refine((selector) => !(selector.skill !== undefined && selector.pattern !== undefined), {
      message: 'give skill or pattern, not both',
      path: ['pattern'],
    }),
  z
    .object({
      event: z.literal('write'),
      turn,
      paths: z.array(globSchema).min(1).default(['**']),
      except: z.array(globSchema).min(1).optional(),
      seat,
    })
    .strict(),
  z
    .object({
      event: z.literal('question'),
      turn,
      via: z
        .array(z.enum(['tool', 'reply']))
        .min(1)
        .default(['tool', 'reply']),
      pattern: regexSource.optional(),
      seat,
    })
    .strict(),
  z
    .object({
      event: z.literal('answer'),
      turn,
      answer: z.string().min(1).optional(),
      default: z.literal(true).optional(),
      unanswered: z.literal(true).optional(),
    })
    .strict()
    .refine(
      (selector) =>
        [selector.answer, selector.default, selector.unanswered].filter((v) => v !== undefined)
          .length <= 1,
      { message: 'give at most one of answer, default, unanswered', path: ['answer'] },
    ),
]);
export type EventSelector = z.infer<typeof eventSelectorSchema>;
export type EventSelectorInput = z.input<typeof eventSelectorSchema>;

function listOf(value: string | readonly string[] | undefined): readonly string[] | undefined {
  return value === undefined ? undefined : typeof value === 'string' ? [value] : value;
}

function fieldText(input: unknown, field: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[field];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A `tool` selector naming a tool no session of the scenario is offered (a
 * typo, a tool the stop mode or the scenario's tool changes leave out), as a
 * problem at `field` (`first`, `stop.at[0]`); undefined when the names are
 * offered or not checked.
 */
export function selectorToolProblem(
  selector: EventSelector,
  field: string,
  context: ValidationContext | undefined,
): ParamProblem | undefined {
  const turned = turnProblem(selector.turn, `${field}.turn`, context);
  if (turned !== undefined) return turned;
  if (selector.event !== 'tool') return undefined;
  const problem = unknownToolProblem(listOf(selector.tool), context);
  return problem === undefined ? undefined : { ...problem, field: `${field}.tool` };
}

/** Whether an invocation is of the skill a selector names (`skill`: either way qualified; `pattern`: the name or its bare part). */
export function namesSkill(
  selector: { readonly skill?: string | undefined; readonly pattern?: string | undefined },
  invocation: SkillInvocation,
): boolean {
  if (selector.skill !== undefined && !sameSkill(invocation.name, selector.skill)) return false;
  return (
    selector.pattern === undefined ||
    new RegExp(selector.pattern).test(invocation.name) ||
    new RegExp(selector.pattern).test(invocation.bare)
  );
}

/**
 * Whether an invocation counts: a Skill call or a Read whose result is an
 * error (`Unknown skill: …`, no such file) loaded nothing, and does not. The
 * call an event stop captured does (its refusal is redgreen's, and the call
 * is the decision a probe records), and so does a shell read whatever the
 * command's exit (`cat SKILL.md && false` printed it).
 */
export function invocationCounts(invocation: SkillInvocation, call: ToolCall): boolean {
  return invocation.form === 'shell' || invocation.succeeded || refusedByStop(call);
}

/** Why `event` is one the selector picks, or undefined. `dispatches` place dispatch seats. */
export function eventMatch(
  selector: EventSelector,
  event: SessionEvent,
  dispatches: readonly Dispatch[] = [],
): string | undefined {
  if (selector.turn !== undefined && !selectsTurn(selector.turn, event.turn)) return undefined;
  if (selector.event === 'answer') {
    if (event.kind !== 'answer') return undefined;
    const { question } = event;
    if (selector.default === true && question.source !== 'default') return undefined;
    if (selector.unanswered === true && question.source !== 'unanswered') return undefined;
    if (selector.answer !== undefined && question.rule !== selector.answer) return undefined;
    if (question.source === null) return undefined;
    return `answer ${question.rule ?? question.source} to "${question.text.slice(0, 60)}"`;
  }
  const call = 'call' in event ? event.call : null;
  const seatOk =
    call === null
      ? selector.seat === 'any' || selector.seat === event.seat
      : inSeat(selector.seat, call, dispatches);
  if (!seatOk) return undefined;
  switch (selector.event) {
    case 'tool': {
      if (event.kind !== 'tool') return undefined;
      const tools = listOf(selector.tool);
      if (tools !== undefined && !tools.includes(event.call.name)) return undefined;
      for (const [field, pattern] of Object.entries(selector.input ?? {})) {
        const text =
          field === 'command' && event.command !== undefined
            ? event.command
            : fieldText(event.call.input, field);
        if (text === undefined || !new RegExp(pattern).test(text)) return undefined;
      }
      return event.command === undefined
        ? `${event.call.name} (${event.call.id})`
        : `Bash ${event.command.slice(0, 60)} (${event.call.id})`;
    }
    case 'dispatch': {
      if (event.kind !== 'tool' || !DISPATCH_TOOLS.includes(event.call.name)) return undefined;
      const described =
        stringField(event.call.input, 'description') ?? stringField(event.call.input, 'summary');
      if (
        selector.description !== undefined &&
        (described === undefined || !new RegExp(selector.description).test(described))
      ) {
        return undefined;
      }
      if (
        selector.subagentType !== undefined &&
        stringField(event.call.input, 'subagent_type') !== selector.subagentType
      ) {
        return undefined;
      }
      return `${event.call.name} ${described ?? ''} (${event.call.id})`.replace('  ', ' ');
    }
    case 'skill': {
      if (event.kind !== 'skill') return undefined;
      const { invocation } = event;
      if (selector.form !== 'any' && invocation.form !== selector.form) return undefined;
      if (!invocationCounts(invocation, event.call) || !namesSkill(selector, invocation)) {
        return undefined;
      }
      return `${invocation.how} (${invocation.callId})`;
    }
    case 'write': {
      if (event.kind !== 'write') return undefined;
      if (!globMatcher(selector.paths)(event.path)) return undefined;
      if (selector.except !== undefined && globMatcher(selector.except)(event.path)) {
        return undefined;
      }
      return `${event.how} ${event.path} (${event.call.id})`;
    }
    case 'question': {
      if (event.kind !== 'question' || !selector.via.includes(event.via)) return undefined;
      if (selector.pattern !== undefined && !new RegExp(selector.pattern, 'i').test(event.text)) {
        return undefined;
      }
      return `question via ${event.via}: "${event.text.slice(0, 60)}"`;
    }
  }
}

/** Whether a write of `path` (by a call the event list could not read, so of any seat) is one the selector picks. */
export function writeMayMatch(selector: EventSelector, path: string): boolean {
  if (selector.event !== 'write') return false;
  return (
    globMatcher(selector.paths)(path) &&
    (selector.except === undefined || !globMatcher(selector.except)(path))
  );
}

/** An event a selector picked, with why. */
export type SelectedEvent = { readonly event: SessionEvent; readonly why: string };

/** The first event a selector picks, with why, or undefined. Events must be in order. */
export function firstMatch(
  selector: EventSelector,
  events: readonly SessionEvent[],
  dispatches: readonly Dispatch[] = [],
): SelectedEvent | undefined {
  for (const event of events) {
    const why = eventMatch(selector, event, dispatches);
    if (why !== undefined) return { event, why };
  }
  return undefined;
}

/** The last event a selector picks, with why, or undefined. Events must be in order. */
export function lastMatch(
  selector: EventSelector,
  events: readonly SessionEvent[],
  dispatches: readonly Dispatch[] = [],
): SelectedEvent | undefined {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event === undefined) continue;
    const why = eventMatch(selector, event, dispatches);
    if (why !== undefined) return { event, why };
  }
  return undefined;
}
