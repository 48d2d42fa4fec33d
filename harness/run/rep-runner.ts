import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readFile, realpath, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ResolvedCampaign } from '../campaign/load-campaign.js';
import { sessionLimitsFor } from '../estimate/cost-limits.js';
import { pricingTable } from '../estimate/pricing.js';
import {
  copyFixture,
  diffSnapshots,
  type FixtureFingerprint,
  type Snapshot,
  takeSnapshotAfterSession,
  writtenToFixture,
} from '../fixture/index.js';
import { sha256Hex } from '../lib/hash.js';
import { childrenStoppedFromOutside, lastOutsideSignal } from '../lib/outside-signals.js';
import { harnessVersion } from '../lib/package-root.js';
import { openDirectoriesToOwner, openToReaders, removeTree } from '../lib/remove-tree.js';
import type { LibraryContents } from '../library/library-source.js';
import { brainFailureIn } from '../model-server/index.js';
import { neutraliseKeptRepository } from '../results/kept-repository.js';
import { appendRepLine, type JournalRepLine } from '../results/rep-journal.js';
import type { RepMeta } from '../results/rep-meta.js';
import { REP_FILES, type ResultsLayout } from '../results/results-layout.js';
import { seatsField } from '../results/seat-counts.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { type ResolvedScenario, scenarioFacts } from '../scenario/resolve-scenario.js';
import type { ScheduledRep } from '../schedule/schedule.js';
import { givesProjectSkills } from '../score/claude-dir.js';
import type { Facts } from '../score/placeholders.js';
import { formatReplyFile } from '../score/reply-file.js';
import type { RepScore } from '../score/score-rep.js';
import type { ScriptedUser } from '../score/scripted-user.js';
import { type StopSpec, sessionStopOf } from '../score/stop-mode.js';
import { readTranscript } from '../score/transcripts/claude-messages.js';
import { confinedGitRunner } from '../session/confined-git.js';
import type { InstalledLibrary } from '../session/installed-library.js';
import { userModelFor } from '../session/played-user.js';
import type { ProjectInstruction } from '../session/project-instructions.js';
import { type ProjectSkill, readProjectSkills } from '../session/project-skills.js';
import { SecretRedactor } from '../session/secret-redactor.js';
import type { ToolChanges } from '../session/session-tool-table.js';
import type { SessionBackend, SessionOutcome } from '../session/session-types.js';
import { TranscriptSink } from '../session/transcript-sink.js';
import { placeLibrary, startLibrary } from './library-install.js';
import type { RepModel } from './model-runtime.js';
import { repCostUsd } from './rep-cost.js';
import {
  captureChangedBefore,
  captureFiles,
  capturePostEvidence,
  capturePreEvidence,
  type PreEvidence,
} from './rep-evidence.js';
import { scoreRepDirectory } from './score-rep-dir.js';

/** A built fixture variant, copied once per rep. */
export interface PreparedVariant {
  /** The built repository. */
  readonly dir: string;
  /**
   * The fixture root holding it, when that is not `dir` (a repository with
   * worktrees beside it): what is copied per rep and mounted for the session.
   */
  readonly root?: string | undefined;
  readonly fingerprint: FixtureFingerprint;
  /**
   * The variant's snapshot, taken once when it was built: every rep's copy is
   * byte for byte the variant, so this is each rep's before-snapshot too
   * (and saves each rep two git processes).
   */
  readonly snapshot: Snapshot;
  /**
   * Why the variant could not be provisioned here (a tool its recipe's
   * steps need is missing, with what to install): every rep on it is a
   * failed pre-check, and no session runs.
   */
  readonly unprovisioned?: readonly string[] | undefined;
}

/** An arm's skill text, materialised read-only inside the results directory. */
export interface PreparedSkill {
  readonly dir: string;
  readonly tree: string;
  /** The directory name sessions see (the skill's own name, or the library's plugin name: the same for every arm). */
  readonly neutralName: string;
  /** A library arm's contents (library-source.ts); undefined for a one-folder arm. */
  readonly library?: LibraryContents | undefined;
  /** Where reps install a library arm's library from: its composed copy in the run's work root (same file system, so hard links work). */
  readonly installFrom?: string | undefined;
  /** An arm without a skill: its prompt is rendered with an empty {{skillDir}}. */
  readonly none?: true | undefined;
}

