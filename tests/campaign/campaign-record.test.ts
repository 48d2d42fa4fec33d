/**
 * campaign.json's scenario records: the core's fields and the installed
 * packs' identity fields (Pack.score.identityFields), typed by that
 * registry; any other field is refused with one line naming it. A record a
 * run wrote reads back to the same bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  campaignRecordSchema,
  readCampaignRecord,
} from '../../harness/campaign/campaign-record.js';
import { registeredIdentityFields } from '../../harness/score/score-registry.js';
import { runCli } from '../helpers/cli.js';
import { sharedRun } from '../helpers/shared-runs.js';

async function recordedRun(): Promise<{ dir: string; file: string; text: string }> {
  // `run --reps 1 --no-report`, shared with other files (shared-runs.ts).
  const shared = await sharedRun(['--reps', '1', '--no-report']);
  expect(shared.run.exitCode, shared.run.stderr).toBe(0);
  const file = path.join(shared.out, 'campaign.json');
  return { dir: shared.out, file, text: readFileSync(file, 'utf8') };
}

function withFirstScenario(
  text: string,
  change: (scenario: Record<string, unknown>) => void,
): string {
  const record = JSON.parse(text) as { scenarios: Record<string, unknown>[] };
  const first = record.scenarios[0];
  if (first === undefined) throw new Error('no scenario recorded');
  change(first);
  return `${JSON.stringify(record, null, 2)}\n`;
}

describe("campaign.json's scenario records", () => {
  it("hold the installed packs' identity fields after the core's, and read back to the same bytes", async () => {
    const { text } = await recordedRun();
    expect(registeredIdentityFields()).toContain('plan');
    const parsed = campaignRecordSchema().parse(JSON.parse(text));
    expect(`${JSON.stringify(parsed, null, 2)}\n`).toBe(text);
    const first = (JSON.parse(text) as { scenarios: Record<string, unknown>[] }).scenarios[0];
    expect(Object.keys(first ?? {}).at(-1)).toBe('plan');
  });

  it('refuse a field no pack declares, in one line naming it (planted: the same record without it reads)', async () => {
    const { dir, file, text } = await recordedRun();
    expect((await readCampaignRecord(dir, dir)).ok).toBe(true);
    writeFileSync(
      file,
      withFirstScenario(text, (scenario) => Object.assign(scenario, { haunted: 'x' })),
    );
    const read = await readCampaignRecord(dir, dir);
    if (read.ok) throw new Error('the record with an unknown field was read');
    expect(read.error.problem).toMatch(
      /^is not a valid campaign record \(scenarios\.0: unknown field "haunted" \(a scenario record holds id, title, .*, plan\)\)$/,
    );
    expect(read.error.problem).not.toContain('\n');
    const report = await runCli(['report', dir]);
    expect(report.exitCode).not.toBe(0);
    expect(report.stderr.trim().split('\n')).toHaveLength(1);
    expect(report.stderr).toContain('unknown field "haunted"');
  });

  it("refuse a pack's identity field that is not a string", async () => {
    const { dir, file, text } = await recordedRun();
    writeFileSync(
      file,
      withFirstScenario(text, (scenario) => Object.assign(scenario, { plan: 3 })),
    );
    const read = await readCampaignRecord(dir, dir);
    if (read.ok) throw new Error('the record with a numeric plan was read');
    expect(read.error.problem).toContain('scenarios.0.plan:');
  });
});
