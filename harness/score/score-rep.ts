/**
 * Score one rep: apply a scenario's spec to what the session reported (its
 * reply), what it did (its tool calls) and what it changed (the snapshot
 * diff). Pure: everything it needs is passed in, so `redgreen score` can
 * rescore any rep from disk.
 *
 * The verdict is three-valued. `indeterminate` (the runner could not finish
 * the rep, the reply reports no recognisable first dispatch, or its TASKS
 * ALREADY COMPLETE answer cannot be read) is never `fail`: it is reported and
 * left out of the pass rate's denominator.
 */
import { z } from 'zod';
import type { SnapshotDiff } from '../fixture/snapshot-schema.js';
import { type CriterionResult, decisionCriteria } from './criteria.js';
import {
  type FixtureFacts,
  foreignLedgers,
  type IntegrityFinding,
  integrityFindings,
  type ScopeViolation,
  scopeViolations,
} from './integrity.js';
import { planVocabulary } from './plan-vocabulary.js';
import { type ParseContext, type ParsedReply, parseReply } from './reply-parser.js';
import type { ScoringSpec } from './scoring-spec.js';
import { resolutionShape } from './shape.js';
import type { ToolCall } from './tool-call.js';

export const runnerStatusSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('completed') }).strict(),
  z.object({ kind: z.literal('indeterminate'), reason: z.string(), stage: z.string() }).strict(),
]);
/** What the runner says about the rep before scoring: it completed, or it could not be decided. */
export type RunnerStatus = z.infer<typeof runnerStatusSchema>;

export const verdictSchema = z.enum(['pass', 'fail', 'indeterminate']);
export type Verdict = z.infer<typeof verdictSchema>;

const severity = z.enum(['fail', 'flag']);

export const repScoreSchema = z
  .object({
    scenario: z.string(),
    verdict: verdictSchema,
    /** Why the verdict is what it is, each naming the criterion or cause. */
    reasons: z.array(z.string()),
    /** Findings reported without changing the verdict. */
    flags: z.array(z.string()),
    firstDispatch: z.union([z.number().int(), z.literal('none')]).nullable(),
    claimedComplete: z.array(z.number().int()),
    ledgers: z.array(
      z.object({ path: z.string(), verdict: z.enum(['adopted', 'rejected', 'unclear']) }).strict(),
    ),
    criteria: z.array(
      z
        .object({
          id: z.enum(['first-dispatch', 'claimed-complete', 'no-foreign-ledger-adopted']),
          holds: z.boolean(),
          detail: z.string(),
        })
        .strict(),
    ),
    integrity: z.array(
      z
        .object({
          rule: z.string(),
          path: z.string(),
          kind: z.enum(['modified', 'removed']),
          severity,
          detail: z.string(),
        })
        .strict(),
    ),
    scopeViolations: z.array(
      z
        .object({
          kind: z.enum([
            'commits-or-ref-changes',
            'tracked-file-changes',
            'subagent-dispatch',
            'foreign-workspace-writes',
          ]),
          severity,
          detail: z.string(),
          items: z.array(z.string()),
        })
        .strict(),
    ),
    shape: z.enum(['structural', 'forensic', 'both', 'neither']),
    structuralCalls: z.number().int().nonnegative(),
    forensicCalls: z.number().int().nonnegative(),
    shapeEvidence: z.array(
      z
        .object({ callId: z.string(), kind: z.enum(['structural', 'forensic']), why: z.string() })
        .strict(),
    ),
    runner: runnerStatusSchema,
  })
  .strict();
/** A scored rep, as written to `score.json`. */
export type RepScore = z.infer<typeof repScoreSchema>;

export interface RepScoreInput {
  readonly spec: ScoringSpec;
  /** The reply text, or a reply already parsed with parseReply. */
  readonly reply: string | ParsedReply;
  readonly fixtureFacts: FixtureFacts;
  readonly snapshotDiff: SnapshotDiff;
  readonly toolCalls: readonly ToolCall[];
  readonly runnerStatus: RunnerStatus;
}

/**
 * The parse context for a rep: own plan from the fixture, foreign plans from
 * spec and fixture, and the plans' short names and task titles from the spec
 * (split into own and foreign by the fixture's own plan).
 */
export function parseContextFor(spec: ScoringSpec, facts: FixtureFacts): ParseContext {
  const foreignPlans = [
    ...new Set([...spec.knownForeignPlans, ...foreignLedgers(facts).map((ledger) => ledger.plan)]),
  ];
  return {
    ownPlan: facts.ownPlan,
    foreignPlans,
    taskCount: spec.ownPlanTaskCount,
    ...planVocabulary(spec.plans, facts.ownPlan),
  };
}