/** Everything shared by the reps of one run. */
export interface RunContext {
  readonly campaign: ResolvedCampaign;
  readonly layout: ResultsLayout;
  readonly backend: SessionBackend;
  /** Each rep's model: its endpoint, name and pricing. */
  readonly modelOf: (rep: ScheduledRep) => RepModel;
  /** Every credential of the run: replaced wherever a rep writes (one model's key never shows in another's rep). */
  readonly secrets: readonly string[];
  readonly variants: ReadonlyMap<string, PreparedVariant>;
  readonly skills: ReadonlyMap<string, PreparedSkill>;
  /** A temp directory outside the results, for the reps' private work dirs. */
  readonly workRoot: string;
  /** Confines the git that reads a repository after its session. */
  readonly sandbox: Sandbox;
  readonly sandboxDescription: string;
  readonly keepWorkDirs: boolean;
}

/** A fixture variant: the recipe, its scenario and a layout. */
export function variantKey(
  fixture: { readonly recipe: string; readonly scenario: string },
  layout: string,
): string {
  return `${fixture.recipe}:${fixture.scenario}:${layout}`;
}

export interface RepResult {
  readonly line: JournalRepLine;
  readonly score: RepScore;
  readonly meta: RepMeta;
}

const MAX_ENGINE_LOG_BYTES = 256 * 1024;

/** How redgreen's local model server labels the usage it reports: estimated, not measured. */
const ESTIMATED_USAGE_MARK = /"redgreen":\{[^}]*"usage":"estimated"/;

/** What the session left behind, read back before anything is scored. */
interface SessionRecord {
  readonly outcome: SessionOutcome;
  readonly durationMs: number;
  readonly finishedAt: number;
}

/**
 * Run one rep end to end and land it on disk: copy the fixture and the skill
 * into a private work dir, snapshot, run the session, snapshot again (with a
 * confined git: the session may have rewritten `.git/config`), write
 * reply/transcript/meta/snapshots into a partial directory, score it from
 * those files, rename the directory into place, then append the journal line.
 *
 * A crash at any point leaves either nothing or a `.partial-*` directory that
 * no reader trusts; a rep during which a process was stopped by a signal from
 * outside redgreen (`outside-signals.ts`) is not recorded either; the rep is in the journal only once its directory is
 * whole. A harness failure before the session drops the rep (nothing was
 * asked of the model; a resume runs it); one after the session records the
 * rep as indeterminate at the `harness` stage, so a session that damages its
 * repository can never quietly leave the denominator.
 */
