/**
 * Running a policy file's steps as a program (brain-program.ts): tool steps
 * yield their calls with the templates filled in and keep the outcomes by id
 * (a Read's outcome as the file's text: line numbers and reminders removed);
 * captures take values from facts, outcomes and earlier captures; a branch
 * runs its first arm whose condition holds; a reply ends the turn; an ask
 * replies with its question until the user's answer is in the conversation,
 * then goes on with the answer as its value. `skill` is the text of every
 * skill the session loaded so far: a SKILL.md a Read step read, a skill the
 * Skill tool loaded. Pure: everything comes from the session view.
 */

import type { BrainCall, ToolOutcome } from '../policies/program.js';
import { fileText } from '../policies/tools.js';
import { type BrainAnswer, type BrainProgram, failure, reply } from './brain-program.js';
import type { Condition, PolicyFile, Step, ToolStep } from './policy-schema.js';
import { offeredName } from './session-fit.js';
import { loadedSkillTexts, type SessionView } from './session-view.js';
import { renderTemplate, type Value } from './templates.js';

interface RunState {
  readonly label: string;
  readonly view: SessionView;
  readonly offered: ReadonlySet<string>;
  readonly values: Map<string, Value>;
  readonly failedCalls: Set<string>;
  readonly skills: string[];
  /** Tool turns made so far (the index of the next exchange). */
  turns: number;
  /** Questions asked so far. */
  asks: number;
}

const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/** A part of a program: it yields turns, and ends with an answer or, to go on, undefined. */
type StepRun = Generator<readonly BrainCall[], BrainAnswer | undefined, readonly ToolOutcome[]>;

/** The program for one request: a seat's steps when the prompt is one of its seats', else the steps. */
export function dataPolicyProgram(
  label: string,
  file: PolicyFile,
  view: SessionView,
  offered: ReadonlySet<string>,
): BrainProgram {
  const seat = (file.seats ?? []).findIndex((candidate) =>
    new RegExp(candidate.prompt, 'mi').test(view.prompt),
  );
  const steps = seat >= 0 ? (file.seats?.[seat]?.steps ?? []) : (file.steps ?? []);
  const field = seat >= 0 ? `seats[${seat}].steps` : 'steps';
  const state: RunState = {
    label,
    view,
    offered,
    values: new Map(),
    failedCalls: new Set(),
    skills: [],
    turns: 0,
    asks: 0,
  };
  return program(steps, field, state);
}

function* program(steps: readonly Step[], field: string, state: RunState): BrainProgram {
  const answer = yield* runSteps(steps, field, state);
  return (
    answer ?? failure(`${state.label}: ${field} ran out of steps after the user's last answer`)
  );
}

function* runSteps(steps: readonly Step[], field: string, state: RunState): StepRun {
  for (const [index, step] of steps.entries()) {
    const answer = yield* runStep(step, `${field}[${index}]`, state);
    if (answer !== undefined) return answer;
  }
  return undefined;
}

function* runStep(step: Step, field: string, state: RunState): StepRun {
  switch (step.kind) {
    case 'tool':
    case 'parallel': {
      const calls = step.kind === 'tool' ? [step] : step.parallel;
      const made: BrainCall[] = [];
      for (const [index, call] of calls.entries()) {
        const at = step.kind === 'tool' ? field : `${field}.parallel[${index}]`;
        const name = offeredName(call.tool, state.offered);
        if (name === undefined) {
          return failure(
            `${state.label}: ${at} calls ${call.tool}, which this session does not offer`,
          );
        }
        const input = renderValue(call.input, state, `${at}.input`);
        if (typeof input === 'string') return failure(input);
        made.push({ name, input: input.value as Record<string, unknown> });
      }
      const outcomes = yield made;
      const exchange = state.turns;
      state.turns += 1;
      calls.forEach((call, index) => {
        record(
          call,
          made[index]?.input ?? {},
          outcomes[index] ?? { text: '', isError: true },
          state,
        );
      });
      if (calls.some((call) => call.tool === 'Skill')) {
        state.skills.push(...loadedSkillTexts(state.view, exchange));
      }
      return undefined;
    }
    case 'capture': {
      const source = sourceText(step.from, state);
      if (source === undefined) return failure(missingFact(state, `${field}.from`, step.from));
      const pattern = render(step.pattern, state, `${field}.pattern`);
      if (!pattern.ok) return failure(pattern.message);
      const flags = `m${step.ignoreCase ? 'i' : ''}g`;
      const found = [...source.matchAll(new RegExp(pattern.text, flags))].map(
        (match) => match[1] ?? match[0],
      );
      if (found.length === 0 && !step.all) {
        if (step.default === undefined) {
          return failure(
            `${state.label}: ${field} capture "${step.capture}" found nothing in ${step.from} (pattern ${pattern.text}), and gives no default`,
          );
        }
        state.values.set(step.capture, step.default);
        return undefined;
      }
      state.values.set(
        step.capture,
        step.all
          ? found.length === 0 && step.default !== undefined
            ? step.default
            : found
          : ((step.last ? found.at(-1) : found[0]) ?? ''),
      );
      return undefined;
    }
    case 'branch': {
      for (const [index, arm] of step.branch.entries()) {
        const here = `${field}.branch[${index}]`;
        if ('else' in arm) return yield* runSteps(arm.else, `${here}.else`, state);
        const holds = conditionHolds(arm.when, state, `${here}.when`);
        if (typeof holds === 'string') return failure(holds);
        if (holds) return yield* runSteps(arm.steps, `${here}.steps`, state);
      }
      return undefined;
    }
    case 'reply': {
      const text = render(step.reply, state, `${field}.reply`);
      return text.ok ? reply(text.text) : failure(text.message);
    }
    case 'ask': {
      const question = render(step.ask, state, `${field}.ask`);
      if (!question.ok) return failure(question.message);
      const answer = state.view.userReplies[state.asks];
      state.asks += 1;
      if (answer === undefined || answer.afterExchanges !== state.turns)
        return reply(question.text);
      if (step.id !== undefined) state.values.set(step.id, answer.text);
      return undefined;
    }
  }
}

