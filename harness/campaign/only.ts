import { z } from 'zod';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import type { GateConfig } from './config-schema.js';

/**
 * `run --only scenario=<id>,arm=<name>,model=<name>`: the subset of a
 * campaign's cells a run covers. Each `--only` gives keys `scenario`, `arm`
 * and `model` (each may repeat); the run covers the selected arms crossed
 * with the selected scenarios (and models), all of a kind when none of it
 * is named. The subset is part of the campaign identity and of the recorded
 * invocation.
 */
export const onlySelectionSchema = z
  .object({
    arms: z.array(z.string()),
    scenarios: z.array(z.string()),
    /** Absent when no model is named (so identities from before models stay as they were). */
    models: z.array(z.string()).optional(),
  })
  .strict();
export type OnlySelection = z.infer<typeof onlySelectionSchema>;

const FORMAT =
  'write it as --only scenario=<id>,arm=<name>,model=<name> (any key may be left out or repeated)';

/**
 * Parse the `--only` flags; none gives null (the whole campaign). Several
 * flags merge into one selection, arms crossed with scenarios (and models);
 * flags whose cells that merge would not be (`scenario=s1,arm=red` and
 * `scenario=s2,arm=green` would run all four cells) are refused, never
 * silently widened or narrowed.
 */
export function parseOnly(specs: readonly string[]): Result<OnlySelection | null, InputError> {
  if (specs.length === 0) return ok(null);
  const flags: FlagKeys[] = [];
  for (const spec of specs) {
    const flag = { arm: new Set<string>(), scenario: new Set<string>(), model: new Set<string>() };
    for (const part of spec.split(',')) {
      const match = /^(scenario|arm|model)=([a-z0-9][a-z0-9-]*)$/.exec(part.trim());
      if (match === null) {
        return err(
          inputError(
            `--only ${spec}`,
            `"${part}" is not scenario=<id>, arm=<name> or model=<name>`,
            FORMAT,
          ),
        );
      }
      const key = match[1] as OnlyKey;
      flag[key].add(match[2] ?? '');
    }
    flags.push({
      arm: [...flag.arm].sort(),
      scenario: [...flag.scenario].sort(),
      model: [...flag.model].sort(),
    });
  }
  const merged: FlagKeys = {
    arm: [...new Set(flags.flatMap((flag) => flag.arm))].sort(),
    scenario: [...new Set(flags.flatMap((flag) => flag.scenario))].sort(),
    model: [...new Set(flags.flatMap((flag) => flag.model))].sort(),
  };
  if (!sameCells(flags, merged)) {
    const every = (key: OnlyKey): string => merged[key].join(', ') || `every ${key}`;
    return err(
      inputError(
        specs.map((spec) => `--only ${spec}`).join(' '),
        `a run covers the named arms crossed with the named scenarios${merged.model.length > 0 ? ' and models' : ''} (${every('arm')} x ${every('scenario')}${merged.model.length > 0 ? ` x ${every('model')}` : ''}), which is not the cells these flags name one by one`,
        'give one --only naming the arms, scenarios and models of the cells you want, or run the other cells into a directory of their own',
      ),
    );
  }
  return ok({
    arms: merged.arm,
    scenarios: merged.scenario,
    ...(merged.model.length === 0 ? {} : { models: merged.model }),
  });
}

type OnlyKey = 'arm' | 'scenario' | 'model';
type FlagKeys = Record<OnlyKey, string[]>;
const KEYS: readonly OnlyKey[] = ['arm', 'scenario', 'model'];

/**
 * Whether the flags, one by one, name exactly the cells of the merged
 * selection. Every flag must name the same keys (a key left out means all of
 * it, which the merge would narrow); the cells over the named keys are then
 * compared one by one.
 */
function sameCells(flags: readonly FlagKeys[], merged: FlagKeys): boolean {
  const keys = (flag: FlagKeys): string => KEYS.filter((key) => flag[key].length > 0).join('/');
  const first = flags[0];
  if (first === undefined || flags.some((flag) => keys(flag) !== keys(first))) return false;
  const named = KEYS.filter((key) => first[key].length > 0);
  const cellsOf = (flag: FlagKeys): string[] =>
    named.reduce<string[]>(
      (cells, key) => cells.flatMap((cell) => flag[key].map((name) => `${cell}/${name}`)),
      [''],
    );
  const cells = new Set(flags.flatMap(cellsOf));
  return cells.size === named.reduce((count, key) => count * merged[key].length, 1);
}

