/**
 * Score one rep: read the reply against the report contract, gather the
 * evidence into one immutable value, evaluate the pre-checks, the checks and
 * the observations, and decide the verdict. Pure: everything is passed in,
 * so `redgreen score` rescores any rep from disk and `redgreen check` scores
 * a session run elsewhere.
 *
 * The verdict ladder, the only place a verdict is decided:
 * 1. the runner could not finish the rep → indeterminate (the checks that
 *    would fail it are listed);
 * 2. a pre-check did not pass → indeterminate: the fixture is wrong;
 * 3. the checks, combined by strong Kleene logic: any decided failure fails
 *    the rep; else anything undecided makes it indeterminate; else it
 *    passes. Observations never reach this.
 */
import { z } from 'zod';
import type { Snapshot } from '../fixture/snapshot-schema.js';
import { dispatchesOf, dispatchReaders } from './dispatches.js';
import { brokenChecks, type CheckResult, checkResultSchema, evaluateCheck } from './evaluate.js';
import type { CapturedFile, CommandOutcome, Evidence, JudgementEvidence } from './evidence.js';
import { readingSchema } from './extracted-values.js';
import { allOf } from './kleene.js';
import type { CompiledScenario, ObservationNode } from './load-scenario.js';
import { summarySchema } from './observation-summary.js';
import { packMetricValues, packMetricValuesSchema } from './pack-metric-registry.js';
import type { Facts } from './placeholders.js';
import { readReport } from './read-report.js';
import { type RunnerStatus, runnerStatusSchema } from './runner-status.js';
import { callRan, type ToolCall } from './tool-call.js';
import type { RecordedQuestion, RecordedTurn } from './user-question-record.js';

export type { RunnerStatus } from './runner-status.js';
export { runnerStatusSchema } from './runner-status.js';

export const verdictSchema = z.enum(['pass', 'fail', 'indeterminate']);
export type Verdict = z.infer<typeof verdictSchema>;

export const observationResultSchema = z.intersection(
  checkResultSchema,
  z.object({ summary: summarySchema.optional() }),
);
export type ObservationResult = CheckResult & {
  readonly summary?: z.infer<typeof summarySchema> | undefined;
};

export const SCORE_SCHEMA_VERSION = 2;

/**
 * A score.json of any format, read only for its verdict: one an older
 * redgreen wrote is stale (a rescore rebuilds it), not damaged.
 */
export const scoreOfAnyVersionSchema = z.looseObject({
  verdict: verdictSchema,
  schemaVersion: z.number().optional(),
});

