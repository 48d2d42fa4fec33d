/**
 * An SDD controller policy as the model server runs it: its context is read
 * from the campaign prompt (prompt-facts.ts). A prompt without those facts
 * that points at a task brief (a dispatch finish.ts wrote) is a subagent's:
 * it is answered by implementer.ts. A session whose prompt gives neither
 * (another skill's: a triggering query, a library's task) is one the policy
 * cannot play (cannotPlay: the rep is indeterminate, never a pass or a
 * fail); a request that offers none of the tools the policy needs gets a
 * report saying so and no tool call.
 */
import type { ScriptedPolicy } from '../../../harness/model-server/policies/policy.js';
import type { PolicyProgram } from '../../../harness/model-server/policies/program.js';
import type { Policy, PolicyContext } from './context.js';
import { briefPathIn } from './finish.js';
import { implementerProgram } from './implementer.js';
import { type MissingPromptItem, promptForbidsDispatch, readPromptFacts } from './prompt-facts.js';

export function promptPolicy(policy: Policy): ScriptedPolicy {
  return {
    name: policy.name,
    summary: policy.summary,
    cannotPlay(request) {
      const facts = readPromptFacts(request.promptText);
      if (facts.ok || briefPathIn(request.promptText) !== undefined) return undefined;
      return notAControllerPrompt(facts.error);
    },
    program(request) {
      const { label } = request;
      const facts = readPromptFacts(request.promptText);
      const brief = facts.ok ? undefined : briefPathIn(request.promptText);
      if (brief !== undefined && request.offeredTools.has('Read')) {
        return implementerProgram(label, brief);
      }
      if (!facts.ok) {
        return say(
          `${label} could not find ${facts.error.item} in the prompt (expected ${facts.error.expected}); no tools were run.`,
        );
      }
      const missing = policy.needs.filter((tool) => !request.offeredTools.has(tool));
      if (missing.length > 0) {
        return say(
          `${label} cannot act: the request offers no ${missing.join(' or ')} tool (offered: ${[...request.offeredTools].join(', ') || 'none'}); no tools were run.`,
        );
      }
      const context: PolicyContext = {
        facts: facts.value,
        offeredTools: request.offeredTools,
        dispatchAllowed: !promptForbidsDispatch(request.promptText),
        rng: request.rng,
        extras: request.extras,
      };
      return policy.program(context);
    },
  };
}

/** What an SDD prompt policy could not play: a prompt that is not an SDD controller's. */
export function notAControllerPrompt(missing: MissingPromptItem): string {
  return `it plays an SDD controller's prompt, and this prompt does not give ${missing.item} (expected ${missing.expected})`;
}

// biome-ignore lint/correctness/useYield: a program that ends at once is still a program
function* say(text: string): PolicyProgram {
  return text;
}
