/**
 * Judge one recorded rep from its directory: build its material, and unless
 * its judge.json is current (same key: protocol, rubric, material, model, and
 * a judgement was had) or a refresh is asked for, ask the judge and write
 * judge.json atomically, through the same redaction as every rep file.
 */
import path from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import { writeFileAtomic } from '../lib/atomic-write.js';
import type { JudgeSpec } from '../score/judge-spec.js';
import type { RepScore } from '../score/score-rep.js';
import type { SecretRedactor } from '../session/secret-redactor.js';
import { comparedItems, shadowedOutcomes } from './agreement.js';
import { type CheckOutcome, type JudgeEndpoint, judgeRep } from './ask-judge.js';
import { JUDGEMENT_FILE, type Judgement, readJudgement } from './judgement.js';
import { buildMaterial } from './material.js';
import { readRepMaterialParts } from './material-files.js';
import { judgeEndpointId, judgementKey } from './prompt.js';

export interface RepToJudge {
  readonly id: string;
  readonly dir: string;
  /** The arm's skill copy in the results directory (for `material: skill`). */
  readonly skillDir: string;
  readonly score: RepScore;
}

export interface JudgeWith {
  readonly spec: JudgeSpec;
  readonly client: Anthropic;
  readonly endpoint: JudgeEndpoint;
  readonly redactor: SecretRedactor;
  readonly refresh: boolean;
  /** Aborts a request in flight (a run's second Ctrl-C); the rep is then recorded as not judged. */
  readonly signal?: AbortSignal | undefined;
}

/** What a scripted judge is told of each item: its check's outcome, or `judge` for an item no check of its own decides. */
function checksForJudge(score: RepScore, ids: readonly string[]): Record<string, CheckOutcome> {
  const own = new Set(comparedItems(score, ids));
  const outcomes: Record<string, CheckOutcome> = shadowedOutcomes(score, ids);
  for (const id of ids) if (!own.has(id)) outcomes[id] = 'judge';
  return outcomes;
}

export type RepJudged =
  | { readonly kind: 'current'; readonly judgement: Judgement }
  | { readonly kind: 'judged'; readonly judgement: Judgement };

export async function judgeRepDirectory(rep: RepToJudge, judge: JudgeWith): Promise<RepJudged> {
  const parts = await readRepMaterialParts(rep.dir, rep.skillDir, judge.spec.material);
  const material = buildMaterial(parts, judge.spec.material);
  const key = judgementKey(
    judge.spec,
    material,
    judge.endpoint.model,
    judgeEndpointId(judge.endpoint),
  );
  if (!judge.refresh) {
    const stored = await readJudgement(rep.dir);
    if (
      stored !== undefined &&
      !(stored instanceof Error) &&
      stored.key === key &&
      stored.status === 'judged'
    ) {
      return { kind: 'current', judgement: stored };
    }
  }
  const judgement = await judgeRep(judge.client, judge.endpoint, {
    repId: rep.id,
    spec: judge.spec,
    material,
    checks: checksForJudge(rep.score, Object.keys(judge.spec.rubric)),
    signal: judge.signal,
  });
  await writeFileAtomic(
    path.join(rep.dir, JUDGEMENT_FILE),
    judge.redactor.redact(`${JSON.stringify(judgement, null, 2)}\n`),
  );
  return { kind: 'judged', judgement };
}
