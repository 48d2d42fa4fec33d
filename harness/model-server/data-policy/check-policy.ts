/**
 * What can be known about a policy file before it runs, from the file
 * alone: every template reads only facts and values defined earlier on
 * every path to it, every pattern compiles, every `failed` names an earlier
 * call, ids and captures are named once, no step comes after one that ends
 * the turn, no branch arm repeats an earlier arm's condition, and every path
 * ends with a reply (or a question). A problem names the field it is in.
 * Whether the session offers the tools is session-fit.ts's question.
 */
import {
  type BranchArm,
  type Condition,
  FACT_NAMES,
  type PolicyFile,
  type Step,
  type ToolStep,
} from './policy-schema.js';
import { analyseTemplate, renderTemplate, type Value } from './templates.js';

export interface PolicyProblem {
  /** Where in the file: `steps[2].input.command`. */
  readonly field: string;
  readonly problem: string;
  readonly fix: string;
}

interface Scope {
  /** Values defined on every path to here. */
  readonly defined: ReadonlySet<string>;
  /** Values defined on some path to here only, with where. */
  readonly partly: ReadonlyMap<string, string>;
  /** Ids of tool calls defined on every path to here. */
  readonly calls: ReadonlySet<string>;
}

interface Walked {
  readonly scope: Scope;
  /** True when every path through the steps ends the turn with a reply. */
  readonly ends: boolean;
}

const FACTS = new Set<string>(FACT_NAMES);

export function checkPolicyFile(file: PolicyFile): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  const declared = new Map<string, string>();
  const empty: Scope = { defined: new Set(), partly: new Map(), calls: new Set() };
  const program = (steps: readonly Step[], field: string): void => {
    const walked = walkSteps(steps, field, empty, { problems, declared });
    if (!walked.ends) {
      problems.push({
        field,
        problem: 'can end without a reply: a path through these steps runs out of steps',
        fix: 'finish every path (each branch arm, and after the branch) with a reply or an ask step',
      });
    }
  };
  if (file.steps !== undefined) program(file.steps, 'steps');
  for (const [index, seat] of (file.seats ?? []).entries()) {
    const pattern = patternProblem(seat.prompt);
    if (pattern !== undefined) {
      problems.push({ field: `seats[${index}].prompt`, problem: pattern, fix: 'fix the pattern' });
    }
    program(seat.steps, `seats[${index}].steps`);
  }
  return problems;
}

interface Context {
  readonly problems: PolicyProblem[];
  /** Where each id and capture name is first defined, for messages. */
  readonly declared: Map<string, string>;
}

function walkSteps(steps: readonly Step[], field: string, start: Scope, context: Context): Walked {
  let scope = start;
  let endedAt: string | undefined;
  for (const [index, step] of steps.entries()) {
    const here = `${field}[${index}]`;
    if (endedAt !== undefined) {
      context.problems.push({
        field: here,
        problem: `can never be reached: ${endedAt} ends the turn with a reply`,
        fix: 'remove it, or move it before the reply',
      });
      return { scope, ends: true };
    }
    const walked = walkStep(step, here, scope, context);
    scope = walked.scope;
    if (walked.ends) endedAt = here;
  }
  return { scope, ends: endedAt !== undefined };
}

function walkStep(step: Step, field: string, scope: Scope, context: Context): Walked {
  switch (step.kind) {
    case 'tool':
      checkCall(step, field, scope, context);
      return { scope: withCalls(scope, [step], field, context), ends: false };
    case 'parallel':
      step.parallel.forEach((call, index) => {
        checkCall(call, `${field}.parallel[${index}]`, scope, context);
      });
      return { scope: withCalls(scope, step.parallel, `${field}.parallel`, context), ends: false };
    case 'capture': {
      checkSource(step.from, `${field}.from`, scope, context);
      checkPattern(step.pattern, `${field}.pattern`, scope, context);
      return {
        scope: define(scope, step.capture, `${field}.capture`, context, false),
        ends: false,
      };
    }
    case 'branch':
      return walkBranch(step.branch, `${field}.branch`, scope, context);
    case 'reply':
      checkTemplate(step.reply, `${field}.reply`, scope, context);
      return { scope, ends: true };
    case 'ask':
      checkTemplate(step.ask, `${field}.ask`, scope, context);
      return {
        scope:
          step.id === undefined ? scope : define(scope, step.id, `${field}.id`, context, false),
        ends: false,
      };
  }
}

function walkBranch(
  arms: readonly BranchArm[],
  field: string,
  scope: Scope,
  context: Context,
): Walked {
  const ends: boolean[] = [];
  const scopes: Scope[] = [];
  const seen: string[] = [];
  for (const [index, arm] of arms.entries()) {
    const here = `${field}[${index}]`;
    if ('when' in arm) {
      checkCondition(arm.when, `${here}.when`, scope, context);
      const key = JSON.stringify(arm.when);
      const earlier = seen.indexOf(key);
      if (earlier >= 0) {
        context.problems.push({
          field: `${here}.when`,
          problem: `can never be reached: ${field}[${earlier}] has the same condition and is tried first`,
          fix: 'give the arm a condition of its own, or merge the two arms',
        });
      }
      seen.push(key);
    }
    const walked = walkSteps(
      'when' in arm ? arm.steps : arm.else,
      `${here}.${'when' in arm ? 'steps' : 'else'}`,
      scope,
      context,
    );
    ends.push(walked.ends);
    scopes.push(walked.scope);
  }
  const hasElse = arms.some((arm) => 'else' in arm);
  // Without an else, the path that takes no arm keeps the scope it came with.
  const paths = hasElse ? scopes : [...scopes, scope];
  const defined = new Set(
    [...(paths[0]?.defined ?? [])].filter((name) => paths.every((path) => path.defined.has(name))),
  );
  const calls = new Set(
    [...(paths[0]?.calls ?? [])].filter((name) => paths.every((path) => path.calls.has(name))),
  );
  const partly = new Map(scope.partly);
  for (const [index, path] of scopes.entries()) {
    for (const name of path.defined) {
      if (!defined.has(name) && !partly.has(name)) partly.set(name, `${field}[${index}]`);
    }
    for (const [name, where] of path.partly) if (!partly.has(name)) partly.set(name, where);
  }
  return { scope: { defined, partly, calls }, ends: hasElse && ends.every(Boolean) };
}

