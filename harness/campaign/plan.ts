/**
 * The plan of a campaign run: every rep of every cell, in the order they are
 * dispatched. Reps are interleaved (rep 1 of every cell before rep 2 of any),
 * so drift in the model or the machine hits all arms alike.
 */
export interface PlannedRep {
  readonly arm: string;
  readonly scenario: string;
  /** 1-based rep number within its cell. */
  readonly rep: number;
  /** `<arm>/<scenario>-rep<N>`: the rep's id and its directory under reps/. */
  readonly id: string;
}

export function repId(arm: string, scenario: string, rep: number): string {
  return `${arm}/${scenario}-rep${rep}`;
}

export function planReps(
  arms: readonly string[],
  scenarios: readonly string[],
  reps: number,
): PlannedRep[] {
  const plan: PlannedRep[] = [];
  for (let rep = 1; rep <= reps; rep += 1) {
    for (const scenario of scenarios) {
      for (const arm of arms) plan.push({ arm, scenario, rep, id: repId(arm, scenario, rep) });
    }
  }
  return plan;
}

export interface Shard {
  /** 1-based shard index. */
  readonly index: number;
  readonly count: number;
}

/**
 * A deterministic 1/n slice of the plan. Within each rep, the cells (arms
 * fastest, so neighbours are RED and GREEN of one scenario) are cut into n
 * contiguous blocks, and the blocks rotate by one shard per rep: a shard holding
 * two or more cells of a rep holds both arms of a scenario, and over the reps
 * every shard sees every cell. No runner gets all of one arm, which would
 * confound the arm with the machine. The plan order depends only on the
 * campaign, so the same shard is always the same slice, and the slices are
 * disjoint and cover the plan.
 */
export function shardOf(plan: readonly PlannedRep[], shard: Shard): PlannedRep[] {
  const cells = new Map<string, number>();
  for (const rep of plan) {
    const cell = `${rep.arm}/${rep.scenario}`;
    if (!cells.has(cell)) cells.set(cell, cells.size);
  }
  const cellCount = cells.size;
  return plan.filter((rep) => {
    const cell = cells.get(`${rep.arm}/${rep.scenario}`) ?? 0;
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
