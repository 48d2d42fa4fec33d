/**
 * The tokens and cost of one cell of a campaign (arm × scenario) before it
 * runs, for `--dry-run`. Nothing here is a measurement of the run to come:
 * each live session is priced from a profile of its stop mode, at the
 * repository's price table (pricing.json):
 *
 * - `report` (the session works, then replies): estimate.ts's live session,
 *   10 turns over a 20k-token context, 400 output tokens a turn;
 * - `first-dispatch` (a decision probe): 14 turns over a mean 22k-token
 *   context, 300 output tokens a turn. Where that comes from: offline, on
 *   the claude-code backend, the scripted policies reach the first dispatch
 *   in 7-12 turns and the local server estimates 85-160k input tokens a rep,
 *   11-14k a request, most of it the engine's own system prompt and tool
 *   definitions; a model reads more and thinks between calls, so the profile
 *   assumes a few more turns and a context grown by the skill text and the
 *   workspace files it reads;
 * - `complete` (a full session with subagents): an assumption, not yet a
 *   measurement: 60 turns summed over every seat (a controller and a few
 *   implementers and reviewers) over a mean 25k-token context, 400 output
 *   tokens a turn. A scripted user's answers are not priced: each answer
 *   gives the controller a fresh maxTurns budget, so a session may run up to
 *   (maxAnswers + 1) x maxTurns controller turns (bounded by the session
 *   timeout and the cost limits), which the profile does not count.
 *
 * - an event stop (`{ at: … }`, such as the first Skill call): a probe that
 *   ends at the call its selector picks: 1 turn over a 20k-token context
 *   (the engine's system prompt and tools, the skills listing, the prompt),
 *   200 output tokens. Offline, a triggering probe ends at its first request;
 *   a stop at a later event (the first implementation write) costs more
 *   turns than the profile says. The dry run prints the same scenario's
 *   run-to-completion figure (the `report` profile) beside it.
 *
 * Context is read from the prompt cache after the first turn (written once,
 * on the first turn, then read on each later one), as both backends arrange
 * it: a session of N turns writes the context once and each turn's output,
 * and reads the context N - 1 times; a one-turn probe reads nothing. A scripted run has no
 * API tokens and no cost: its figures are n/a (the model server's own
 * estimates land in each rep's meta.json).
 */

import type { ModelChoice } from '../campaign/model-choice.js';
import type { PricingConfig } from '../campaign/model-config.js';
import { type StopSpec, sessionStopOf } from '../score/stop-mode.js';
import { LIVE_SESSION } from './estimate.js';
import { priceSession } from './model-pricing.js';

interface SessionProfile {
  readonly turns: number;
  readonly contextTokens: number;
  readonly outputTokensPerTurn: number;
}

export const PROBE_SESSION: SessionProfile = {
  turns: 14,
  contextTokens: 22_000,
  outputTokensPerTurn: 300,
};

/** A full session's turns summed over its seats (see the module comment: assumed, not measured). */
export const FULL_SESSION: SessionProfile = {
  turns: 60,
  contextTokens: 25_000,
  outputTokensPerTurn: 400,
};

/** A probe that ends at the call an event stop picks (see the module comment). */
export const EVENT_PROBE_SESSION: SessionProfile = {
  turns: 1,
  contextTokens: 20_000,
  outputTokensPerTurn: 200,
};

type ProfileName = 'report' | 'first-dispatch' | 'complete' | 'event';

const PROFILES: Readonly<Record<ProfileName, SessionProfile>> = {
  report: LIVE_SESSION,
  'first-dispatch': PROBE_SESSION,
  complete: FULL_SESSION,
  event: EVENT_PROBE_SESSION,
};

function profileOf(stop: StopSpec): ProfileName {
  const { mode, at } = sessionStopOf(stop);
  return at === undefined ? mode : 'event';
}

