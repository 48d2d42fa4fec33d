/**
 * `dispatch`: the controller's subagent dispatches, selected (first, last,
 * nth, any; optionally only fresh or resumes, of one `subagent_type`, or
 * whose description matches a pattern), and matched
 * on their input: the prompt against a pattern (after markdown emphasis and
 * code spans are removed), the model's tier (at least / at most, from the
 * tier table), fresh (`Agent`/`Task`) or resume (SendMessage), what a pack
 * reads from it (dispatch-reading.ts), and its role as the scenario's patterns read it
 * (dispatch-role.ts). No dispatch where one was selected fails; a matcher the
 * input cannot answer (no model given and none known, a pack's reading that
 * cannot be made) is undecided. Params and matching: dispatch-match.ts.
 */
import { required } from '../evidence.js';
import { allOf, anyOf } from '../kleene.js';
import { registeredDispatchReadings } from '../score-registry.js';
import { defineVerb, quotedPattern, type VerbResult } from '../verb.js';
import {
  dispatchParams,
  dispatchProblem,
  matchDispatch,
  selectedDispatches,
} from './dispatch-match.js';
import { missingCalls } from './tool-match.js';

export const dispatch = defineVerb({
  summary:
    'the selected dispatch (first/last/nth/any, by kind, subagent_type, description) matches prompt, model tier, fresh/resume and what a pack reads from it',
  get params() {
    return dispatchParams();
  },
  fieldOwner: (field) =>
    registeredDispatchReadings().find(({ entry }) => Object.hasOwn(entry.params, field))?.owner,
  reads: () => ['transcript'],
  validate: (params, context) => dispatchProblem(params, context),
  run: (params, evidence): VerbResult => {
    const transcript = required(evidence.transcript, 'transcript');
    const chosen = selectedDispatches(params, transcript.dispatches);
    const which = `${
      params.select.which === 'nth'
        ? `dispatch ${params.select.n}`
        : params.select.which === 'any'
          ? 'dispatch'
          : `${params.select.which} dispatch`
    }${params.select.description === undefined ? '' : ` described ${quotedPattern(params.select.description)}`}${
      params.select.to === undefined
        ? ''
        : ` sent to the agent of a dispatch ${[
            params.select.to.description === undefined
              ? ''
              : `described ${quotedPattern(params.select.to.description)}`,
            params.select.to.subagentType ?? '',
          ]
            .filter((part) => part !== '')
            .join(' of type ')}`
    }`;
    // Dispatches are the controller's calls: only its missing calls leave an absence open.
    const missing = missingCalls('controller', transcript);
    if (chosen.length === 0 && missing !== undefined) {
      return {
        outcome: 'undecided',
        observed: 'none',
        detail: `no ${which} among ${transcript.dispatches.length} readable dispatch(es); ${missing}`,
      };
    }
    if (chosen.length === 0) {
      return {
        outcome: 'fail',
        observed: 'none',
        detail: `no ${which} (${transcript.dispatches.length} dispatch(es) in all)`,
      };
    }
    const results = chosen.map((one) => ({ one, ...matchDispatch(params, one, transcript.model) }));
    const outcome =
      params.select.which === 'any'
        ? anyOf(results.map((r) => r.outcome))
        : allOf(results.map((r) => r.outcome));
    // The dispatches that decided the outcome first: for `any` those that passed, else those that failed.
    const shown = [...results]
      .sort((a, b) => rank(a.outcome, params.select.which) - rank(b.outcome, params.select.which))
      .slice(0, 3)
      .map(
        ({ one, said }) =>
          `#${one.index} ${one.tool}${said.length > 0 ? `: ${said.join(', ')}` : ''}`,
      );
    return {
      outcome,
      observed: results[0]?.said.join(', ') || chosen[0]?.tool,
      detail: `${which}: ${shown.join('; ')}`,
    };
  },
});

/**
 * Where a dispatch's outcome puts it in the detail: for `any` pass first, for
 * the others fail first (a stable sort keeps transcript order within each).
 */
function rank(outcome: string, which: string): number {
  const order = which === 'any' ? ['pass', 'undecided', 'fail'] : ['fail', 'undecided', 'pass'];
  return order.indexOf(outcome);
}