/** Check the named arms and scenarios against the campaign's. */
export function checkOnly(
  only: OnlySelection,
  campaign: { readonly arms: readonly string[]; readonly scenarios: readonly string[] },
): Result<void, InputError> {
  for (const [kind, names, known] of [
    ['arm', only.arms, campaign.arms],
    ['scenario', only.scenarios, campaign.scenarios],
  ] as const) {
    for (const name of names) {
      if (!known.includes(name)) {
        return err(
          inputError(
            `--only ${kind}=${name}`,
            `the campaign has no ${kind} "${name}"`,
            `use one of ${known.join(', ')}`,
          ),
        );
      }
    }
  }
  return ok(undefined);
}

/** Whether a name is selected: every name when the selection names none of its kind. */
export function selected(names: readonly string[], name: string): boolean {
  return names.length === 0 || names.includes(name);
}

/**
 * The gates a subset can still decide: those whose arm and scenario it runs,
 * and comparisons only when both a red and a green arm remain. A gate over
 * every scenario (`no-scenario-regresses` without `scenarios`) reads the
 * campaign's scenarios, so a subset that names no scenario keeps it.
 */
export function gatesFor(
  gates: readonly GateConfig[],
  only: OnlySelection,
  roles: ReadonlyMap<string, 'red' | 'green'>,
  campaignScenarios: readonly string[],
): { kept: GateConfig[]; dropped: GateConfig[] } {
  const keptRoles = new Set(
    [...roles].filter(([arm]) => selected(only.arms, arm)).map(([, role]) => role),
  );
  const kept: GateConfig[] = [];
  const dropped: GateConfig[] = [];
  for (const gate of gates) {
    if (gate.kind === 'metric-cap') {
      // A cap holds per rep: it applies to whatever of its cells the subset runs.
      const runs =
        (gate.arm === undefined || selected(only.arms, gate.arm)) &&
        (gate.scenario === undefined || selected(only.scenarios, gate.scenario));
      (runs ? kept : dropped).push(gate);
      continue;
    }
    const applies =
      gate.kind === 'max-indeterminate-share'
        ? true
        : gate.kind === 'max-disagreement-share'
          ? gate.scenario === undefined || selected(only.scenarios, gate.scenario)
          : gate.kind === 'min-pass-rate'
            ? selected(only.arms, gate.arm) && selected(only.scenarios, gate.scenario)
            : gate.kind === 'engines-agree'
              ? (gate.scenarios ?? campaignScenarios).some((id) => selected(only.scenarios, id)) &&
                (gate.arms ?? [...roles.keys()]).some((arm) => selected(only.arms, arm))
              : (gate.kind === 'no-scenario-regresses'
                  ? (gate.scenarios ?? campaignScenarios).some((id) => selected(only.scenarios, id))
                  : gate.kind === 'trigger-recall-no-regression' ||
                      gate.kind === 'trigger-precision-no-regression'
                    ? [...gate.positives, ...gate.negatives].some((id) =>
                        selected(only.scenarios, id),
                      )
                    : selected(only.scenarios, gate.scenario)) &&
                keptRoles.has('red') &&
                keptRoles.has('green');
    (applies ? kept : dropped).push(gate);
  }
  return { kept, dropped };
}

/** A gate in a few words, for the note listing gates a subset leaves out. */
export function describeGate(gate: GateConfig): string {
  const on =
    gate.model === undefined ? '' : ` on ${gate.model === 'every' ? 'every model' : gate.model}`;
  switch (gate.kind) {
    case 'min-pass-rate':
      return `${gate.arm}/${gate.scenario} at least ${gate.passes}/${gate.of}${on}`;
    case 'green-better':
      return `${gate.scenario}: green better than red${on}`;
    case 'no-regression':
      return `${gate.scenario}: no regression${on}`;
    case 'no-scenario-regresses':
      return `no scenario regresses (${gate.correction})${on}`;
    case 'max-indeterminate-share':
      return `indeterminate share at most ${gate.share}${on}`;
    case 'max-disagreement-share':
      return `${gate.scenario === undefined ? '' : `${gate.scenario}: `}judge/checks disagreement share at most ${gate.share}`;
    case 'trigger-recall-no-regression':
      return `trigger recall: no regression${on}`;
    case 'trigger-precision-no-regression':
      return `trigger precision: no regression${on}`;
    case 'metric-ratio':
      return `${gate.scenario}: ${gate.metric} ratio at most ${gate.ratio}${on}`;
    case 'metric-cap':
      return `${gate.metric} at most ${gate.max}${gate.arm === undefined ? '' : ` in ${gate.arm}`}${gate.scenario === undefined ? '' : ` on ${gate.scenario}`}${on}`;
    case 'engines-agree':
      return `the engines agree${gate.maxGapPts > 0 ? ` within ${gate.maxGapPts} pts` : ''} (${gate.correction})`;
  }
}
