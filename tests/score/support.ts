/**
 * The scoring tests' way in through the public interfaces: the shipped
 * scenarios (loaded and compiled as a run loads them), the facts of their
 * fixtures, `scoreRep` on a reply with snapshots and tool calls, and
 * `readReply`, which reads a reply with S1's report contract (the task,
 * tasks and path-judgements extractors) into the three values the old reply
 * parser returned, so the reply goldens keep their assertions.
 */
import path from 'node:path';
import { fixtureFacts } from '../../harness/fixture/fixture-facts.js';
import type { Snapshot } from '../../harness/fixture/snapshot-schema.js';
import type { ExtractedValue as AnyValue, Reading } from '../../harness/score/evidence.js';
import { type CompiledScenario, loadScenarioDir } from '../../harness/score/load-scenario.js';
import type { Facts } from '../../harness/score/placeholders.js';
import { readReport } from '../../harness/score/read-report.js';
import { type RepInputs, type RepScore, scoreRep } from '../../harness/score/score-rep.js';
import type { ToolCall } from '../../harness/score/tool-call.js';
import type { PathJudgementsValue } from '../../packs/sdd/score/extractors/path-judgements.js';
import type { TaskValue } from '../../packs/sdd/score/extractors/task.js';
import type { TasksValue } from '../../packs/sdd/score/extractors/tasks.js';
import type { PlanCatalogue } from '../../packs/sdd/score/plan-context.js';
import {
  type FixtureLedgers,
  OWN_PLAN,
  PLAN_A,
  S1_SCOPED_FACTS,
  S2_SCOPED_FACTS,
  s1Before,
  s2Before,
} from './fixture-facts.js';

/** The values S1's contract reads. */
type ExtractedValue = TaskValue | TasksValue | PathJudgementsValue;

const cache = new Map<string, CompiledScenario>();

/** A shipped scenario, loaded and compiled. */
export function scenario(id: 's1' | 's2'): CompiledScenario {
  const known = cache.get(id);
  if (known !== undefined) return known;
  const loaded = loadScenarioDir(path.join(import.meta.dirname, '../../scenarios', id));
  if (!loaded.ok) throw new Error(`${loaded.error.input}: ${loaded.error.problem}`);
  cache.set(id, loaded.value);
  return loaded.value;
}

/** The facts of a fixture for a scenario, as a run computes them. */
export function factsOf(id: 's1' | 's2', fixture: FixtureLedgers, plan = fixture.ownPlan): Facts {
  return fixtureFacts({
    packs: ['sdd'],
    fixture: { plan, ledgers: fixture.ledgers },
    branch: 'main',
    variables: {},
    scenario: scenario(id).config,
  });
}

export interface ScoreOverrides {
  readonly reply?: string;
  readonly before?: Snapshot;
  readonly after?: Snapshot;
  readonly toolCalls?: readonly ToolCall[];
  readonly fixture?: FixtureLedgers;
  readonly runner?: Parameters<typeof scoreRep>[0]['runner'];
  readonly inputs?: RepInputs;
}

/** Score a rep of s1 or s2 (scoped fixture, nothing changed, no tool calls unless overridden). */
export function score(id: 's1' | 's2', reply: string, overrides: ScoreOverrides = {}): RepScore {
  const before = overrides.before ?? (id === 's1' ? s1Before() : s2Before());
  const fixture = overrides.fixture ?? (id === 's1' ? S1_SCOPED_FACTS : S2_SCOPED_FACTS);
  return scoreRep({
    scenario: scenario(id),
    facts: factsOf(id, fixture),
    inputs: {
      reply,
      toolCalls: overrides.toolCalls ?? [],
      before,
      after: overrides.after ?? structuredClone(before),
      ...overrides.inputs,
    },
    runner: overrides.runner ?? { kind: 'completed' },
  });
}

/** One check's (or observation's) result by id. */
export function result(scored: RepScore, id: string) {
  const found = [...scored.pre, ...scored.checks, ...scored.observations].find(
    (check) => check.id === id,
  );
  if (found === undefined) throw new Error(`no check ${id}`);
  return found;
}