export async function runRep(
  context: RunContext,
  scheduled: ScheduledRep,
  attempt: number,
  signal: AbortSignal,
): Promise<RepResult | { readonly dropped: string }> {
  const { campaign, layout } = context;
  const arm = campaign.arms.find((candidate) => candidate.name === scheduled.arm);
  const scenario = campaign.scenarios.find((candidate) => candidate.id === scheduled.scenario);
  if (arm === undefined || scenario === undefined)
    throw new Error(`rep ${scheduled.id} is not in the campaign`);
  const variant = context.variants.get(variantKey(scenario.config.fixture, arm.layout));
  const skill = context.skills.get(arm.name);
  if (variant === undefined || skill === undefined)
    throw new Error(`rep ${scheduled.id} has no prepared fixture or skill`);

  const model = context.modelOf(scheduled);
  const repStarted = performance.now();
  const stoppedFromOutsideBefore = childrenStoppedFromOutside();
  const finalDir = layout.attemptDir(
    arm.name,
    scenario.id,
    scheduled.rep,
    attempt,
    scheduled.model,
  );
  const partialDir = `${finalDir}.partial-${process.pid}`;
  await removeTree(partialDir);
  await mkdir(partialDir, { recursive: true });
  // Named at random, so no path a session sees (its skill or library, its repo) tells the arm:
  // a name derived from the rep's id could be derived again by a session that knows how.
  const privateDir = path.join(context.workRoot, `rep-${randomBytes(6).toString('hex')}`);
  await removeTree(privateDir);
  await mkdir(privateDir, { recursive: true });
  // Short (`<work root>/sXXXXXX`), so the engine's socket path fits a Unix socket and stays here.
  const runtimeDir = await mkdtemp(path.join(context.workRoot, 's'));
  const redactor = new SecretRedactor([model.endpoint.apiKey, ...context.secrets]);
  // The rep's fixture root, and the repository in it (the same directory unless worktrees sit beside it).
  const fixtureRoot = path.join(privateDir, 'repo');
  const repo =
    variant.root === undefined
      ? fixtureRoot
      : path.join(fixtureRoot, path.relative(variant.root, variant.dir));
  try {
    // A library arm's plugin is placed while the fixture is copied; its hooks run in the copy.
    const [copied, placed] = await Promise.all([
      copyFixture(variant.root ?? variant.dir, fixtureRoot),
      skill.library === undefined
        ? undefined
        : placeLibrary({
            from: skill.installFrom ?? skill.dir,
            contents: skill.library,
            privateDir,
          }),
    ]);
    if (!copied.ok) throw new Error(`copying the fixture failed: ${copied.error.problem}`);
    const installed =
      placed === undefined
        ? undefined
        : await startLibrary(placed, { privateDir, fixtureDir: repo, sandbox: context.sandbox });
    const skillDir = installed?.library.root ?? path.join(privateDir, 'skills', skill.neutralName);
    if (installed === undefined) await copySkill(skill.dir, skillDir);
    const hookChanges =
      (installed?.record.hooks.length ?? 0) === 0
        ? []
        : await fixtureChanges(repo, variant.snapshot, context.sandbox);
    const given = await readInstructions(repo, scenario.config.instructions);
    const instructions = given.files;
    // The fixture's project skills reach the session only when the scenario opts in (claudeDir).
    const projectSkills = givesProjectSkills(scenario.config.claudeDir)
      ? await readProjectSkills(repo)
      : undefined;
    const prompt = scenario.prompt.render({
      // A baseline arm names no skill: `{{#if skillDir}}` leaves the skill's words out.
      skillDir: skill.none === true ? '' : skillDir,
      fixtureRepo: repo,
      startDir:
        variant.snapshot.start === undefined ? repo : path.join(repo, variant.snapshot.start),
    });
    await writeFile(path.join(partialDir, REP_FILES.prompt), prompt);
    await writeJson(path.join(partialDir, REP_FILES.snapshotBefore), variant.snapshot, redactor);
    const premise = await checkPremise(context, scenario, variant, { repo, skillDir, privateDir });
    const checks = {
      ...premise,
      pre: {
        ...premise.pre,
        problems: [
          ...premise.pre.problems,
          ...(variant.unprovisioned ?? []),
          ...(hookChanges.length === 0
            ? []
            : [
                `the library's SessionStart hook changed the fixture (${hookChanges.slice(0, 5).join(', ')}${hookChanges.length > 5 ? ', …' : ''}): its changes would be scored as the session's`,
              ]),
          ...given.problems,
          ...(projectSkills?.problems ?? []),
        ],
      },
    };
    await writeJson(path.join(partialDir, REP_FILES.filesBefore), checks.pre.files, redactor);
    const prepareMs = performance.now() - repStarted;

    const session =
      checks.pre.problems.length > 0
        ? await skippedSession(partialDir)
        : await runSession(context, scheduled, model, {
            prompt,
            fixtureRoot,
            repo,
            skillDir,
            privateDir,
            partialDir,
            runtimeDir,
            redactor,
            signal,
            stop: scenario.config.stop,
            user: scenario.config.user,
            library: installed?.library,
            instructions,
            projectSkills: projectSkills?.skills,
            tools: scenario.config.tools,
            start: variant.snapshot.start,
          });
    if (
      session.outcome.status.kind === 'indeterminate' &&
      session.outcome.status.stage === 'aborted'
    ) {
      return { dropped: session.outcome.status.reason };
    }

    let status: RepMeta['status'] =
      session.outcome.status.kind === 'indeterminate'
        ? { ...session.outcome.status, reason: redactor.redact(session.outcome.status.reason) }
        : session.outcome.status;
    // A data brain that could not go on said why in the API error it answered with.
    const brainFailure =
      status.kind === 'indeterminate' ? brainFailureIn(status.reason) : undefined;
    if (brainFailure !== undefined) {
      status = { kind: 'indeterminate', stage: 'brain', reason: brainFailure };
    }
    // A repository git can no longer read is the session's doing, not the
    // infrastructure's: the work tree is still compared (a changed journal still
    // counts), and the lost HEAD and refs show up as scope violations.
    const after = await takeSnapshotAfterSession(
      repo,
      variant.snapshot,
      confinedGitRunner(context.sandbox),
    );
    await writeJson(path.join(partialDir, REP_FILES.snapshotAfter), after.snapshot, redactor);
    const transcriptText = await readFile(path.join(partialDir, REP_FILES.transcript), 'utf8');
    const read = readTranscript(transcriptText);
    const finalReply = redactor.redact(session.outcome.finalReply ?? '');
    const captured = session.outcome.capturedDispatch;
    await writeFile(
      path.join(partialDir, REP_FILES.reply),
      redactor.redact(formatReplyFile(read.counts.toolUses, finalReply, captured)),
    );
    // A captured dispatch is the session's decision, with or without words beside it.
    if (status.kind === 'completed' && captured === null && finalReply.trim() === '') {
      status = {
        kind: 'indeterminate',
        stage: 'reply',
        reason: 'the session ended without a final reply',
      };
    }
    if (checks.pre.problems.length > 0) {
      status = {
        kind: 'indeterminate',
        stage: 'pre-check',
        reason: redactor.redact(
          `a pre-check did not pass, so no session was run (the fixture is wrong): ${checks.pre.problems.join('; ')}`,
        ),
      };
    }
    await recordPostEvidence(context, checks, {
      repo,
      skillDir,
      privateDir,
      partialDir,
      after: after.snapshot,
      redactor,
      ran: checks.pre.problems.length === 0,
    });

    const byName: Record<string, number> = {};
    for (const call of read.toolCalls) {
      if (call.parentToolUseId === null || call.parentToolUseId === undefined) {
        byName[call.name] = (byName[call.name] ?? 0) + 1;
      }
    }
    const { outcome } = session;
    const meta: RepMeta = {
      id: scheduled.id,
      arm: arm.name,
      scenario: scenario.id,
      rep: scheduled.rep,
      attempt,
      status,
      toolUses: read.counts.toolUses,
      subagentToolUses: read.counts.subagentToolUses,
      subagentDispatches: read.counts.subagentDispatches,
      ...seatsField(transcriptText),
      toolCallsByName: byName,
      written: writtenToFixture(variant.snapshot, after.snapshot),
      turns: outcome.turns,
      tokens: outcome.usage,
      tokensEstimated: model.endpoint.scripted || ESTIMATED_USAGE_MARK.test(transcriptText),
      costUsd: repCostUsd(model, outcome),
      pricingAsOf: pricingTable().asOf,
      engineCostEstimateUsd: model.endpoint.scripted ? null : outcome.engineCostEstimateUsd,
      durationMs: Math.round(session.durationMs),
      harnessOverheadMs: Math.round(prepareMs + (performance.now() - session.finishedAt)),
      model: {
        requested: model.endpoint.id,
        reported: outcome.modelReported,
        scripted: model.endpoint.scripted,
        ...(model.name === null ? {} : { name: model.name }),
        ...(model.profile === null ? {} : { endpoint: model.profile }),
      },
      backend: context.backend.name,
      engine: outcome.engine,
      sandbox: context.sandboxDescription,
      stopReason: outcome.stopReason,
      stop: sessionStopOf(scenario.config.stop).mode,
      ...(typeof scenario.config.stop === 'string'
        ? {}
        : { stopAt: [...(sessionStopOf(scenario.config.stop).at ?? [])] }),
      dispatchCaptured: captured !== null,
      harnessVersion: harnessVersion(),
      fixture: {
        recipe: scenario.config.fixture.recipe,
        scenario: scenario.config.fixture.scenario,
        layout: arm.layout,
        head: variant.fingerprint.head,
      },
      skill: { tree: skill.tree },
      ...(installed === undefined ? {} : { library: installed.record }),
      ...(instructions === undefined
        ? {}
        : {
            instructions: instructions.map((file) => ({
              path: path.relative(repo, file.path),
              sha256: sha256Hex(file.text),
            })),
          }),
      ...(projectSkills === undefined
        ? {}
        : {
            claudeDir: {
              skills: projectSkills.skills.map((skill) => ({
                name: skill.name,
                path: skill.file,
                sha256: skill.sha256,
              })),
            },
          }),
      secretRedactions: redactor.count,
      repositoryAfterSession: repositoryAfterSession(after),
      transcriptMalformedLines: read.malformed.length,
    };
    await writeJson(path.join(partialDir, REP_FILES.meta), meta, redactor);

    const scored = await scoreRepDirectory(partialDir, scenario, variant.fingerprint);
    if (!scored.ok) throw new Error(`scoring a fresh rep failed: ${scored.error.problem}`);
    await writeJson(path.join(partialDir, REP_FILES.score), scored.value.score, redactor);

    // A process of this rep (or of one beside it) killed by a signal redgreen did not send: not recorded.
    if (childrenStoppedFromOutside() !== stoppedFromOutsideBefore) {
      return {
        dropped: `a process of this run was stopped by ${lastOutsideSignal() ?? 'a signal'} from outside redgreen while it ran`,
      };
    }
    await landDirectory(partialDir, finalDir);
    const line: JournalRepLine = {
      type: 'rep',
      id: scheduled.id,
      arm: arm.name,
      scenario: scenario.id,
      ...(scheduled.model === null ? {} : { model: scheduled.model }),
      rep: scheduled.rep,
      attempt,
      status: status.kind,
      verdict: scored.value.score.verdict,
      toolUses: meta.toolUses,
      dir: path.relative(layout.root, finalDir),
    };
    await appendRepLine(layout.journalFile, line);
    return { line, score: scored.value.score, meta };
  } finally {
    await removeTree(partialDir);
    if (!context.keepWorkDirs) {
      await removeTree(privateDir);
      await removeTree(runtimeDir);
    } else {
      // Kept for the user to look at with git: nothing the session planted runs there.
      await neutraliseKeptRepository(repo, path.join(variant.dir, '.git', 'config'));
      // ...and to delete: the read-only skill copy becomes theirs to remove.
      await openDirectoriesToOwner(privateDir);
    }
  }
}

