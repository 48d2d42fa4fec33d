import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { copyFixture, type FixtureFingerprint, takeSnapshot } from '../fixture/index.js';
import { harnessVersion } from '../lib/package-root.js';
import { formatReplyFile } from '../score/reply-file.js';
import type { RepScore } from '../score/score-rep.js';
import { readTranscript } from '../score/transcript-reader.js';
import type { ModelEndpoint, SessionBackend, SessionOutcome } from '../session/session-types.js';
import { TranscriptSink } from '../session/transcript-sink.js';
import { appendRepLine, type LedgerRepLine } from './ledger.js';
import type { ResolvedCampaign } from './load-campaign.js';
import type { PlannedRep } from './plan.js';
import { costUsd, pricingTable } from './pricing.js';
import type { RepMeta } from './rep-meta.js';
import { REP_FILES, type ResultsLayout } from './results-layout.js';
import { scoreRepDirectory } from './score-rep-dir.js';

/** A built fixture variant, copied once per rep. */
export interface PreparedVariant {
  readonly dir: string;
  readonly fingerprint: FixtureFingerprint;
}

/** An arm's skill text, materialised read-only inside the results directory. */
export interface PreparedSkill {
  readonly dir: string;
  readonly tree: string;
  /** The directory name sessions see (the skill's own name, the same for every arm). */
  readonly neutralName: string;
}

/** Everything shared by the reps of one run. */
export interface RunContext {
  readonly campaign: ResolvedCampaign;
  readonly layout: ResultsLayout;
  readonly backend: SessionBackend;
  readonly model: ModelEndpoint;
  readonly variants: ReadonlyMap<string, PreparedVariant>;
  readonly skills: ReadonlyMap<string, PreparedSkill>;
  /** A temp directory outside the results, for the reps' private work dirs. */
  readonly workRoot: string;
  readonly sandboxDescription: string;
  readonly keepWorkDirs: boolean;
}

export function variantKey(scenario: string, layout: string): string {
  return `${scenario}:${layout}`;
}

export interface RepResult {
  readonly line: LedgerRepLine;
  readonly score: RepScore;
  readonly meta: RepMeta;
}

const MAX_ENGINE_LOG_BYTES = 256 * 1024;

/** How redgreen's local model server labels the usage it reports: estimated, not measured. */
const ESTIMATED_USAGE_MARK = /"redgreen":\{[^}]*"usage":"estimated"/;

/**
 * Run one rep end to end and land it on disk: copy the fixture and the skill
 * into a private work dir, snapshot, run the session, snapshot again, write
 * reply/transcript/meta/snapshots into a partial directory, score it from
 * those files, rename the directory into place, then append the ledger line.
 * A crash at any point leaves either nothing or a `.partial-*` directory that
 * no reader trusts; the rep is in the ledger only once its directory is whole.
 */
