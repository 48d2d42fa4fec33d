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

/** Parse the `--only` flags; none gives null (the whole campaign). */
export function parseOnly(specs: readonly string[]): Result<OnlySelection | null, InputError> {
  if (specs.length === 0) return ok(null);
  const arms = new Set<string>();
  const scenarios = new Set<string>();
  const models = new Set<string>();
  for (const spec of specs) {
    const parts = spec.split(',');
    for (const part of parts) {
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
      (match[1] === 'arm' ? arms : match[1] === 'model' ? models : scenarios).add(match[2] ?? '');
    }
  }
  return ok({
    arms: [...arms].sort(),
    scenarios: [...scenarios].sort(),
    ...(models.size === 0 ? {} : { models: [...models].sort() }),
  });
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
    const applies =
      gate.kind === 'max-indeterminate-share'
        ? true
        : gate.kind === 'max-disagreement-share'
          ? gate.scenario === undefined || selected(only.scenarios, gate.scenario)
          : gate.kind === 'min-pass-rate'
            ? selected(only.arms, gate.arm) && selected(only.scenarios, gate.scenario)
            : (gate.kind === 'no-scenario-regresses'
                ? (gate.scenarios ?? campaignScenarios).some((id) => selected(only.scenarios, id))
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
  }
}