async function runSession(
  context: RunContext,
  scheduled: ScheduledRep,
  model: RepModel,
  rep: {
    readonly prompt: string;
    /** What the session has mounted read-write: `repo`, or the directory holding it beside its worktrees. */
    readonly fixtureRoot: string;
    readonly repo: string;
    /** The linked worktree the session starts in (relative to `repo`); absent: `repo` itself. */
    readonly start?: string | undefined;
    readonly skillDir: string;
    readonly privateDir: string;
    readonly partialDir: string;
    readonly runtimeDir: string;
    readonly redactor: SecretRedactor;
    readonly signal: AbortSignal;
    readonly stop: StopSpec;
    readonly user: ScriptedUser | undefined;
    readonly library: InstalledLibrary | undefined;
    readonly instructions: readonly ProjectInstruction[] | undefined;
    readonly projectSkills: readonly ProjectSkill[] | undefined;
    readonly tools: ToolChanges | undefined;
  },
): Promise<SessionRecord> {
  const stop = sessionStopOf(rep.stop);
  const transcript = new TranscriptSink(
    path.join(rep.partialDir, REP_FILES.transcript),
    rep.redactor,
  );
  const engineLog = new EngineLog();
  const started = performance.now();
  let outcome: SessionOutcome;
  try {
    outcome = await context.backend.run({
      repId: scheduled.id,
      prompt: rep.prompt,
      fixtureRepo: rep.fixtureRoot,
      ...(rep.start === undefined && rep.fixtureRoot === rep.repo
        ? {}
        : { startDir: path.join(rep.repo, rep.start ?? '.') }),
      skillDir: rep.skillDir,
      privateDir: path.join(rep.privateDir, 'private'),
      runtimeDir: rep.runtimeDir,
      model: model.endpoint,
      limits: sessionLimitsFor(context.campaign.limits, model.endpoint.scripted),
      price: model.priceModel,
      stop: stop.mode,
      ...(stop.at === undefined ? {} : { stopAt: stop.at }),
      user: rep.user,
      // A model plays the user only on a live run (played-user.ts); offline the script does.
      userModel: userModelFor(rep.user, model.endpoint),
      library: rep.library,
      instructions: rep.instructions,
      projectSkills: rep.projectSkills,
      tools: rep.tools,
      transcript,
      engineLog: engineLog.append,
      signal: rep.signal,
    });
  } finally {
    await transcript.close();
  }
  const finishedAt = performance.now();
  await writeFile(
    path.join(rep.partialDir, REP_FILES.engineLog),
    rep.redactor.redact(engineLog.text()),
  );
  return { outcome, durationMs: finishedAt - started, finishedAt };
}

