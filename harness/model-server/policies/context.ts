/**
 * What a policy program is given: the facts from the prompt, the tools the
 * request offers, and (only when the server has a seed) a random source for
 * the optional extra calls that make offline tool_uses distributions
 * non-degenerate.
 */

import type { PolicyProgram, ToolName } from './program.js';
import type { PromptFacts } from './prompt-facts.js';
import type { Rng } from './rng.js';

export interface ExtraCallOptions {
  /** Chance of each extra verification call (`git log`), repeated up to twice. */
  readonly verificationProbability: number;
  /** Chance of each extra look around (git status, Glob or Grep of the plans), up to three. */
  readonly lookAroundProbability: number;
}

export const defaultExtraCallOptions: ExtraCallOptions = {
  verificationProbability: 0.5,
  lookAroundProbability: 0.4,
};

export interface PolicyContext {
  readonly facts: PromptFacts;
  readonly offeredTools: ReadonlySet<string>;
  /** False when the prompt forbids dispatching subagents: the policy then reports instead. */
  readonly dispatchAllowed: boolean;
  /** Present only when the server was given a seed; without it a policy makes no extra calls. */
  readonly rng: Rng | undefined;
  readonly extras: ExtraCallOptions;
}

export interface Policy {
  readonly name: string;
  /** One line: what this policy does, for `--help` and logs. */
  readonly summary: string;
  /** Tools the policy cannot act without. */
  readonly needs: readonly ToolName[];
  program(context: PolicyContext): PolicyProgram;
}