function record(
  call: ToolStep,
  input: Readonly<Record<string, unknown>>,
  outcome: { readonly text: string; readonly isError: boolean },
  state: RunState,
): void {
  const text = call.tool === 'Read' ? fileText(outcome) : outcome.text.replace(REMINDER, '').trim();
  if (call.id !== undefined) {
    state.values.set(call.id, text);
    if (outcome.isError) state.failedCalls.add(call.id);
  }
  const file = input.file_path;
  if (
    call.tool === 'Read' &&
    !outcome.isError &&
    typeof file === 'string' &&
    file.endsWith('SKILL.md')
  ) {
    state.skills.push(text);
  }
}

function conditionHolds(condition: Condition, state: RunState, field: string): boolean | string {
  switch (condition.kind) {
    case 'matches': {
      const source = sourceText(condition.in, state);
      if (source === undefined) return missingFact(state, `${field}.in`, condition.in);
      const pattern = render(condition.matches, state, `${field}.matches`);
      if (!pattern.ok) return pattern.message;
      return new RegExp(pattern.text, `m${condition.ignoreCase ? 'i' : ''}`).test(source);
    }
    case 'failed':
      return state.failedCalls.has(condition.failed);
    case 'offered':
      return offeredName(condition.offered, state.offered) !== undefined;
    case 'not': {
      const inner = conditionHolds(condition.not, state, `${field}.not`);
      return typeof inner === 'string' ? inner : !inner;
    }
  }
}

/** The facts and values a template may read, as they stand now. */
function valuesNow(state: RunState): Map<string, Value> {
  const values = new Map<string, Value>(state.values);
  values.set('prompt', state.view.prompt);
  values.set('system', state.view.system);
  values.set('skill', state.skills.join('\n\n'));
  if (state.view.cwd !== undefined) values.set('cwd', state.view.cwd);
  return values;
}

function sourceText(name: string, state: RunState): string | undefined {
  const value = valuesNow(state).get(name);
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join('\n');
}

function missingFact(state: RunState, field: string, name: string): string {
  return `${state.label}: ${field} reads ${name}, which the session was not sent (no working directory in its system text)`;
}

function render(
  source: string,
  state: RunState,
  field: string,
): { ok: true; text: string } | { ok: false; message: string } {
  const rendered = renderTemplate(source, valuesNow(state));
  if (rendered.ok) return { ok: true, text: rendered.value };
  // The one value a checked template can lack: a working directory the system text did not state.
  if (state.view.cwd === undefined && rendered.error.includes('"cwd"')) {
    return { ok: false, message: missingFact(state, field, 'cwd') };
  }
  return {
    ok: false,
    message: `${state.label}: ${field} could not be filled in (${rendered.error})`,
  };
}

/** A tool input with every string filled in; a string result is the failure message. */
function renderValue(value: unknown, state: RunState, field: string): { value: unknown } | string {
  if (typeof value === 'string') {
    const text = render(value, state, field);
    return text.ok ? { value: text.text } : text.message;
  }
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const [index, item] of value.entries()) {
      const rendered = renderValue(item, state, `${field}[${index}]`);
      if (typeof rendered === 'string') return rendered;
      items.push(rendered.value);
    }
    return { value: items };
  }
  if (typeof value === 'object' && value !== null) {
    const entries: [string, unknown][] = [];
    for (const [key, item] of Object.entries(value)) {
      const rendered = renderValue(item, state, `${field}.${key}`);
      if (typeof rendered === 'string') return rendered;
      entries.push([key, rendered.value]);
    }
    return { value: Object.fromEntries(entries) };
  }
  return { value };
}
