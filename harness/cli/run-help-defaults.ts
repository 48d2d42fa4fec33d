import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type CampaignConfig, campaignSchema } from '../campaign/config-schema.js';
import { defaultCampaignFile } from '../campaign/load-campaign.js';
import { packageRoot } from '../lib/package-root.js';

/**
 * The effective defaults `redgreen run --help` shows: a flag left off takes
 * the campaign's value, so the help names the setting and what the default
 * campaign file sets it to. Only for help text: when the file cannot be read
 * or validated, the help says "the campaign's" without a figure.
 */
/** The default campaign file, relative to redgreen's own folder, as the help names it. */
export function defaultCampaignName(): string {
  const file = defaultCampaignFile();
  return file === undefined
    ? 'none: no installed pack names one'
    : path.relative(packageRoot(), file);
}

function readDefaultCampaign(): CampaignConfig | undefined {
  const file = defaultCampaignFile();
  if (file === undefined) return undefined;
  try {
    const parsed = campaignSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export interface RunHelpDefaults {
  readonly reps: string;
  readonly concurrency: string;
  readonly model: string;
  readonly backend: string;
  readonly engines: string;
  readonly maxCost: string;
  readonly maxTurns: string;
  readonly sessionTimeout: string;
  readonly seed: string;
}

export function runHelpDefaults(): RunHelpDefaults {
  const campaign = readDefaultCampaign();
  const from = (setting: string, value: string | undefined): string =>
    value === undefined
      ? `(default: the campaign's ${setting})`
      : `(default: the campaign's ${setting}; ${value} in the default campaign)`;
  const cost = campaign?.limits.maxCostUsd;
  return {
    reps: from('reps', campaign && String(campaign.reps)),
    concurrency: from('concurrency', campaign && String(campaign.concurrency)),
    model: from(
      'models: live with a key set, else each offline stand-in',
      campaign &&
        `${campaign.model ?? campaign.models?.map((model) => model.id).join(', ')} or ${campaign.offlineModel ?? 'their stand-ins'}`,
    ),
    backend: from('backend', campaign?.backend),
    engines: from(
      'engines, else its backend',
      campaign && (campaign.engines ?? [campaign.backend]).join(', '),
    ),
    maxCost: from(
      'limits.maxCostUsd, none when unset',
      campaign && (cost === null || cost === undefined ? 'none' : `$${cost}`),
    ),
    maxTurns: from('limit', campaign && String(campaign.limits.maxTurns)),
    sessionTimeout: from('limit', campaign && `${campaign.limits.sessionTimeoutSeconds} s`),
    seed: from('seed', campaign && String(campaign.seed)),
  };
}