function checkCall(step: ToolStep, field: string, scope: Scope, context: Context): void {
  for (const [key, value] of templateLeaves(step.input, `${field}.input`)) {
    checkTemplate(value, key, scope, context);
  }
}

/** Every string in a tool input, with its field. */
function templateLeaves(value: unknown, field: string): [string, string][] {
  if (typeof value === 'string') return [[field, value]];
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => templateLeaves(item, `${field}[${index}]`));
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => templateLeaves(item, `${field}.${key}`));
  }
  return [];
}

function checkCondition(condition: Condition, field: string, scope: Scope, context: Context): void {
  switch (condition.kind) {
    case 'matches':
      checkSource(condition.in, `${field}.in`, scope, context);
      checkPattern(condition.matches, `${field}.matches`, scope, context);
      return;
    case 'failed':
      if (!scope.calls.has(condition.failed)) {
        context.problems.push({
          field: `${field}.failed`,
          problem: `"${condition.failed}" is no tool call made on every path before this step`,
          fix: 'name the id of an earlier tool step',
        });
      }
      return;
    case 'offered':
      return;
    case 'not':
      checkCondition(condition.not, `${field}.not`, scope, context);
  }
}

function checkSource(name: string, field: string, scope: Scope, context: Context): void {
  const problem = unknownName(name, scope);
  if (problem !== undefined) context.problems.push({ field, ...problem });
}

function checkTemplate(source: string, field: string, scope: Scope, context: Context): void {
  const reads = analyseTemplate(source);
  if (!reads.ok) {
    context.problems.push({ field, problem: reads.error, fix: 'fix the template' });
    return;
  }
  for (const name of reads.value.names) {
    const problem = unknownName(name, scope, true);
    if (problem !== undefined) {
      context.problems.push({ field, ...problem });
      return;
    }
  }
}

function checkPattern(source: string, field: string, scope: Scope, context: Context): void {
  const before = context.problems.length;
  checkTemplate(source, field, scope, context);
  if (context.problems.length > before) return;
  // A templated pattern is compiled with every value it reads standing in as `x`.
  const sample = new Map<string, Value>(
    [...(analyseTemplate(source).ok ? [...scope.defined, ...FACTS] : [])].map((name) => [
      name,
      'x',
    ]),
  );
  const rendered = renderTemplate(source, sample);
  const problem = rendered.ok ? patternProblem(rendered.value) : undefined;
  if (problem !== undefined) context.problems.push({ field, problem, fix: 'fix the pattern' });
}

/** Why a pattern does not compile (flags m and i), or undefined. */
export function patternProblem(source: string): string | undefined {
  try {
    new RegExp(source, 'mi');
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return `is not a valid regular expression (JavaScript syntax): ${message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '')}`;
  }
}

function unknownName(
  name: string,
  scope: Scope,
  inTemplate = false,
): { problem: string; fix: string } | undefined {
  if (FACTS.has(name) || scope.defined.has(name)) return undefined;
  const shown = inTemplate ? `{{${name}}}` : `"${name}"`;
  const partly = scope.partly.get(name);
  if (partly !== undefined) {
    return {
      problem: `${shown} is defined only on some paths to this step (in ${partly})`,
      fix: 'define it on every arm of that branch (an else included), or use it inside the arm',
    };
  }
  const known = [...FACTS, ...scope.defined];
  return {
    problem: `${shown} names no fact, id or capture defined before this step`,
    fix: `use one of ${known.join(', ')}, or capture it first`,
  };
}

function define(scope: Scope, name: string, field: string, context: Context, call: boolean): Scope {
  // Sibling arms may each define a name (so it is defined after the branch); one path may not twice.
  if (scope.defined.has(name)) {
    context.problems.push({
      field,
      problem: `"${name}" is already defined before this step (at ${context.declared.get(name) ?? 'an earlier step'})`,
      fix: 'give every id and capture on one path a name of its own',
    });
  }
  if (!context.declared.has(name)) context.declared.set(name, field);
  const partly = new Map(scope.partly);
  partly.delete(name);
  return {
    defined: new Set([...scope.defined, name]),
    partly,
    calls: call ? new Set([...scope.calls, name]) : scope.calls,
  };
}

function withCalls(
  scope: Scope,
  calls: readonly ToolStep[],
  field: string,
  context: Context,
): Scope {
  let next = scope;
  for (const [index, call] of calls.entries()) {
    if (call.id === undefined) continue;
    next = define(
      next,
      call.id,
      calls.length === 1 ? `${field}.id` : `${field}[${index}].id`,
      context,
      true,
    );
  }
  return next;
}
