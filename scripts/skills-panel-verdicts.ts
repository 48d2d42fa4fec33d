/**
 * The skills panel's calibration read as expected verdicts per campaign arm:
 * each scenario under `scenarios/skills-panel/` calibrates the panel's data
 * brain (`scripted:skills-panel`) on the workbench library as released (RED:
 * no overrides) and with the branch texts (GREEN: every skill the campaign's
 * GREEN arm overrides, from `workbench-v2/`); a mustPass entry expects
 * `pass`, a mustFail entry `fail`. The panel's test and its bench compare a
 * run's verdicts with these. `superpowers-verdicts.json` beside the scenarios
 * holds the verdicts measured with obra/superpowers at two refs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const overridesSchema = z.record(z.string(), z.string()).optional();
const entrySchema = z.object({ policy: z.string(), overrides: overridesSchema }).passthrough();
const scenarioSchema = z
  .object({
    id: z.string(),
    calibration: z.object({ mustPass: z.array(entrySchema), mustFail: z.array(entrySchema) }),
  })
  .passthrough();
const campaignSchema = z
  .object({
    scenarios: z.array(z.string()),
    offlineModel: z.string(),
    arms: z.array(
      z.object({
        name: z.string(),
        library: z.object({ overrides: overridesSchema }).passthrough(),
      }),
    ),
  })
  .passthrough();

export const SKILLS_PANEL_CAMPAIGN = 'scenarios/skills-panel.campaign.json';

/** Which campaign arm a calibration entry runs as: the same skills overridden, from folders of the same name. */
function armOf(
  overrides: Readonly<Record<string, string>> | undefined,
  arms: readonly { name: string; overrides: Readonly<Record<string, string>> }[],
): string | undefined {
  const given = overrides ?? {};
  return arms.find((arm) => {
    const names = Object.keys(arm.overrides).sort();
    return (
      names.join(',') === Object.keys(given).sort().join(',') &&
      names.every((name) => {
        const a = arm.overrides[name] ?? '';
        const b = given[name] ?? '';
        return path.basename(path.dirname(a)) === path.basename(path.dirname(b));
      })
    );
  })?.name;
}

/** `<arm>/<scenario>-rep<n>` → the verdict the scenario's calibration expects, for reps 1..reps. */
export function expectedPanelVerdicts(
  repoRoot: string,
  options: { readonly scenarios?: readonly string[]; readonly reps?: number } = {},
): Record<string, 'pass' | 'fail'> {
  const campaign = campaignSchema.parse(
    JSON.parse(readFileSync(path.join(repoRoot, SKILLS_PANEL_CAMPAIGN), 'utf8')),
  );
  const policy = campaign.offlineModel.replace(/^scripted:/, '');
  const arms = campaign.arms.map((arm) => ({
    name: arm.name,
    overrides: arm.library.overrides ?? {},
  }));
  const expected: Record<string, 'pass' | 'fail'> = {};
  for (const entry of campaign.scenarios) {
    const dir = path.join(repoRoot, 'scenarios', entry);
    const scenario = scenarioSchema.parse(
      JSON.parse(readFileSync(path.join(dir, 'scenario.json'), 'utf8')),
    );
    if (options.scenarios !== undefined && !options.scenarios.includes(scenario.id)) continue;
    for (const [verdict, list] of [
      ['pass', scenario.calibration.mustPass],
      ['fail', scenario.calibration.mustFail],
    ] as const) {
      for (const run of list) {
        if (run.policy !== policy) continue;
        const arm = armOf(run.overrides, arms);
        if (arm === undefined) continue;
        for (let rep = 1; rep <= (options.reps ?? 1); rep += 1) {
          expected[`${arm}/${scenario.id}-rep${rep}`] = verdict;
        }
      }
    }
  }
  return expected;
}