/** What the dispatch section read: a task, 'none', or undefined when unreadable. */
export function dispatchOf(scored: RepScore): number | 'none' | undefined {
  const reading = scored.values.dispatch;
  return reading?.ok === true && reading.value.kind === 'task'
    ? (reading.value as TaskValue).task
    : undefined;
}

/** What the complete section read: the tasks, [] when unreadable. */
export function claimedOf(scored: RepScore): readonly number[] {
  const reading = scored.values.complete;
  return reading?.ok === true && reading.value.kind === 'tasks'
    ? (reading.value as TasksValue).tasks
    : [];
}

/** Plans and names a reading knows: the plan read for, the other plans, the catalogue of names. */
export interface ReaderContext {
  readonly ownPlan: string;
  readonly foreignPlans: readonly string[];
  readonly catalogue: PlanCatalogue;
}

/** What a real S1/S2 rep reads with: the shipped catalogue, plan B own, plan A foreign. */
export const SHIPPED: ReaderContext = {
  ownPlan: OWN_PLAN,
  foreignPlans: [PLAN_A],
  catalogue: scenario('s1').config.plans as PlanCatalogue,
};

/** A context that knows the plans but no names (no titles, no aliases), optionally their size. */
export function bareContext(taskCount?: number): ReaderContext {
  return {
    ownPlan: OWN_PLAN,
    foreignPlans: [PLAN_A],
    catalogue: taskCount === undefined ? {} : { [OWN_PLAN]: { taskCount } },
  };
}

/** The three answers of a reply as the old parser returned them. */
export interface ReadReply {
  readonly firstDispatch: number | 'none' | undefined;
  readonly claimedComplete: readonly number[];
  readonly claimedCompleteAnswer: 'read' | 'unreadable' | 'absent';
  readonly ledgers: readonly { path: string; verdict: string }[];
  readonly sectionsFound: readonly ('ledgers' | 'complete' | 'dispatch')[];
}

function value<K extends ExtractedValue['kind']>(
  reading: Reading<AnyValue> | undefined,
  kind: K,
): Extract<ExtractedValue, { kind: K }> | undefined {
  return reading?.ok === true && reading.value.kind === kind
    ? (reading.value as Extract<ExtractedValue, { kind: K }>)
    : undefined;
}

/** Read a reply with S1's report contract in `context`. Pure. */
export function readReply(reply: string, context: ReaderContext = SHIPPED): ReadReply {
  const facts: Facts = { ownPlan: context.ownPlan, foreignPlans: context.foreignPlans };
  const read = readReport(reply, scenario('s1').sections, facts, { plans: context.catalogue });
  const sectionsFound = (['ledgers', 'complete', 'dispatch'] as const).filter(
    (name) => read.sections[name] !== undefined,
  );
  const complete = value(read.values.complete, 'tasks');
  return {
    firstDispatch: value(read.values.dispatch, 'task')?.task,
    claimedComplete: complete?.tasks ?? [],
    claimedCompleteAnswer:
      complete !== undefined
        ? 'read'
        : read.sections.complete === undefined
          ? 'absent'
          : 'unreadable',
    ledgers: (value(read.values.ledgers, 'path-judgements')?.paths ?? []).map((entry) => ({
      path: entry.path,
      verdict: entry.judgement,
    })),
    sectionsFound,
  };
}

/** A score seen the way the old scorer reported it: verdict, reasons, and the three answers. */
export interface ScoreView {
  readonly verdict: RepScore['verdict'];
  readonly reasons: readonly string[];
  readonly firstDispatch: number | 'none' | null;
  readonly claimedComplete: readonly number[];
  readonly ledgers: readonly { path: string; verdict: string }[];
  readonly score: RepScore;
}

export function view(scored: RepScore): ScoreView {
  const ledgers = value(scored.values.ledgers, 'path-judgements')?.paths ?? [];
  return {
    verdict: scored.verdict,
    reasons: scored.reasons,
    firstDispatch: dispatchOf(scored) ?? null,
    claimedComplete: claimedOf(scored),
    ledgers: ledgers.map((entry) => ({ path: entry.path, verdict: entry.judgement })),
    score: scored,
  };
}