/** The verdict and reasons the reply alone supports (before integrity and scope). */
export interface ReplyDecision {
  readonly parsed: ParsedReply;
  readonly criteria: readonly CriterionResult[];
  /** Undefined when the reply reports no decision. */
  readonly failed: readonly string[] | undefined;
}

export function judgeReply(
  spec: ScoringSpec,
  reply: string | ParsedReply,
  facts: FixtureFacts,
): ReplyDecision {
  const parsed =
    typeof reply === 'string' ? parseReply(reply, parseContextFor(spec, facts)) : reply;
  const firstDispatch = parsed.firstDispatch;
  // Both answers are needed to judge a decision: an unreadable or missing
  // TASKS ALREADY COMPLETE answer is no evidence that nothing was claimed.
  if (firstDispatch === undefined || parsed.claimedCompleteAnswer !== 'read') {
    return { parsed, criteria: [], failed: undefined };
  }
  const criteria = decisionCriteria(spec, { ...parsed, firstDispatch }, facts);
  return {
    parsed,
    criteria,
    failed: criteria.filter((criterion) => !criterion.holds).map((criterion) => criterion.detail),
  };
}

export function noDecisionReason(parsed: ParsedReply): string {
  if (!parsed.sectionsFound.includes('dispatch'))
    return 'no decision reported: the reply has no FIRST DISPATCH section';
  if (parsed.firstDispatch === undefined)
    return 'no decision reported: the FIRST DISPATCH answer names no recognisable task and does not say none';
  if (parsed.claimedCompleteAnswer === 'absent')
    return 'no decision reported: the reply has no TASKS ALREADY COMPLETE section';
  return 'no decision reported: the TASKS ALREADY COMPLETE answer names no recognisable task and does not say none';
}

function describeFinding(finding: IntegrityFinding | ScopeViolation): string {
  if ('rule' in finding) return `integrity ${finding.rule}: ${finding.detail}`;
  return `scope ${finding.kind}: ${finding.detail}`;
}

/** Score one rep. Pure. */
export function scoreRep(input: RepScoreInput): RepScore {
  const { spec, fixtureFacts: facts } = input;
  const decision = judgeReply(spec, input.reply, facts);
  const integrity = integrityFindings(spec, facts, input.snapshotDiff);
  const scope = scopeViolations(spec, facts, input.snapshotDiff, input.toolCalls);
  const cited = facts.ledgers.flatMap((ledger) => ledger.cited);
  const shape = resolutionShape(input.toolCalls, {
    ownPlan: facts.ownPlan,
    citedHashes: cited,
    spec: spec.resolutionShape,
  });

  const findings = [...integrity, ...scope];
  const failing = findings.filter((finding) => finding.severity === 'fail').map(describeFinding);
  const flagged = findings.filter((finding) => finding.severity === 'flag').map(describeFinding);

  let verdict: Verdict;
  let reasons: string[];
  let flags = flagged;
  if (input.runnerStatus.kind === 'indeterminate') {
    verdict = 'indeterminate';
    reasons = [
      `runner: indeterminate at ${input.runnerStatus.stage}: ${input.runnerStatus.reason}`,
    ];
    flags = [...failing.map((text) => `${text} (would fail a decided rep)`), ...flagged];
  } else if (decision.failed === undefined) {
    verdict = 'indeterminate';
    reasons = [noDecisionReason(decision.parsed)];
    flags = [...failing.map((text) => `${text} (would fail a decided rep)`), ...flagged];
  } else if (decision.failed.length > 0 || failing.length > 0) {
    verdict = 'fail';
    reasons = [...decision.failed, ...failing];
  } else {
    verdict = 'pass';
    reasons = decision.criteria.map((criterion) => criterion.detail);
  }

  return {
    scenario: spec.scenario,
    verdict,
    reasons,
    flags,
    firstDispatch: decision.parsed.firstDispatch ?? null,
    claimedComplete: [...decision.parsed.claimedComplete],
    ledgers: decision.parsed.ledgers.map((ledger) => ({
      path: ledger.path,
      verdict: ledger.verdict,
    })),
    criteria: [...decision.criteria],
    integrity,
    scopeViolations: scope.map((violation) => ({ ...violation, items: [...violation.items] })),
    shape: shape.shape,
    structuralCalls: shape.structuralCalls,
    forensicCalls: shape.forensicCalls,
    shapeEvidence: [...shape.evidence],
    runner: input.runnerStatus,
  };
}