/** The scenario's facts for this rep's fixture, and the premise evidence taken before its session. */
interface PremiseCheck {
  readonly scenario: ResolvedScenario;
  readonly variant: PreparedVariant;
  readonly facts: Facts;
  readonly pre: PreEvidence;
}

/**
 * Capture what the pre-checks read from the rep's fixture copy and judge
 * them; a rep whose pre-checks do not pass runs no session.
 */
async function checkPremise(
  context: RunContext,
  scenario: ResolvedScenario,
  variant: PreparedVariant,
  rep: { readonly repo: string; readonly skillDir: string; readonly privateDir: string },
): Promise<PremiseCheck> {
  const facts = scenarioFacts(scenario, variant.fingerprint);
  if (!facts.ok) throw new Error(`the scenario's facts: ${facts.error.problem}`);
  const pre = await capturePreEvidence(scenario, facts.value, {
    repoDir: rep.repo,
    before: variant.snapshot,
    sandbox: context.sandbox,
    readOnlyDirs: [rep.skillDir],
    scratchDir: path.join(rep.privateDir, 'checks'),
  });
  return { scenario, variant, facts: facts.value, pre };
}

/** After the session: the files the checks read and the commands they need, written into the rep. */
async function recordPostEvidence(
  context: RunContext,
  checks: PremiseCheck,
  rep: {
    readonly repo: string;
    readonly skillDir: string;
    readonly privateDir: string;
    readonly partialDir: string;
    readonly after: Snapshot;
    readonly redactor: SecretRedactor;
    /** False when the session was skipped: nothing changed, nothing to run. */
    readonly ran: boolean;
  },
): Promise<void> {
  const post = rep.ran
    ? await capturePostEvidence(checks.scenario, checks.facts, {
        repoDir: rep.repo,
        before: checks.variant.snapshot,
        after: rep.after,
        sandbox: context.sandbox,
        readOnlyDirs: [rep.skillDir],
        scratchDir: path.join(rep.privateDir, 'checks'),
      })
    : { files: { schemaVersion: 1 as const, files: {} }, commands: [] };
  await writeJson(path.join(rep.partialDir, REP_FILES.filesAfter), post.files, rep.redactor);
  if (rep.ran) {
    // What the modified and removed files held before, beside what the pre-checks read.
    const earlier = await captureChangedBefore(
      checks.variant.dir,
      checks.variant.snapshot,
      rep.after,
    );
    if (Object.keys(earlier.files).length > 0) {
      await writeJson(
        path.join(rep.partialDir, REP_FILES.filesBefore),
        { schemaVersion: 1, files: { ...earlier.files, ...checks.pre.files.files } },
        rep.redactor,
      );
    }
  }
  await writeJson(
    path.join(rep.partialDir, REP_FILES.commands),
    { schemaVersion: 1, commands: [...checks.pre.commands, ...post.commands] },
    rep.redactor,
  );
}

