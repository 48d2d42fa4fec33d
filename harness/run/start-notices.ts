import path from 'node:path';
import type { ResolvedCampaign } from '../campaign/load-campaign.js';
import type { ModelAxis } from '../campaign/model-axis.js';
import { describeGate } from '../campaign/only.js';
import { isPriced } from '../estimate/model-pricing.js';
import type { PendingRep } from '../results/rep-health.js';
import { gatesOutOfReach } from './gate-reach.js';
import type { PreparedRun } from './prepare-run.js';

/** Claude Code's messaging socket: `<runtime dir>/cc-socks/<pid>.sock`, at most 103 bytes. */
const SOCKET_PATH_MAX_BYTES = 103;

/**
 * What a run tells the user before its first rep: what it cleaned up or
 * repairs, what it keeps, what the campaign will not check, and what this
 * machine cannot do as asked. Pure: every fact comes in as an argument.
 */
export function startNotices(facts: {
  readonly campaign: ResolvedCampaign;
  readonly models: ModelAxis;
  readonly run: Pick<
    PreparedRun,
    'workRoot' | 'staleRemoved' | 'unownedWorkRoots' | 'extendedFrom' | 'adopted'
  >;
  readonly pending: readonly PendingRep[];
  readonly keepWorkDirs: boolean;
}): string[] {
  const { campaign, models, run } = facts;
  const notes: string[] = [];
  const socketPath = path.join(run.workRoot, 'sXXXXXX', 'cc-socks', '4194304.sock');
  if (campaign.backend === 'claude-code' && Buffer.byteLength(socketPath) > SOCKET_PATH_MAX_BYTES) {
    notes.push(
      `TMPDIR is too long for the engine's messaging socket (${Buffer.byteLength(socketPath)} > ${SOCKET_PATH_MAX_BYTES} bytes): the engine falls back to /tmp/cc-socks-<uid>, outside the work dir; set a shorter TMPDIR`,
    );
  }
  if (facts.keepWorkDirs) {
    notes.push(
      `work dirs kept in ${run.workRoot} (one per rep: its fixture copy, skill copy, HOME and TMPDIR); remove it when done. Each repository's config and hooks, as the session left them, are set aside (.git/config.from-session, .git/hooks.from-session, and in any repository the session made inside) so git run there runs nothing a session planted`,
    );
  }
  if (campaign.droppedGates.length > 0) {
    notes.push(
      `--only leaves out ${campaign.droppedGates.length} gate(s) about cells it does not run: ${campaign.droppedGates.map(describeGate).join('; ')}`,
    );
  }
  notes.push(...gatesOutOfReach(campaign));
  if (campaign.gates.length === 0) {
    notes.push(
      'the campaign declares no gates: nothing will be checked, and `redgreen gate` exits 2 unless given --allow-no-gates',
    );
  }
  if (run.unownedWorkRoots.length > 0) {
    notes.push(
      `left ${run.unownedWorkRoots.length} work dir(s) with no owner file in ${path.dirname(run.workRoot)} (from an older redgreen, or a run killed as it started; younger than a day, or in use): once no redgreen works in them, remove them with: rm -rf ${run.unownedWorkRoots.join(' ')}`,
    );
  }
  if (run.staleRemoved > 0) {
    notes.push(
      `removed ${run.staleRemoved} stale work dir(s) of killed runs from ${path.dirname(run.workRoot)}`,
    );
  }
  if (run.extendedFrom !== null) {
    notes.push(
      `extending the schedule from ${run.extendedFrom} to ${campaign.reps} reps per cell (--reps ${campaign.reps})`,
    );
  }
  const damaged = facts.pending.filter((item) => item.damage !== undefined);
  if (damaged.length > 0) {
    notes.push(
      `rerunning ${damaged.length} rep(s) whose files are damaged, as a new attempt (the damaged attempt's directory is kept): ${damaged
        .map((item) => `${item.rep.id} (${item.damage?.problem})`)
        .join(', ')}`,
    );
  }
  if (run.adopted > 0) {
    notes.push(`recorded ${run.adopted} rep(s) a crash had landed without their ledger.jsonl line`);
  }
  const maxCost = campaign.limits.maxCostUsd;
  for (const { choice, pricing } of models.models) {
    if (maxCost === null || choice.kind !== 'live' || isPriced(pricing, choice.id)) continue;
    const why = pricing === 'unpriced' ? 'is unpriced' : 'is not in the price table';
    notes.push(
      campaign.backend === 'claude-code'
        ? `${choice.id} ${why}; --max-cost counts the engine's own cost estimate`
        : `${choice.id} ${why} and this backend gives no cost estimate: --max-cost cannot stop this run`,
    );
  }
  return notes;
}
