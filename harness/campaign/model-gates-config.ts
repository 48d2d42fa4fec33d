import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import type { GateConfig } from './config-schema.js';
import { engineEntryName } from './engine-axis.js';
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
  for (const given of campaign.gates) {
    const onEngine = gateOnEngine(given, campaign, axis);
    if (!onEngine.ok) return onEngine;
    if (onEngine.value === null) {
      dropped.push(given);
      continue;
    }
    const gate = onEngine.value;
    const model = gate.model;
    if (model === undefined || model === 'every') {
      gates.push(gate);
      continue;
    }
    if (!all.includes(model) && !axis.fromFlags) {
      return err(
        inputError(
          `${campaign.file}: gates[${campaign.config.gates.indexOf(given)}]`,
          `names model "${model}", which the campaign does not run`,
          `use one of ${[...all, 'every'].join(', ')}`,
        ),
      );
    }
    (selected.has(model) ? gates : dropped).push(selected.has(model) ? gate : given);
  }
  return ok({ gates, droppedGates: dropped });
}

/**
 * A gate's `engine` turned into the entry of the crossed axis it is judged
 * on (engine-axis.ts): with several engines, `engine: codex` is the entry
 * `codex` (one model) or, with `model: m`, `m-on-codex`; `every` (or none)
 * leaves the gate on every entry. With one engine an `engine` naming it is
 * that run's cells; naming an engine of the campaign file this run does not
 * run (`--engine`) drops the gate (null); naming none of its engines is a typo.
 * `engines-agree` (which names no engine) needs several engines: a run that
 * `--engine` cut to one drops it; a campaign file of one engine is refused.
 */
function gateOnEngine(
  gate: GateConfig,
  campaign: ResolvedCampaign,
  axis: ModelAxis,
): Result<GateConfig | null, InputError> {
  const where = `${campaign.file}: gates[${campaign.config.gates.indexOf(gate)}]`;
  const engine = gate.engine;
  const several = campaign.engines.length > 1;
  const named = new Set<string>([...(campaign.config.engines ?? [campaign.config.backend])]);
  if (gate.kind === 'engines-agree') {
    // It compares engines: a run of one (`--engine` chose it) cannot decide it; a file of one is a mistake.
    if (several) return ok(gate);
    if (named.size > 1) return ok(null);
    return err(
      inputError(
        where,
        'engines-agree compares engines, and the campaign runs one',
        'list two engines or more under "engines", or drop the gate',
      ),
    );
  }
  if (
    engine !== undefined &&
    engine !== 'every' &&
    !named.has(engine) &&
    !campaign.engines.includes(engine)
  ) {
    return err(
      inputError(
        where,
        `names engine "${engine}", which the campaign does not run`,
        `use one of ${[...named, 'every'].join(', ')}`,
      ),
    );
  }
  if (!several) {
    if (engine === undefined || engine === 'every' || campaign.engines.includes(engine))
      return ok(gate);
    return ok(null);
  }
  const models = axis.all.length / campaign.engines.length;
  const model = gate.model === undefined || gate.model === 'every' ? undefined : gate.model;
  if (models > 1 && (engine === undefined || engine === 'every') !== (model === undefined)) {
    return err(
      inputError(
        where,
        engine === undefined || engine === 'every'
          ? `names model "${model}" in a campaign of several engines and several models`
          : `names engine "${engine}" in a campaign of several models`,
        'name both a model and an engine (the cell of one model on one engine), or neither (every one)',
      ),
    );
  }
  if (engine === undefined || engine === 'every') return ok(gate);
  if (!campaign.engines.includes(engine)) return ok(null);
  return ok({ ...gate, model: engineEntryName(model ?? '', engine, models) });
}
