/**
 * What an SDD policy program is given: the facts from the campaign prompt
 * (the repository, the plan, the skill), the tools the request offers,
 * whether it may dispatch, and (only when the server has a seed) a random
 * source for the optional extra calls that make offline tool_uses
 * distributions non-degenerate.
 */
import type { ExtraCallOptions } from '../../../harness/model-server/policies/policy.js';
import type { PolicyProgram, ToolName } from '../../../harness/model-server/policies/program.js';
import type { Rng } from '../../../harness/model-server/rng.js';
import type { PromptFacts } from './prompt-facts.js';

export interface PolicyContext {
  readonly facts: PromptFacts;
  readonly offeredTools: ReadonlySet<string>;
  /** False when the prompt forbids dispatching subagents: the policy then reports instead. */
  readonly dispatchAllowed: boolean;
  /** Present only when the server was given a seed; without it a policy makes no extra calls. */
  readonly rng: Rng | undefined;
  readonly extras: ExtraCallOptions;
}

/** A policy that plays the SDD controller of the campaign prompt (see prompt-policy.ts). */
export interface Policy {
  readonly name: string;
  /** One line: what this policy does, for `--help`. */
  readonly summary: string;
  /** Tools the policy cannot act without. */
  readonly needs: readonly ToolName[];
  program(context: PolicyContext): PolicyProgram;
}
