/**
 * Scoring one hand-written session of a shipped SDD probe (breaker-at-cap,
 * round4-escalates-model, ...) through the public scoring path: the
 * scenario as a run loads it, its fixture's facts, `scoreRep` on the
 * session's tool calls, reply and ledger text. The goldens of the panel's
 * checks (what a real controller might write, right and wrong) use it.
 */
import path from 'node:path';
import { fixtureFacts } from '../../harness/fixture/fixture-facts.js';
import { type CompiledScenario, loadScenarioDir } from '../../harness/score/load-scenario.js';
import { type RepScore, scoreRep } from '../../harness/score/score-rep.js';
import type { ToolCall } from '../../harness/score/tool-call.js';
import { snapshot } from './verb-support.js';

const cache = new Map<string, CompiledScenario>();

export function probe(id: string): CompiledScenario {
  const known = cache.get(id);
  if (known !== undefined) return known;
  const loaded = loadScenarioDir(path.join(import.meta.dirname, '../../scenarios', id));
  if (!loaded.ok) throw new Error(`${loaded.error.input}: ${loaded.error.problem}`);
  cache.set(id, loaded.value);
  return loaded.value;
}

/** The plan's ledger path in the scoped layout. */
export function ledgerOf(id: string): string {
  const plan = String(probe(id).config.plan ?? '');
  return `.superpowers/sdd/${path.basename(plan, '.md')}/progress.md`;
}

let next = 0;
/** A controller tool call. */
export function controllerCall(name: string, input: Record<string, unknown>): ToolCall {
  next++;
  return { id: `toolu_golden_${next}`, name, input, parentToolUseId: null };
}

/** An Agent dispatch with these fields (subagent_type general-purpose unless given). */
export function agent(input: {
  description: string;
  prompt: string;
  model?: string;
  subagent_type?: string;
}): ToolCall {
  return controllerCall('Agent', { subagent_type: 'general-purpose', ...input });
}

export interface ProbeSession {
  readonly calls?: readonly ToolCall[];
  readonly reply?: string;
  /** The ledger's text after the session; absent: the ledger is gone. */
  readonly ledger?: string;
}

export function scoreProbe(id: string, session: ProbeSession): RepScore {
  const scenario = probe(id);
  const plan = scenario.config.plan ?? '';
  const ledger = ledgerOf(id);
  const files = session.ledger === undefined ? {} : { [ledger]: session.ledger };
  const after = snapshot(files);
  return scoreRep({
    scenario,
    facts: fixtureFacts({
      packs: ['sdd'],
      fixture: { plan, ledgers: [{ plan, path: ledger, cited: [] }] },
      branch: 'main',
      variables: {},
      scenario: { ...scenario.config, plan },
    }),
    inputs: {
      reply: session.reply ?? '',
      toolCalls: session.calls ?? [],
      sessionModel: 'claude-opus-5-5',
      before: snapshot(files),
      after,
      filesBefore: {},
      filesAfter: Object.fromEntries(Object.entries(files).map(([file, text]) => [file, { text }])),
    },
    runner: { kind: 'completed' },
    assessPre: false,
  });
}

/** One post check's (or observation's) outcome, by id. */
export function outcome(score: RepScore, id: string): string {
  const found = [...score.checks, ...score.observations].find((check) => check.id === id);
  if (found === undefined) throw new Error(`no check ${id}`);
  return found.outcome;
}
