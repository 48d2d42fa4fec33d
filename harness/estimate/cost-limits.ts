/**
 * The cost limits a campaign sets on a rep and on each subagent seat
 * (`limits.repMaxCostUsd`, `limits.seatMaxCostUsd`) need a price: a live
 * model without one (`unpriced`, or an id the price table does not list) is
 * refused before any session, as one line naming the model and the limit. A
 * scripted stand-in is never priced, so offline the cost limits do not apply
 * (the start notices say so).
 */

import type { ModelAxis } from '../campaign/model-axis.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import type { Limits } from '../session/session-limits.js';
import { isPriced } from './model-pricing.js';

/** The cost limits the campaign sets, by their field names. */
function costLimitsOf(limits: Limits): string[] {
  return [
    ...(limits.repMaxCostUsd === undefined ? [] : ['limits.repMaxCostUsd']),
    ...(limits.seatMaxCostUsd === undefined ? [] : ['limits.seatMaxCostUsd']),
  ];
}

export function checkCostLimitsPriced(limits: Limits, models: ModelAxis): Result<void, InputError> {
  const [field] = costLimitsOf(limits);
  if (field === undefined) return ok(undefined);
  for (const { choice, pricing, source } of models.models) {
    if (choice.kind !== 'live' || isPriced(pricing, choice.id)) continue;
    const why = pricing === 'unpriced' ? 'is unpriced' : 'is not in the price table';
    return err(
      inputError(
        field,
        `${choice.id} (${source}) ${why}, so this cost limit cannot be kept`,
        'give its endpoint profile a "pricing" of {"input": USD, "output": USD} per million tokens, or drop the limit',
      ),
    );
  }
  return ok(undefined);
}

/**
 * The limits a rep's session is held to: the campaign's, without the cost
 * limits when the rep's model is a scripted stand-in (it has no price, so
 * they cannot apply; the start notice says so).
 */
export function sessionLimitsFor(limits: Limits, scripted: boolean): Limits {
  if (!scripted) return limits;
  const { repMaxCostUsd: _rep, seatMaxCostUsd: _seat, ...rest } = limits;
  return rest;
}

/** A start notice when cost limits are set but every model is a scripted stand-in. */
export function costLimitsOfflineNote(limits: Limits, models: ModelAxis): string | undefined {
  const fields = costLimitsOf(limits);
  if (fields.length === 0 || models.models.some((model) => model.choice.kind === 'live')) {
    return undefined;
  }
  return `${fields.join(' and ')} ${fields.length === 1 ? 'does' : 'do'} not apply offline: a scripted policy has no price`;
}