/** The record of a session that was not run because a pre-check did not pass. */
async function skippedSession(partialDir: string): Promise<SessionRecord> {
  await writeFile(path.join(partialDir, REP_FILES.transcript), '');
  await writeFile(path.join(partialDir, REP_FILES.engineLog), '');
  const now = performance.now();
  return {
    outcome: {
      status: { kind: 'completed' },
      finalReply: null,
      stopReason: 'not started: a pre-check did not pass',
      turns: 0,
      usage: null,
      modelReported: null,
      engineCostEstimateUsd: null,
      engine: 'not started',
      capturedDispatch: null,
    },
    durationMs: 0,
    finishedAt: now,
  };
}

/**
 * The state the session left the repository in, for meta.json: readable by
 * git or not, and any repository it made inside the work tree (a directory
 * named `.git` below the top one, whose files the snapshot records).
 */
function repositoryAfterSession(after: {
  readonly snapshot: Snapshot;
  readonly gitProblem: string | null;
}): string {
  const state =
    after.gitProblem === null ? 'readable' : `git could not read it: ${after.gitProblem}`;
  const nested = after.snapshot.nestedGitDirs ?? [];
  return nested.length === 0
    ? state
    : `${state}; nested git directories (their files are recorded like any others): ${nested.join(', ')}`;
}

