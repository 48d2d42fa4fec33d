/**
 * `redgreen run --record`: beside its results, a run writes
 * `replay.campaign.json`, the same campaign whose brain is the run itself:
 * each rep is answered by the session recorded for it (`replay: "."`, the
 * model `scripted:replay`), on the arms' texts as the run copied them
 * (`skills/<arm>/`), the same scenarios (by path from the results directory),
 * reps, backend, seed, limits and gates (only the arms and scenarios the run
 * ran, under `--only`). Running it offline reproduces every
 * rep whose session still fits its recording, and makes indeterminate, with
 * the turn named, every rep whose session no longer does: a live run's
 * sessions become a regression test of the scorer that costs nothing.
 *
 * Written when the run starts (its reps land afterwards), atomically.
 */
import path from 'node:path';
import { type CampaignConfig, campaignSchema, REPLAY_MODEL } from '../campaign/config-schema.js';
import type { ResolvedCampaign } from '../campaign/load-campaign.js';
import type { ModelAxis } from '../campaign/model-axis.js';
import { writeFileAtomic } from '../lib/atomic-write.js';
import type { ResultsLayout } from '../results/results-layout.js';

export const REPLAY_CAMPAIGN_FILE = 'replay.campaign.json';

export function replayCampaignOf(
  campaign: ResolvedCampaign,
  models: ModelAxis,
  layout: ResultsLayout,
): CampaignConfig {
  const relative = (dir: string): string => {
    const to = path.relative(layout.root, dir).split(path.sep).join('/');
    return to.startsWith('.') ? to : `./${to}`;
  };
  const { config } = campaign;
  return campaignSchema.parse({
    id: `${config.id}-replay`.slice(0, 64),
    title: `Replay of ${config.title}`,
    description: `Each rep answered by the session recorded for it in this results directory (redgreen run --record). A rep whose session no longer fits its recording is indeterminate: replay diverged at turn N.`,
    arms: campaign.arms.map((arm) => ({
      name: arm.name,
      role: arm.role,
      label: arm.label,
      layout: arm.layout,
      ...(arm.library === undefined
        ? { skill: relative(layout.skillDir(arm.name)) }
        : {
            library: {
              source: relative(layout.skillDir(arm.name)),
              ...(arm.library.name === undefined ? {} : { name: arm.library.name }),
            },
          }),
    })),
    scenarios: campaign.scenarios.map((scenario) => relative(scenario.compiled.dir)),
    reps: campaign.reps,
    ...(models.multi
      ? { models: models.all.map((model) => ({ id: REPLAY_MODEL, name: model.name })) }
      : { model: REPLAY_MODEL, offlineModel: REPLAY_MODEL }),
    backend: campaign.backend,
    concurrency: campaign.concurrency,
    seed: campaign.seed,
    limits: campaign.limits,
    gates: campaign.gates,
    replay: '.',
  });
}

export async function writeReplayCampaign(
  campaign: ResolvedCampaign,
  models: ModelAxis,
  layout: ResultsLayout,
): Promise<string> {
  const file = path.join(layout.root, REPLAY_CAMPAIGN_FILE);
  await writeFileAtomic(
    file,
    `${JSON.stringify(replayCampaignOf(campaign, models, layout), null, 2)}\n`,
  );
  return file;
}
