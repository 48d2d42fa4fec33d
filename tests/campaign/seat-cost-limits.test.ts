/**
 * The per-seat time and cost limits and the per-rep cost limit in the
 * campaign room: optional limits that change no identity while absent; bad
 * values refused when the campaign loads (one line, exit 2, nothing made);
 * a cost limit on a live model without a price refused before any session;
 * offline (scripted stand-ins, never priced) the cost limits do not apply,
 * and a start notice says so.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CampaignModel, ModelAxis } from '../../harness/campaign/model-axis.js';
import {
  checkCostLimitsPriced,
  costLimitsOfflineNote,
} from '../../harness/estimate/cost-limits.js';
import { formatInputError } from '../../harness/lib/input-error.js';
import { limitsSchema } from '../../harness/session/session-limits.js';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { repLines, runCampaignCli } from './support.js';

/** A copy of scenarios/ with the default campaign's limits replaced. */
function campaignWithLimits(limits: Record<string, unknown>): string {
  const dir = path.join(makeTempDir(), 'scenarios');
  cpSync(path.join(repoRoot, 'scenarios'), dir, { recursive: true });
  const file = path.join(dir, 'plan-scoped-workspace.campaign.json');
  const campaign = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  campaign.arms = (campaign.arms as { skill: string }[]).map((arm) => ({
    ...arm,
    skill: path.resolve(repoRoot, 'scenarios', arm.skill),
  }));
  campaign.limits = { ...(campaign.limits as object), ...limits };
  writeFileSync(file, JSON.stringify(campaign, null, 2));
  return file;
}

async function refused(args: readonly string[], env: Record<string, string> = {}) {
  const out = path.join(makeTempDir(), 'out');
  const run = await runCampaignCli([...args, '--out', out], env, 60_000);
  expect(run.exitCode, run.stderr).toBe(2);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(existsSync(out), 'nothing is created for bad input').toBe(false);
  return lines[0] ?? '';
}

function axisOf(models: readonly Partial<CampaignModel>[]): ModelAxis {
  const full = models.map(
    (model, index) =>
      ({
        name: `m${index}`,
        endpoint: null,
        standsInFor: null,
        source: `models[${index}]`,
        spec: `m${index}`,
        pricing: 'table',
        ...model,
      }) as CampaignModel,
  );
  return { models: full, all: full, multi: full.length > 1, fromFlags: false };
}

const live = (id: string) => ({ kind: 'live', id, baseUrl: undefined }) as never;
const scripted = { kind: 'scripted', id: 'scripted:literal', policy: 'literal' } as never;

describe('seat time and cost limits, and the rep cost limit, in a campaign', () => {
  it('are optional, with no default, and validated', () => {
    const parsed = limitsSchema.parse({});
    for (const field of ['seatTimeoutSeconds', 'seatMaxCostUsd', 'repMaxCostUsd']) {
      expect(parsed).not.toHaveProperty(field);
    }
    expect(
      limitsSchema.parse({ seatTimeoutSeconds: 300, seatMaxCostUsd: 0.5, repMaxCostUsd: 2 }),
    ).toMatchObject({ seatTimeoutSeconds: 300, seatMaxCostUsd: 0.5, repMaxCostUsd: 2 });
    for (const bad of [
      { seatTimeoutSeconds: 0 },
      { seatTimeoutSeconds: 7201 },
      { seatMaxCostUsd: 0 },
      { repMaxCostUsd: -1 },
      { repMaxCostUsd: '2' },
    ]) {
      expect(limitsSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('a bad value is refused when the campaign loads: one line naming the field', async () => {
    const line = await refused([campaignWithLimits({ seatTimeoutSeconds: 0 })]);
    expect(line).toMatch(/^redgreen: .*limits.*seatTimeoutSeconds/);
    const cost = await refused([campaignWithLimits({ seatMaxCostUsd: -0.5 })]);
    expect(cost).toMatch(/^redgreen: .*limits.*seatMaxCostUsd/);
  });

  it('a cost limit on a live model without a price is refused before any session', async () => {
    const line = await refused(
      [campaignWithLimits({ repMaxCostUsd: 1 }), '--model', 'claude-unpriced-1'],
      // A key makes the run live; nothing is ever sent to this address.
      { ANTHROPIC_API_KEY: 'sk-test-unpriced', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' },
    );
    expect(line).toMatch(
      /^redgreen: limits\.repMaxCostUsd: claude-unpriced-1 \(--model claude-unpriced-1\) is not in the price table, so this cost limit cannot be kept; give its endpoint profile a "pricing"/,
    );
  });

  it('checks each live model: priced passes, unpriced or absent from the table is refused', () => {
    const limits = limitsSchema.parse({ seatMaxCostUsd: 0.5 });
    expect(checkCostLimitsPriced(limits, axisOf([{ choice: live('claude-sonnet-5-5') }])).ok).toBe(
      true,
    );
    const unpriced = checkCostLimitsPriced(
      limits,
      axisOf([{ choice: live('claude-sonnet-5-5'), pricing: 'unpriced' }]),
    );
    expect(unpriced.ok ? '' : formatInputError(unpriced.error)).toMatch(
      /^limits\.seatMaxCostUsd: claude-sonnet-5-5 \(models\[0\]\) is unpriced/,
    );
    // An endpoint's own prices price any id.
    expect(
      checkCostLimitsPriced(
        limits,
        axisOf([{ choice: live('example-model-1'), pricing: { input: 1, output: 2 } }]),
      ).ok,
    ).toBe(true);
    // No cost limit: nothing to price.
    expect(
      checkCostLimitsPriced(
        limitsSchema.parse({}),
        axisOf([{ choice: live('x'), pricing: 'unpriced' }]),
      ).ok,
    ).toBe(true);
  });

  it('offline, a run with cost limits runs its reps as if they were not set (they cannot apply), and says so', async () => {
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([
      campaignWithLimits({ repMaxCostUsd: 0.01, seatMaxCostUsd: 0.01 }),
      '--only',
      'arm=green,scenario=s2',
      '--reps',
      '1',
      '--backend',
      'messages',
      '--out',
      out,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(`${run.stdout}${run.stderr}`).toContain(
      'limits.repMaxCostUsd and limits.seatMaxCostUsd do not apply offline: a scripted policy has no price',
    );
    // The rep is decided, never stopped at a cost limit it cannot price.
    const [line] = repLines(out);
    expect(line?.status).toBe('completed');
    expect(line?.verdict).toBe('pass');
  });

  it('offline, the cost limits do not apply, and a notice says so', () => {
    const limits = limitsSchema.parse({ repMaxCostUsd: 1 });
    expect(checkCostLimitsPriced(limits, axisOf([{ choice: scripted }])).ok).toBe(true);
    expect(costLimitsOfflineNote(limits, axisOf([{ choice: scripted }]))).toBe(
      'limits.repMaxCostUsd does not apply offline: a scripted policy has no price',
    );
    expect(costLimitsOfflineNote(limits, axisOf([{ choice: live('claude-sonnet-5-5') }]))).toBe(
      undefined,
    );
  });
});