/** Every JSON file of a rep goes through the redactor: an endpoint may echo the key in an error. */
async function writeJson(file: string, value: unknown, redactor: SecretRedactor): Promise<void> {
  await writeFile(file, redactor.redact(`${JSON.stringify(value, null, 2)}\n`));
}

/**
 * Move a finished attempt's directory into place. A directory already there
 * is an orphan a crash left between landing and the journal append that a
 * resume could not adopt; it is kept aside, never overwritten.
 */
async function landDirectory(partialDir: string, finalDir: string): Promise<void> {
  if (existsSync(finalDir))
    await rename(finalDir, `${finalDir}.orphan-${process.pid}-${Date.now()}`);
  await rename(partialDir, finalDir);
}

/**
 * A per-rep copy of the read-only skill text, so no session can see another
 * rep's files; readable by everyone (a sandbox may run as another user),
 * writable by no one but its owner.
 */
async function copySkill(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  await cp(from, to, { recursive: true });
  await openToReaders(to);
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

/**
 * The project instruction files a scenario names, read from the rep's
 * fixture copy after the library's hooks ran there (campaign loading checked
 * that each variant holds them), as rep-evidence.ts reads any repository
 * file: never through a link out of the repository (a hook may have left
 * one), never a FIFO or device, capped. A file that cannot be given so is a
 * problem, and the rep runs no session.
 */
async function readInstructions(
  repo: string,
  files: readonly string[] | undefined,
): Promise<{ readonly files: ProjectInstruction[] | undefined; readonly problems: string[] }> {
  if (files === undefined) return { files: undefined, problems: [] };
  const root = await realpath(repo);
  const read: ProjectInstruction[] = [];
  const problems: string[] = [];
  for (const file of files) {
    // A link inside the repository (AGENTS.md -> CLAUDE.md) is read as the engine would follow it.
    const real = await realpath(path.join(root, file)).catch(() => undefined);
    const relative = real?.startsWith(`${root}${path.sep}`) ? path.relative(root, real) : undefined;
    const captured =
      relative === undefined
        ? { omitted: real === undefined ? 'absent' : 'a link to outside the repository' }
        : (await captureFiles(root, [relative])).files[relative];
    if (captured !== undefined && 'text' in captured) {
      read.push({ path: path.join(repo, file), text: captured.text });
    } else {
      problems.push(
        `instruction file ${file} cannot be given to the session (${captured?.omitted ?? 'unreadable'})`,
      );
    }
  }
  return { files: read, problems };
}

/**
 * What the library's SessionStart hooks changed in the rep's fixture copy
 * (files, HEAD, refs), read with the confined git a session's repository is
 * read with: the rep's "before" is the fixture as built, so a hook's writes
 * would count as the session's (a hook could plant the test file a check
 * looks for).
 */
async function fixtureChanges(repo: string, built: Snapshot, sandbox: Sandbox): Promise<string[]> {
  const now = await takeSnapshotAfterSession(repo, built, confinedGitRunner(sandbox));
  if (now.gitProblem !== null) return [`git: ${now.gitProblem}`];
  const diff = diffSnapshots(built, now.snapshot);
  return [
    ...(diff.headBefore === diff.headAfter ? [] : ['HEAD']),
    ...diff.refChanges.map((change) => change.ref),
    ...diff.fileChanges.map((change) => change.path),
  ];
}
