/**
 * The program model a data brain runs in (see ../policies/program.ts): a
 * generator that yields the tool calls of one assistant turn and receives
 * their outcomes, replayed by the server against the conversation. A data
 * brain may call any tool the session offers (not only the built-in
 * policies' tools), and it ends with a reply or with a failure: what it
 * needed was not in the conversation (a capture found nothing, a replay met
 * a tool result its recording never saw), so the rep is indeterminate,
 * never scored.
 */
import type { BrainCall, ToolOutcome } from '../policies/program.js';

export type BrainAnswer =
  | { readonly kind: 'reply'; readonly text: string }
  | { readonly kind: 'failure'; readonly message: string };

export type BrainProgram = Generator<readonly BrainCall[], BrainAnswer, readonly ToolOutcome[]>;

export function reply(text: string): BrainAnswer {
  return { kind: 'reply', text };
}

export function failure(message: string): BrainAnswer {
  return { kind: 'failure', message };
}
