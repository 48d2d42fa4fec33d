import type { BackendName } from '../session/session-tool-table.js';
import type { CampaignModel, ModelAxis } from './model-axis.js';

/**
 * Engines as an axis: a campaign of several engines (`engines`, `--engine`)
 * runs every model on every engine, so the run's model axis is crossed with
 * the engines and each entry is one model on one engine. Everything the
 * model axis gives (rep ids and directories carrying the entry, the
 * schedule's interleaving, resume, shards and merge, per-entry tables, the
 * interaction, gates by entry) then covers the engine without a second
 * copy. An entry of one model on several engines is named by its engine
 * (`claude-code`, `codex`), so the per-model tables are per-engine tables;
 * with several models it is `<model>-on-<engine>`. A one-engine campaign's
 * axis is returned as it was: its rep ids and identity stay as they were.
 */
export function crossWithEngines(
  axis: ModelAxis,
  engines: readonly BackendName[],
  only: readonly string[] = [],
): ModelAxis {
  if (engines.length <= 1) return axis;
  const cross = (models: readonly CampaignModel[]): CampaignModel[] =>
    engines.flatMap((engine) =>
      models.map((model) => ({
        ...model,
        name: engineEntryName(model.name, engine, axis.all.length),
        engine,
      })),
    );
  const all = cross(axis.all);
  const models = cross(axis.models).filter(
    (model) => only.length === 0 || only.includes(model.name),
  );
  return { models, all, multi: true, fromFlags: axis.fromFlags };
}

/** An entry's name: the engine's with one model, `<model>-on-<engine>` with several. */
export function engineEntryName(model: string, engine: BackendName, modelCount: number): string {
  return modelCount <= 1 ? engine : `${model}-on-${engine}`;
}
