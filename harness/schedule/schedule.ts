/**
 * The schedule of a campaign run: every rep of every cell, in the order they are
 * dispatched. Reps are interleaved (rep 1 of every cell before rep 2 of any;
 * within a rep, scenario by scenario, model by model, the arms side by
 * side), so drift in a model, a provider outage or the machine hits all
 * arms alike.
 */
export interface ScheduledRep {
  readonly arm: string;
  readonly scenario: string;
  /** The model's name when the campaign compares several models, else null (its only model). */
  readonly model: string | null;
  /** 1-based rep number within its cell. */
  readonly rep: number;
  /**
   * The rep's id and its directory under reps/: `<arm>/<scenario>-rep<N>`,
   * or `<model>/<arm>/<scenario>-rep<N>` when the campaign has several models.
   */
  readonly id: string;
}

export function repId(
  arm: string,
  scenario: string,
  rep: number,
  model: string | null = null,
): string {
  return `${model === null ? '' : `${model}/`}${arm}/${scenario}-rep${rep}`;
}

/**
 * Every rep of arms × scenarios (× models) × reps. `models` is null for a
 * one-model campaign (rep ids as they always were), else the model names.
 */
export function scheduleReps(
  arms: readonly string[],
  scenarios: readonly string[],
  reps: number,
  models: readonly string[] | null = null,
): ScheduledRep[] {
  const schedule: ScheduledRep[] = [];
  for (let rep = 1; rep <= reps; rep += 1) {
    for (const scenario of scenarios) {
      for (const model of models ?? [null]) {
        for (const arm of arms) {
          schedule.push({ arm, scenario, model, rep, id: repId(arm, scenario, rep, model) });
        }
      }
    }
  }
  return schedule;
}

/** A rep's cell: arm × scenario (× model). */
export function cellOf(rep: Pick<ScheduledRep, 'arm' | 'scenario' | 'model'>): string {
  return `${rep.model === null ? '' : `${rep.model}/`}${rep.arm}/${rep.scenario}`;
}

export interface Shard {
  /** 1-based shard index. */
  readonly index: number;
  readonly count: number;
}

/**
 * A deterministic 1/n slice of the schedule. Within each rep, the cells (arms
 * fastest, so neighbours are RED and GREEN of one scenario; with several
 * models, cut only between scenario × model pairs when there are at least n
 * of them) are cut into n
 * contiguous blocks, and the blocks rotate by one shard per rep: a shard holding
 * two or more cells of a rep holds both arms of a scenario, and over the reps
 * every shard sees every cell. No runner gets all of one arm, which would
 * confound the arm with the machine. The schedule order depends only on the
 * campaign, so the same shard is always the same slice, and the slices are
 * disjoint and cover the schedule.
 */
export function shardOf(schedule: readonly ScheduledRep[], shard: Shard): ScheduledRep[] {
  // With several models, blocks are cut between scenario × model pairs (when there are
  // enough of them), so the arms of one scenario and model stay in one shard.
  const unitOf = (rep: ScheduledRep): string =>
    rep.model === null ? cellOf(rep) : `${rep.model}/${rep.scenario}`;
  const units = new Map<string, number>();
  for (const rep of schedule) {
    const unit = unitOf(rep);
    if (!units.has(unit)) units.set(unit, units.size);
  }
  const byUnit = units.size >= shard.count;
  const cells = new Map<string, number>();
  for (const rep of schedule) {
    const cell = byUnit ? unitOf(rep) : cellOf(rep);
    if (!cells.has(cell)) cells.set(cell, cells.size);
  }
  const cellCount = cells.size;
  return schedule.filter((rep) => {
    const cell = cells.get(byUnit ? unitOf(rep) : cellOf(rep)) ?? 0;
    const block = Math.floor((cell * shard.count) / cellCount);
    return (block + rep.rep - 1) % shard.count === shard.index - 1;
  });
}

export function parseShard(text: string): Shard | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (match === null) return undefined;
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || index < 1 || index > count) return undefined;
  return { index, count };
}

/**
 * The schedule of a resolved run: its arms × scenarios (× models) × reps; rep
 * ids carry the model only when the campaign has several.
 */
export function scheduleRun(
  campaign: {
    readonly arms: readonly { readonly name: string }[];
    readonly scenarios: readonly { readonly id: string }[];
    readonly reps: number;
  },
  models: {
    readonly models: readonly { readonly name: string }[];
    readonly multi: boolean;
  },
): ScheduledRep[] {
  return scheduleReps(
    campaign.arms.map((arm) => arm.name),
    campaign.scenarios.map((scenario) => scenario.id),
    campaign.reps,
    models.multi ? models.models.map((model) => model.name) : null,
  );
}
