/**
 * A scripted policy, as the server runs it: a name (`scripted:<name>`
 * wherever a model name is shown, ../model-id.ts), one line saying what it
 * does, and a program built from the request alone (program.ts), replayed
 * against the conversation (next-turn.ts). The core's own general policies
 * stand beside this file; a pack brings the rest through the registry
 * (registry.ts), with the seats that answer subagents whatever policy the
 * session runs.
 */

import type { ConversationText } from '../conversation-text.js';
import type { Rng } from '../rng.js';
import type { PolicyProgram } from './program.js';

export interface ExtraCallOptions {
  /** Chance of each extra verification call (`git log`), repeated up to twice. */
  readonly verificationProbability: number;
  /** Chance of each extra look around the repository (git status, Glob, Grep), up to three. */
  readonly lookAroundProbability: number;
}

export const defaultExtraCallOptions: ExtraCallOptions = {
  verificationProbability: 0.5,
  lookAroundProbability: 0.4,
};

/** What a policy's program is built from: the request, nothing remembered. */
export interface PolicyRequest {
  /** The policy the session runs (the model id's, or the server's default). */
  readonly policy: string;
  /** `scripted:<policy>`, for what the program says of itself. */
  readonly label: string;
  readonly sessionKey: string;
  /** Every user text block of the conversation, in order: the prompt, then any later message. */
  readonly promptText: string;
  /** The system text and each user message's text blocks. */
  readonly conversation: ConversationText;
  readonly offeredTools: ReadonlySet<string>;
  /** Present only when the server was given a seed (seeded per session); without it no extra calls. */
  readonly rng: Rng | undefined;
  readonly extras: ExtraCallOptions;
}

export interface ScriptedPolicy {
  readonly name: string;
  /** One line: what this policy does, for `--help`. */
  readonly summary: string;
  program(request: PolicyRequest): PolicyProgram;
  /**
   * What this policy cannot play, read from the request alone (the prompt,
   * the system text, the offered tools; never a scenario id): one phrase
   * saying what it plays and what this session's request lacks, or
   * undefined when it can play it. Asked only on a session turn (a request
   * that offers tools, next-turn.ts), never on a probe such as the endpoint
   * preflight's one-token ping. A session it cannot play gets no verdict:
   * the server answers with a brain failure (cannotPlayReason, ../brain.ts)
   * and the rep is indeterminate at stage `brain`. Absent: it plays any
   * session.
   */
  readonly cannotPlay?: (request: PolicyRequest) => string | undefined;
  /**
   * Its answer to the engine's compaction request (../engine-compaction.ts),
   * given the user's texts before it; absent: the server's summary.
   */
  readonly summarise?: (promptText: string) => string;
}

/**
 * The reason a session gets when its policy cannot play it: the policy,
 * what it could not play, and what to run instead.
 */
export function cannotPlayReason(label: string, what: string): string {
  return `${label} cannot play this session: ${what}. No verdict: for this skill, write a policy file policies/<name>.yaml beside the campaign file and run --model scripted:<name> (README: Calibration as data: policy files), or run a live model`;
}

/** A subagent's conversation that a seat answers: its key part and its program. */
export interface SeatTurn {
  /**
   * Names the seat within the session: the engine sends every subagent's
   * requests under the controller's session key, so two seats must never
   * share tool_use ids, while a resumed one keeps its own.
   */
  readonly key: string;
  readonly program: PolicyProgram;
}

/**
 * A seat: the subagents whose conversation starts from one kind of dispatch
 * prompt, answered so whatever policy the session runs (the session's
 * policy may pick how the seat works).
 */
export interface Seat {
  readonly name: string;
  /** One line: which dispatch prompts it answers and how, for `--help`. */
  readonly summary: string;
  /** The seat's turn when the request's conversation starts from its dispatch prompt. */
  take(request: PolicyRequest): SeatTurn | undefined;
}

/** What a pack brings to the model server: scripted policies, and the seats they dispatch. */
export interface ScriptedBrains {
  readonly policies: readonly ScriptedPolicy[];
  readonly seats?: readonly Seat[];
}
