/**
 * Score a standalone reply (hand adjudication, replies gathered outside a
 * redgreen run) with the reply criteria only. Without a transcript or
 * snapshots, artifact integrity, scope and resolution shape cannot be
 * assessed, and the result says so.
 *
 * The plans come from the scenario's spec (its own plan, its known foreign
 * plans and ledgers), so no fixture is needed.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import type { FixtureFacts } from './integrity.js';
import { parseReplyFile } from './reply-file.js';
import { judgeReply, noDecisionReason, verdictSchema } from './score-rep.js';
import { loadScoringSpec, type ScoringSpec } from './scoring-spec.js';

export const NOT_ASSESSED = ['integrity', 'scope', 'resolution shape'] as const;

export const standaloneScoreSchema = z
  .object({
    scenario: z.string(),
    ownPlan: z.string(),
    verdict: verdictSchema,
    reasons: z.array(z.string()),
    firstDispatch: z.union([z.number().int(), z.literal('none')]).nullable(),
    claimedComplete: z.array(z.number().int()),
    ledgers: z.array(
      z.object({ path: z.string(), verdict: z.enum(['adopted', 'rejected', 'unclear']) }),
    ),
    toolUses: z.number().int().nullable(),
    notAssessed: z.array(z.string()),
    note: z.string(),
  })
  .strict();
export type StandaloneScore = z.infer<typeof standaloneScoreSchema>;

/** Fixture facts as far as the spec knows them: its own plan and its known ledgers, no cited hashes. */
export function factsFromSpec(spec: ScoringSpec, ownPlan: string = spec.ownPlan): FixtureFacts {
  return {
    ownPlan,
    ledgers: spec.knownLedgers.map((ledger) => ({
      path: ledger.path,
      plan: ledger.plan,
      cited: [],
    })),
  };
}

/** Score a reply's text (bare, or reply.md with its tool_uses first line) against a spec. Pure. */
export function scoreStandaloneReply(
  spec: ScoringSpec,
  content: string,
  ownPlan?: string,
): StandaloneScore {
  const file = parseReplyFile(content);
  const facts = factsFromSpec(spec, ownPlan);
  const specForPlan: ScoringSpec =
    ownPlan === undefined
      ? spec
      : { ...spec, ownPlan, knownForeignPlans: [...spec.knownForeignPlans, spec.ownPlan] };
  const decision = judgeReply(specForPlan, file.reply, facts);
  const verdict =
    decision.failed === undefined ? 'indeterminate' : decision.failed.length > 0 ? 'fail' : 'pass';
  const reasons =
    decision.failed === undefined
      ? [noDecisionReason(decision.parsed)]
      : decision.failed.length > 0
        ? [...decision.failed]
        : decision.criteria.map((criterion) => criterion.detail);
  return {
    scenario: spec.scenario,
    ownPlan: facts.ownPlan,
    verdict,
    reasons,
    firstDispatch: decision.parsed.firstDispatch ?? null,
    claimedComplete: [...decision.parsed.claimedComplete],
    ledgers: decision.parsed.ledgers.map((ledger) => ({
      path: ledger.path,
      verdict: ledger.verdict,
    })),
    toolUses: file.toolUses ?? null,
    notAssessed: [...NOT_ASSESSED],
    note: 'reply criteria only: no transcript or snapshots, so integrity, scope and resolution shape are not assessed',
  };
}

export interface ScoreReplyRequest {
  readonly scenario: string;
  readonly replyPath: string;
  readonly ownPlan?: string;
  /** Defaults to the scenarios folder redgreen ships. */
  readonly scenariosDir?: string;
}

/** Load the spec and the reply file, then score. Bad input comes back as an InputError. */
export async function scoreReplyFile(
  request: ScoreReplyRequest,
): Promise<Result<StandaloneScore, InputError>> {
  const spec = loadScoringSpec(request.scenario, request.scenariosDir);
  if (!spec.ok) return spec;
  if (request.ownPlan !== undefined && request.ownPlan.trim() === '') {
    return err(
      inputError(
        '--plan',
        'is empty',
        'pass the own plan path, e.g. docs/plans/2026-07-06-widget-export.md',
      ),
    );
  }
  let content: string;
  try {
    content = await readFile(request.replyPath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory'
          : `cannot read (${code ?? String(error)})`;
    return err(
      inputError(
        request.replyPath,
        problem,
        'pass the path of a reply file (reply.md or a bare reply)',
      ),
    );
  }
  return ok(scoreStandaloneReply(spec.value, content, request.ownPlan));
}

/** The human-readable report `redgreen score-reply` prints. */
export function formatStandaloneScore(score: StandaloneScore): string {
  const dispatch =
    score.firstDispatch === null
      ? '(not recognised)'
      : score.firstDispatch === 'none'
        ? 'none'
        : `Task ${score.firstDispatch}`;
  const claimed =
    score.claimedComplete.length === 0
      ? 'none'
      : score.claimedComplete.map((n) => `Task ${n}`).join(', ');
  const lines = [
    `verdict: ${score.verdict}`,
    `scenario: ${score.scenario} (own plan ${score.ownPlan})`,
    `first dispatch: ${dispatch}`,
    `claimed complete: ${claimed}`,
    ...(score.ledgers.length === 0
      ? []
      : ['ledgers:', ...score.ledgers.map((ledger) => `  ${ledger.path}: ${ledger.verdict}`)]),
    ...(score.toolUses === null ? [] : [`tool_uses: ${score.toolUses}`]),
    'reasons:',
    ...score.reasons.map((reason) => `  - ${reason}`),
    `not assessed: ${score.notAssessed.join(', ')} (no transcript or snapshots)`,
  ];
  return `${lines.join('\n')}\n`;
}
