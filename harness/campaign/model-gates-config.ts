import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import type { GateConfig } from './config-schema.js';
import type { ResolvedCampaign } from './load-campaign.js';
import type { ModelAxis } from './model-axis.js';

/**
 * A gate's `model` checked against the run's models: `every` or a model's
 * name. A gate naming a model the campaign file does not list is a typo
 * (bad input); one naming a model that `--model` replaced, or that `--only
 * model=` leaves out, cannot be decided by this run and is dropped, with the
 * run's note about dropped gates.
 */
export function gatesForModels(
  campaign: ResolvedCampaign,
  axis: ModelAxis,
): Result<{ gates: GateConfig[]; droppedGates: GateConfig[] }, InputError> {
  const all = axis.all.map((model) => model.name);
  const selected = new Set(axis.models.map((model) => model.name));
  const gates: GateConfig[] = [];
  const dropped: GateConfig[] = [...campaign.droppedGates];
  for (const gate of campaign.gates) {
    const model = gate.model;
    if (model === undefined || model === 'every') {
      gates.push(gate);
      continue;
    }
    if (!all.includes(model) && !axis.fromFlags) {
      return err(
        inputError(
          `${campaign.file}: gates[${campaign.config.gates.indexOf(gate)}]`,
          `names model "${model}", which the campaign does not run`,
          `use one of ${[...all, 'every'].join(', ')}`,
        ),
      );
    }
    (selected.has(model) ? gates : dropped).push(gate);
  }
  return ok({ gates, droppedGates: dropped });
}