export async function runRep(
  context: RunContext,
  planned: PlannedRep,
  attempt: number,
  signal: AbortSignal,
): Promise<RepResult | { readonly dropped: string }> {
  const { campaign, layout } = context;
  const arm = campaign.arms.find((candidate) => candidate.name === planned.arm);
  const scenario = campaign.scenarios.find((candidate) => candidate.id === planned.scenario);
  if (arm === undefined || scenario === undefined)
    throw new Error(`rep ${planned.id} is not in the campaign`);
  const variant = context.variants.get(variantKey(scenario.config.fixture.scenario, arm.layout));
  const skill = context.skills.get(arm.name);
  if (variant === undefined || skill === undefined)
    throw new Error(`rep ${planned.id} has no prepared fixture or skill`);

  const repStarted = performance.now();
  const finalDir = layout.repDir(arm.name, scenario.id, planned.rep);
  const partialDir = `${finalDir}.partial-${process.pid}-${attempt}`;
  await rm(partialDir, { recursive: true, force: true });
  await mkdir(partialDir, { recursive: true });

  const privateDir = path.join(
    context.workRoot,
    `${planned.arm}-${planned.scenario}-${planned.rep}-${attempt}`,
  );
  await rm(privateDir, { recursive: true, force: true });
  await mkdir(privateDir, { recursive: true });
  try {
    const repo = path.join(privateDir, 'repo');
    const copied = await copyFixture(variant.dir, repo);
    if (!copied.ok) throw new Error(`copying the fixture failed: ${copied.error.problem}`);
    const skillDir = path.join(privateDir, 'skills', skill.neutralName);
    await copySkill(skill.dir, skillDir);

    const prompt = scenario.prompt.render({
      skillDir,
      fixtureRepo: repo,
      planPath: scenario.config.plan,
    });
    await writeFile(path.join(partialDir, REP_FILES.prompt), prompt);
    const before = await takeSnapshot(repo);
    await writeFile(
      path.join(partialDir, REP_FILES.snapshotBefore),
      `${JSON.stringify(before, null, 2)}\n`,
    );

    const transcript = new TranscriptSink(path.join(partialDir, REP_FILES.transcript), [
      context.model.apiKey,
    ]);
    const engineLog = new EngineLog();
    const started = performance.now();
    const prepareMs = started - repStarted;
    let outcome: SessionOutcome;
    try {
      outcome = await context.backend.run({
        repId: planned.id,
        prompt,
        fixtureRepo: repo,
        skillDir,
        privateDir: path.join(privateDir, 'private'),
        model: context.model,
        limits: campaign.limits,
        transcript,
        engineLog: engineLog.append,
        signal,
      });
    } finally {
      await transcript.close();
    }
    const finished = performance.now();
    const durationMs = finished - started;
    await writeFile(path.join(partialDir, REP_FILES.engineLog), engineLog.text());
    if (outcome.status.kind === 'indeterminate' && outcome.status.stage === 'aborted') {
      return { dropped: 'aborted by the user' };
    }

    const after = await takeSnapshot(repo);
    await writeFile(
      path.join(partialDir, REP_FILES.snapshotAfter),
      `${JSON.stringify(after, null, 2)}\n`,
    );
    const transcriptText = await readFile(transcript.path, 'utf8');
    const read = readTranscript(transcriptText);
    await writeFile(
      path.join(partialDir, REP_FILES.reply),
      formatReplyFile(read.counts.toolUses, outcome.finalReply ?? ''),
    );

    const byName: Record<string, number> = {};
    for (const call of read.toolCalls) {
      if (call.parentToolUseId === null || call.parentToolUseId === undefined) {
        byName[call.name] = (byName[call.name] ?? 0) + 1;
      }
    }
    const status =
      outcome.status.kind === 'completed' && (outcome.finalReply ?? '').trim() === ''
        ? ({
            kind: 'indeterminate',
            stage: 'reply',
            reason: 'the session ended without a final reply',
          } as const)
        : outcome.status;
    const meta: RepMeta = {
      id: planned.id,
      arm: arm.name,
      scenario: scenario.id,
      rep: planned.rep,
      attempt,
      status,
      toolUses: read.counts.toolUses,
      subagentToolUses: read.counts.subagentToolUses,
      subagentDispatches: read.counts.subagentDispatches,
      toolCallsByName: byName,
      turns: outcome.turns,
      tokens: outcome.usage,
      tokensEstimated: context.model.scripted || ESTIMATED_USAGE_MARK.test(transcriptText),
      costUsd: context.model.scripted ? null : costUsd(context.model.id, outcome.usage),
      pricingAsOf: pricingTable().asOf,
      engineCostEstimateUsd: context.model.scripted ? null : outcome.engineCostEstimateUsd,
      durationMs: Math.round(durationMs),
      harnessOverheadMs: Math.round(prepareMs + (performance.now() - finished)),
      model: {
        requested: context.model.id,
        reported: outcome.modelReported,
        scripted: context.model.scripted,
      },
      backend: context.backend.name,
      engine: outcome.engine,
      sandbox: context.sandboxDescription,
      stopReason: outcome.stopReason,
      harnessVersion: harnessVersion(),
      fixture: {
        scenario: scenario.config.fixture.scenario,
        layout: arm.layout,
        head: variant.fingerprint.head,
      },
      skill: { tree: skill.tree },
      secretRedactions: transcript.redactions,
      transcriptMalformedLines: read.malformed.length,
    };
    await writeFile(path.join(partialDir, REP_FILES.meta), `${JSON.stringify(meta, null, 2)}\n`);

    const scored = await scoreRepDirectory(partialDir, scenario.scoring, variant.fingerprint);
    if (!scored.ok) throw new Error(`scoring a fresh rep failed: ${scored.error.problem}`);
    await writeFile(
      path.join(partialDir, REP_FILES.score),
      `${JSON.stringify(scored.value.score, null, 2)}\n`,
    );

    await landDirectory(layout, planned, attempt, partialDir, finalDir);
    const line: LedgerRepLine = {
      type: 'rep',
      id: planned.id,
      arm: arm.name,
      scenario: scenario.id,
      rep: planned.rep,
      attempt,
      status: status.kind,
      verdict: scored.value.score.verdict,
      toolUses: meta.toolUses,
      dir: path.relative(layout.root, finalDir),
    };
    await appendRepLine(layout.ledgerFile, line);
    return { line, score: scored.value.score, meta };
  } finally {
    await rm(partialDir, { recursive: true, force: true });
    if (!context.keepWorkDirs) await rm(privateDir, { recursive: true, force: true });
  }
}

/** Move a finished rep's directory into place, keeping any earlier attempt beside it. */
async function landDirectory(
  layout: ResultsLayout,
  planned: PlannedRep,
  attempt: number,
  partialDir: string,
  finalDir: string,
): Promise<void> {
  if (existsSync(finalDir)) {
    await rename(
      finalDir,
      layout.supersededAttemptDir(planned.arm, planned.scenario, planned.rep, attempt - 1),
    );
  }
  await rename(partialDir, finalDir);
}

/** A per-rep copy of the read-only skill text, so no session can see another rep's files. */
async function copySkill(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  await cp(from, to, { recursive: true });
  await chmod(to, 0o555);
}

/** Collects the first bytes of the engine's stderr, for the rep's engine.log. */
class EngineLog {
  #parts: string[] = [];
  #size = 0;

  readonly append = (chunk: string): void => {
    if (this.#size >= MAX_ENGINE_LOG_BYTES) return;
    const part = chunk.slice(0, MAX_ENGINE_LOG_BYTES - this.#size);
    this.#parts.push(part);
    this.#size += part.length;
  };

  text(): string {
    return this.#parts.join('');
  }
}
