/**
 * The `notes` of an exported trajectory: plain sentences saying where it
 * came from and everything the mapping left out, estimated or adjusted, so a
 * reader of the ATIF file alone is not misled.
 */
import type { RepMeta } from '../results/rep-meta.js';
import type { AtifStep } from './atif-document.js';
import { stepSum } from './step-metrics.js';
import type { TranscriptSequence } from './transcript-sequence.js';

/** What the step mapping had to leave out or adjust, counted while building the steps. */
export interface MappingGaps {
  /** Tool calls whose input was not a JSON object (put under `arguments.input`). */
  argumentsWrapped: number;
  /** Tool calls the transcript has no tool_result for. */
  callsWithoutResult: number;
  /** tool_use blocks the transcript reader rejected (no name or id), so not counted tool uses. */
  callsNotRead: number;
  /** User messages repeating the prompt before any agent turn. */
  promptEchoes: number;
  /** A sentence about where the final reply went, when it needed placing. */
  finalReply: string | undefined;
}

export function emptyMappingGaps(): MappingGaps {
  return {
    argumentsWrapped: 0,
    callsWithoutResult: 0,
    callsNotRead: 0,
    promptEchoes: 0,
    finalReply: undefined,
  };
}

export interface NoteFacts {
  readonly repId: string;
  readonly campaignId: string;
  readonly meta: RepMeta;
  readonly steps: readonly AtifStep[];
  readonly sequence: TranscriptSequence;
  /** Lines the transcript reader could not read. */
  readonly malformedLines: number;
  /** Whether per-step cost could be priced (see step-metrics.ts `pricedModelOf`). */
  readonly stepsPriced: boolean;
  readonly gaps: MappingGaps;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function isAre(count: number): string {
  return count === 1 ? 'is' : 'are';
}

function counted(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, n]) => `${name} x${n}`)
    .join(', ');
}

function modelNotes(meta: RepMeta, stepsPriced: boolean): string[] {
  if (meta.model.scripted) {
    return [
      `The model was a scripted policy (${meta.model.requested}) on redgreen's local model server, not a language model: token counts are that server's estimates and cost is null (unpriced).`,
    ];
  }
  const notes: string[] = [];
  if (meta.tokensEstimated) notes.push('Token counts are estimates.');
  if (meta.costUsd === null) {
    notes.push(
      `Cost is null: ${meta.model.requested} has no price in redgreen's price table (as of ${meta.pricingAsOf}) or usage is unknown.`,
    );
  } else if (!stepsPriced) {
    notes.push(
      `Per-step cost_usd is null: the price table changed since the run (priced as of ${meta.pricingAsOf}); final_metrics.total_cost_usd is the cost recorded at run time.`,
    );
  }
  return notes;
}

function tokenNotes(meta: RepMeta, steps: readonly AtifStep[]): string[] {
  const notes: string[] = [];
  if (steps.some((step) => step.metrics?.completion_tokens === null)) {
    notes.push(
      'Per-step completion_tokens (and so cost_usd) are null where the engine streamed the turn: its messages report usage from the start of the response, before the output count is known. final_metrics carries the session totals.',
    );
  }
  if (meta.tokens === null) return notes;
  const promptSum = stepSum(steps, 'prompt_tokens');
  const recordedPrompt = meta.tokens.input + meta.tokens.cacheWrite + meta.tokens.cacheRead;
  if (promptSum !== null && promptSum !== recordedPrompt) {
    notes.push(
      `Per-step prompt_tokens sum to ${promptSum}; the session total redgreen recorded is ${recordedPrompt} (final_metrics).`,
    );
  }
  const completionSum = stepSum(steps, 'completion_tokens');
  if (completionSum !== null && completionSum !== meta.tokens.output) {
    notes.push(
      `Per-step completion_tokens sum to ${completionSum}; the session total redgreen recorded is ${meta.tokens.output} (final_metrics).`,
    );
  }
  return notes;
}

function transcriptNotes(facts: NoteFacts): string[] {
  const { sequence, gaps } = facts;
  const notes: string[] = [];
  if (gaps.promptEchoes > 0) {
    notes.push("The transcript's echo of the prompt is not repeated as a step.");
  }
  const skipped = Object.values(sequence.skipped).reduce((sum, n) => sum + n, 0);
  if (skipped > 0) {
    notes.push(
      `Skipped ${plural(skipped, 'transcript line')} of message types this export does not map: ${counted(sequence.skipped)}.`,
    );
  }
  if (sequence.subagentLines > 0) {
    notes.push(
      `${plural(sequence.subagentLines, 'transcript line')} made inside subagents ${isAre(sequence.subagentLines)} not steps of this trajectory: each subagent seat is a trajectory of its own, linked from the result of the call that started or resumed it (subagent_trajectory_ref); their tool calls are counted in extra.subagent_tool_uses.`,
    );
  }
  if (facts.malformedLines > 0) {
    notes.push(
      `${plural(facts.malformedLines, 'transcript line')} could not be read and ${facts.malformedLines === 1 ? 'was' : 'were'} skipped.`,
    );
  }
  if (gaps.callsNotRead > 0) {
    notes.push(
      `${plural(gaps.callsNotRead, 'tool_use block')} without a valid name or input ${isAre(gaps.callsNotRead)} left out of tool_calls, as redgreen's tool_uses count leaves them out.`,
    );
  }
  if (gaps.callsWithoutResult > 0) {
    notes.push(
      `${plural(gaps.callsWithoutResult, 'tool call')} ${gaps.callsWithoutResult === 1 ? 'has' : 'have'} no result in the transcript (the session ended first).`,
    );
  }
  if (gaps.argumentsWrapped > 0) {
    notes.push(
      `${plural(gaps.argumentsWrapped, 'tool call')} had input that is not a JSON object; it is under arguments.input.`,
    );
  }
  return notes;
}

export function trajectoryNotes(facts: NoteFacts): string {
  const { meta, steps } = facts;
  const notes = [
    `redgreen rep ${facts.repId} (attempt ${meta.attempt}) of campaign ${facts.campaignId}, exported from its transcript.jsonl.`,
    'Step 1 is the scenario prompt (prompt.md); the system prompt is not recorded in redgreen transcripts and is not a step.',
  ];
  if (meta.status.kind === 'indeterminate') {
    notes.push(
      `The session is indeterminate (${meta.status.stage}: ${meta.status.reason}); redgreen neither passes nor fails it.`,
    );
  }
  if (!steps.some((step) => step.source === 'agent'))
    notes.push('The transcript holds no agent turn.');
  notes.push(...modelNotes(meta, facts.stepsPriced), ...tokenNotes(meta, steps));
  if (facts.gaps.finalReply !== undefined) notes.push(facts.gaps.finalReply);
  notes.push(...transcriptNotes(facts));
  return notes.join(' ');
}