export interface CellEstimate {
  /** Tokens one rep sends and receives (input, cache writes and reads, output); null when scripted. */
  readonly tokensPerRep: number | null;
  /** One rep's cost in USD; null when scripted or the model is not priced. */
  readonly costPerRepUsd: number | null;
  /** The cell's cost in USD (all its reps); null when scripted or the model is not priced. */
  readonly costUsd: number | null;
}

/** The usage one live session of a stop mode is assumed to have. */
export function sessionUsage(stop: StopSpec): {
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
} {
  const { turns, contextTokens, outputTokensPerTurn } = PROFILES[profileOf(stop)];
  return {
    input: turns * 200,
    cacheWrite: contextTokens + turns * outputTokensPerTurn,
    // The first turn writes the context it sends; only later turns read it back.
    cacheRead: (turns - 1) * contextTokens,
    output: turns * outputTokensPerTurn,
  };
}

/** One live session's cost at a model's pricing (the dated table, an endpoint's, or unpriced: null); null when scripted. */
export function sessionCostUsd(
  stop: StopSpec,
  model: ModelChoice,
  pricing: PricingConfig = 'table',
): number | null {
  if (model.kind === 'scripted') return null;
  return priceSession(pricing, model.id, sessionUsage(stop));
}

export function estimateCell(
  stop: StopSpec,
  model: ModelChoice,
  reps: number,
  pricing: PricingConfig = 'table',
): CellEstimate {
  if (model.kind === 'scripted') return { tokensPerRep: null, costPerRepUsd: null, costUsd: null };
  const usage = sessionUsage(stop);
  const perRep = sessionCostUsd(stop, model, pricing);
  return {
    tokensPerRep: usage.input + usage.cacheWrite + usage.cacheRead + usage.output,
    costPerRepUsd: perRep,
    costUsd: perRep === null ? null : perRep * reps,
  };
}

/** Where the token figures come from, for the dry run's footnote: the profiles of the stop modes the run has. */
export function tokenEstimateSource(model: ModelChoice, specs: readonly StopSpec[]): string {
  const stops = specs.map(profileOf);
  if (model.kind === 'scripted') {
    return "n/a: a scripted policy spends no API tokens (the local server estimates its own, in each rep's meta.json)";
  }
  const probe = PROBE_SESSION;
  const profiles = [
    ...(stops.includes('first-dispatch')
      ? [
          `a decision probe (first-dispatch) ${probe.turns} turns over a mean ${probe.contextTokens / 1000}k-token context with ${probe.outputTokensPerTurn} output tokens a turn ` +
            `(offline the probes reach their dispatch in 7-12 turns of 11-14k tokens a request, mostly the engine's system prompt and tools)`,
        ]
      : []),
    ...(stops.includes('report')
      ? [
          `a report session (report) ${LIVE_SESSION.turns} turns over a mean ${LIVE_SESSION.contextTokens / 1000}k-token context with ${LIVE_SESSION.outputTokensPerTurn} output tokens a turn`,
        ]
      : []),
    ...(stops.includes('event')
      ? [
          `an event probe (stop at an event) ${EVENT_PROBE_SESSION.turns} turn over a ${EVENT_PROBE_SESSION.contextTokens / 1000}k-token context with ${EVENT_PROBE_SESSION.outputTokensPerTurn} output tokens (a stop at a later event costs more turns)`,
        ]
      : []),
    ...(stops.includes('complete')
      ? [
          `a full session (complete) ${FULL_SESSION.turns} turns summed over its seats over a mean ${FULL_SESSION.contextTokens / 1000}k-token context with ${FULL_SESSION.outputTokensPerTurn} output tokens a turn (assumed, not measured; a scripted user's answers not priced: each gives the controller a fresh maxTurns budget)`,
        ]
      : []),
  ];
  return `per rep from a profile per stop mode, not a measurement: ${profiles.join('; ')}; context read from the prompt cache after the first turn`;
}
