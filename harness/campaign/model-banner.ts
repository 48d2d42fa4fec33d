import { credentialVariables } from './endpoint-profile.js';
import type { ResolvedCampaign } from './load-campaign.js';
import type { CampaignModel, ModelAxis } from './model-axis.js';
import { displayBaseUrl } from './model-choice.js';

/** A live model as the banner names it: its id, and its endpoint when not the default. */
function liveText(model: CampaignModel): string {
  if (model.choice.kind !== 'live') return model.choice.id;
  const where =
    model.endpoint !== null && model.endpoint.provider !== 'anthropic'
      ? ` on ${model.endpoint.provider} (${model.endpoint.name})`
      : model.choice.baseUrl === undefined
        ? ''
        : ` at ${displayBaseUrl(model.choice.baseUrl)}`;
  return `${model.choice.id}${where}`;
}

/**
 * The line a run starts with, saying what each "model" is: a scripted
 * policy (offline, or asked for), or a live model at its endpoint. A
 * one-model campaign gets the line it always got.
 */
export function modelBannerLines(
  axis: ModelAxis,
  campaign: Pick<ResolvedCampaign, 'config'> & Partial<Pick<ResolvedCampaign, 'engines'>>,
): string[] {
  const { models } = axis;
  const only = models.length === 1 ? models[0] : undefined;
  if (only !== undefined && !axis.multi) {
    if (only.choice.kind === 'scripted') {
      if (only.choice.reason !== 'no-api-key')
        return [
          `redgreen: model ${only.choice.id} is a scripted policy on redgreen's local model server, not a real model.`,
        ];
      const key = credentialVariables(only.endpoint).join(', ');
      // The codex engine runs scripted models only: no key makes it run the campaign's model.
      if (campaign.engines?.every((engine) => engine === 'codex') === true) {
        return [
          `redgreen: this run is OFFLINE: the codex engine runs with model id ${only.choice.id}, a scripted policy on redgreen's local model server, not a real model (the codex backend runs scripted models only; setting ${key} does not change that).`,
        ];
      }
      return [
        `redgreen: no ${key} set, so this run is OFFLINE: the "model" is ${only.choice.id}, a scripted policy on redgreen's local model server, not a real model. Set ${key} to run ${only.standsInFor ?? campaign.config.model ?? 'the campaign model'}.`,
      ];
    }
    return [`redgreen: live run with ${liveText(only)}: real API calls, real cost.`];
  }
  const offline = models.filter(
    (model) => model.choice.kind === 'scripted' && model.choice.reason === 'no-api-key',
  );
  const named = models.map((model) =>
    model.choice.kind === 'live'
      ? `${model.name} = ${liveText(model)}`
      : `${model.name} = ${model.choice.id}${model.standsInFor === null ? '' : ` (standing in for ${model.standsInFor})`}`,
  );
  const live = models.some((model) => model.choice.kind === 'live');
  // `--only model=` runs some of the campaign's models: say how many of how many.
  const some = models.length < axis.all.length;
  if (offline.length > 0) {
    const keys = [...new Set(offline.flatMap((model) => credentialVariables(model.endpoint)))];
    const which = !some
      ? `each of its ${models.length} "models" is`
      : models.length === 1
        ? `the 1 of its ${axis.all.length} "models" this run runs (--only model=) is`
        : `each of the ${models.length} of its ${axis.all.length} "models" this run runs (--only model=) is`;
    return [
      `redgreen: no model key is set (${keys.join(', ')}), so this run is OFFLINE: ${which} a scripted policy on redgreen's local model server, not a real model: ${named.join('; ')}.`,
    ];
  }
  const count = some
    ? `${models.length} of its ${axis.all.length} models (--only model=)`
    : `${models.length} models`;
  return [
    `redgreen: ${live ? 'live ' : ''}run with ${count}: ${named.join('; ')}${live ? ': real API calls, real cost' : ' (scripted policies on redgreen’s local model server, not real models)'}.`,
  ];
}
