/**
 * `redgreen campaign lint <file>`: prove a campaign file before anything is
 * built or spent. It is loaded as a run would load it (the file against its
 * schema, every scenario folder and check, prompt template, fixture recipe
 * and layout, skill source and model), then its schedule is dry-run: the cells,
 * sessions, estimated cost and wall time, and what its gates can decide at
 * its reps. Bad input is an InputError (exit 2); a schedule whose gates cannot
 * all be decided, or that declares none, is a problem (exit 1); else it is
 * sound (exit 0).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InputError } from '../lib/input-error.js';
import { ok, type Result } from '../lib/result.js';
import { dryRunLines } from '../run/dry-run.js';
import { gatesOutOfReach } from '../run/gate-reach.js';
import { resolveRunRequest } from '../run/run-request.js';

export interface CampaignLint {
  readonly id: string;
  readonly file: string;
  /** The dry run of its schedule, as `run --dry-run` prints it. */
  readonly schedule: readonly string[];
  /** What would keep its gate from deciding the schedule: each a sentence. */
  readonly problems: readonly string[];
  readonly ok: boolean;
}

/** Load and dry-run a campaign file as `run` would, changing nothing on disk. */
export async function lintCampaign(
  file: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  now: Date,
): Promise<Result<CampaignLint, InputError>> {
  // `run` checks its output directory can be made; the lint makes none, so it names one that cannot clash.
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'redgreen-campaign-lint-'));
  try {
    const request = await resolveRunRequest(
      { campaign: file, out: path.join(scratch, 'out') },
      cwd,
      env,
      now,
    );
    if (!request.ok) return request;
    const { campaign } = request.value;
    const problems = [
      ...gatesOutOfReach(campaign),
      ...(campaign.gates.length === 0
        ? ['it declares no gates: a run of it checks nothing, and `redgreen gate` exits 2']
        : []),
    ];
    return ok({
      id: campaign.config.id,
      file: campaign.file,
      schedule: dryRunLines(request.value),
      problems,
      ok: problems.length === 0,
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** What `campaign lint` prints. */
export function formatCampaignLint(lint: CampaignLint): string {
  return `${[
    `campaign ${lint.id} (${lint.file}): valid; every scenario, check, prompt, fixture, skill source and model it names loads`,
    '',
    ...lint.schedule,
    ...(lint.problems.length === 0 ? [] : ['', ...lint.problems.map((line) => `problem: ${line}`)]),
    '',
    lint.ok
      ? `lint: ${lint.id} is sound`
      : `lint: ${lint.id} has ${lint.problems.length} problem(s): its gates cannot decide the schedule as written`,
  ].join('\n')}\n`;
}