export const repScoreSchema = z
  .object({
    schemaVersion: z.literal(SCORE_SCHEMA_VERSION),
    scenario: z.string(),
    verdict: verdictSchema,
    /** Why: every failing check (or the undecided ones, or the runner's cause), each starting with its id. */
    reasons: z.array(z.string()),
    /** For a rep the runner or a pre-check left indeterminate: the checks that would fail it. */
    wouldFail: z.array(z.string()),
    runner: runnerStatusSchema,
    /** What the report contract read from the reply, by section. */
    values: z.record(z.string(), readingSchema),
    pre: z.array(checkResultSchema),
    checks: z.array(checkResultSchema),
    observations: z.array(observationResultSchema),
    /** Checks whose evidence was not given (no transcript, no repository). */
    notAssessed: z.array(z.string()),
    /**
     * The metrics the scenario's packs add (pack-metric-registry.ts), on this
     * rep; absent when its packs add none, and in files from before them.
     */
    metrics: packMetricValuesSchema.optional(),
    /**
     * The scenario this score came from: its hash (campaign/scenario-identity.ts)
     * and, after `redgreen score`, when it rescored the rep. Absent in a score
     * of a session run elsewhere, and in files from before scenario identity.
     */
    scoredWith: z
      .object({
        scenario: z.string().regex(/^[0-9a-f]{64}$/),
        rescoredAt: z.string().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
/** A scored rep, as written to `score.json`. */
export type RepScore = z.infer<typeof repScoreSchema>;

/** The raw parts of a rep, any of which may be missing. */
export interface RepInputs {
  /** The final reply text (without reply.md's tool_uses line). */
  readonly reply?: string | undefined;
  readonly toolCalls?: readonly ToolCall[] | undefined;
  /** The controller's model as reported, for dispatches that inherit it. */
  readonly sessionModel?: string | null | undefined;
  /** The session's working directory (its repository), from the transcript, when known. */
  readonly repoDir?: string | null | undefined;
  /** The skill directory the session was told to follow (what skill-read looks for), when known. */
  readonly skillDir?: string | null | undefined;
  /** True when lines of the transcript could not be read (see TranscriptEvidence.partial). */
  readonly transcriptPartial?: boolean | undefined;
  /** The seats whose calls the transcript's files do not hold (see TranscriptEvidence.unknownSeats). */
  readonly unknownSeats?: readonly string[] | undefined;
  /** The questions a scripted user was asked (SessionTranscript.questions), when recorded. */
  readonly questions?: readonly RecordedQuestion[] | undefined;
  /** The conversation turns after the first (SessionTranscript.turns), when recorded. */
  readonly turns?: readonly RecordedTurn[] | undefined;
  readonly before?: Snapshot | undefined;
  readonly after?: Snapshot | undefined;
  readonly filesBefore?: Readonly<Record<string, CapturedFile>> | undefined;
  readonly filesAfter?: Readonly<Record<string, CapturedFile>> | undefined;
  readonly commands?: readonly CommandOutcome[] | undefined;
  /** The judge's answers on this rep, when it has a judgement that fits the scenario's rubric. */
  readonly judgement?: JudgementEvidence | undefined;
}

export interface ScoreRequest {
  readonly scenario: CompiledScenario;
  readonly facts: Facts;
  readonly inputs: RepInputs;
  readonly runner: RunnerStatus;
  /** False when the fixture is not ours (a session run elsewhere): pre-checks are not assessed. */
  readonly assessPre?: boolean;
  /**
   * True to judge only the checks whose evidence was given, reporting the
   * rest as not assessed without letting them hold the verdict open (what
   * `score-reply` does with a bare reply). Nothing assessed is indeterminate.
   */
  readonly judgeAssessedOnly?: boolean;
}

function list(value: Facts[string] | undefined): readonly string[] {
  return value === undefined ? [] : typeof value === 'string' ? [value] : value;
}

/** The evidence the checks read after the session, and the evidence the pre-checks read before it. */
export function buildEvidence(request: ScoreRequest): { post: Evidence; pre: Evidence } {
  const { scenario, facts, inputs } = request;
  const reply =
    inputs.reply === undefined || (scenario.sections.length === 0 && inputs.reply === '')
      ? undefined
      : readReport(inputs.reply, scenario.sections, facts, scenario.config);
  // A call the capture refused as "Not run." never ran: no call of the session's.
  const calls = inputs.toolCalls?.filter(callRan);
  const transcript =
    calls === undefined
      ? undefined
      : {
          calls,
          dispatches: dispatchesOf(calls, dispatchReaders(scenario.config, facts)),
          model: inputs.sessionModel ?? null,
          repoDir: inputs.repoDir ?? null,
          skillDir: inputs.skillDir ?? null,
          partial: inputs.transcriptPartial === true,
          unknownSeats: inputs.unknownSeats ?? [],
          questions: inputs.questions,
          turns: inputs.turns,
        };
  return {
    post: {
      reply,
      transcript,
      before: inputs.before,
      after: inputs.after,
      contents: inputs.filesAfter,
      commands: inputs.commands?.filter((command) => command.phase === 'post'),
      judgement: inputs.judgement,
    },
    pre: {
      before: inputs.before,
      after: inputs.before,
      contents: inputs.filesBefore,
      commands: inputs.commands?.filter((command) => command.phase === 'pre'),
    },
  };
}

/** Both of two labels, neither, or the one that passed. */
function classification(passed: readonly string[], labels: readonly string[]): string {
  if (passed.length === 0) return labels.length === 2 ? 'neither' : 'none';
  if (passed.length === labels.length && labels.length === 2) return 'both';
  return passed.join('+');
}

function observe(node: ObservationNode, evidence: Evidence, facts: Facts): ObservationResult {
  if (node.kind === 'check') {
    const result = evaluateCheck(node.node, evidence, facts);
    return node.summary === undefined ? result : { ...result, summary: node.summary };
  }
  const children = node.labels.map(({ node: child }) => evaluateCheck(child, evidence, facts));
  const undecided = children.some((child) => child.outcome === 'undecided');
  const passed = node.labels
    .filter((_, index) => children[index]?.outcome === 'pass')
    .map(({ label }) => label);
  const observed = undecided
    ? 'undecided'
    : classification(
        passed,
        node.labels.map(({ label }) => label),
      );
  return {
    id: node.id,
    verb: 'classify',
    params: { labels: node.labels.map(({ label }) => label) },
    // The observation succeeded when every labelled check could be decided; what it saw is `observed`.
    outcome: undecided ? 'undecided' : 'pass',
    observed,
    detail: `${node.id}: ${observed}`,
    children,
    ...(node.summary === undefined ? {} : { summary: node.summary }),
  };
}

/** Score one rep. Pure. */
export function scoreRep(request: ScoreRequest): RepScore {
  const { scenario, facts } = request;
  const evidence = buildEvidence(request);
  const pre =
    request.assessPre === false
      ? []
      : scenario.pre.map((node) => evaluateCheck(node, evidence.pre, facts));
  const checks = scenario.post.map((node) => evaluateCheck(node, evidence.post, facts));
  const observations = scenario.observe.map((node) => observe(node, evidence.post, facts));
  const failing = checks.filter((check) => check.outcome === 'fail').map((check) => check.detail);
  const broken = [...pre, ...checks].flatMap(brokenChecks).map((check) => `bug: ${check.detail}`);
  const notAssessed = [...pre, ...checks]
    .filter((check) => check.notAssessed === true)
    .map((check) => check.id);

  let verdict: Verdict;
  let reasons: string[];
  let wouldFail: string[] = [];
  const preProblems = pre.filter((check) => check.outcome !== 'pass');
  if (request.runner.kind === 'indeterminate') {
    verdict = 'indeterminate';
    reasons = [`runner: indeterminate at ${request.runner.stage}: ${request.runner.reason}`];
    wouldFail = failing;
  } else if (preProblems.length > 0) {
    verdict = 'indeterminate';
    reasons = preProblems.map(
      (check) =>
        `pre-check ${check.detail} — ${check.outcome === 'fail' ? 'the fixture is wrong, so the session tells nothing' : 'the fixture could not be checked'}`,
    );
    wouldFail = failing;
  } else {
    const judged =
      request.judgeAssessedOnly === true
        ? checks.filter((check) => check.notAssessed !== true)
        : checks;
    if (judged.length === 0) {
      verdict = 'indeterminate';
      reasons = ['no check could be assessed with the evidence given'];
    } else {
      const outcome = allOf(judged.map((check) => check.outcome));
      verdict = outcome === 'undecided' ? 'indeterminate' : outcome;
      reasons = judged.filter((check) => check.outcome === outcome).map((check) => check.detail);
    }
  }
  const metrics = packMetricValues(scenario.config.packs ?? [], evidence.post, facts);
  return {
    schemaVersion: SCORE_SCHEMA_VERSION,
    scenario: scenario.id,
    verdict,
    reasons: [...reasons, ...broken],
    wouldFail,
    runner: request.runner,
    values: evidence.post.reply?.values ?? {},
    pre,
    checks,
    observations,
    notAssessed,
    ...(Object.keys(metrics).length === 0 ? {} : { metrics }),
  };
}
