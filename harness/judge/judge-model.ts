/**
 * Which judge answers a scenario's reps: `--model` when given, else the
 * scenario's `judge.model` for a live run and its `judge.offlineModel` for a
 * scripted one. A `scripted:judge-…` id is a scripted judge on redgreen's
 * local model server (no key, no network); any other id is a live model
 * through the Messages API, which needs ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL
 * chooses the endpoint, as for sessions).
 */
import { preflightEndpoint } from '../campaign/preflight.js';
import { pricingTable } from '../estimate/pricing.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { isJudgePolicyName, judgePolicyNames } from '../model-server/judge-policies.js';
import type { JudgeSpec } from '../score/judge-spec.js';

export type JudgeModelChoice =
  | { readonly kind: 'scripted'; readonly id: string; readonly policy: string }
  | { readonly kind: 'live'; readonly id: string; readonly baseUrl: string | undefined };

const SCRIPTED = 'scripted:';

export function chooseJudgeModel(options: {
  readonly requested: string | undefined;
  /** What named the requested judge, for its errors (default `--model`). */
  readonly requestedBy?: string;
  readonly spec: Pick<JudgeSpec, 'model' | 'offlineModel'>;
  /** Whether the sessions were scripted (an offline run). */
  readonly runScripted: boolean;
  readonly env: NodeJS.ProcessEnv;
  /** The scenario file, to blame for a model it names. */
  readonly scenarioFile: string;
}): Result<JudgeModelChoice, InputError> {
  const { requested, spec } = options;
  const id = requested ?? (options.runScripted ? spec.offlineModel : spec.model);
  const source =
    requested !== undefined
      ? (options.requestedBy ?? '--model')
      : `${options.scenarioFile}: judge.${options.runScripted ? 'offlineModel' : 'model'}`;
  if (id.startsWith(SCRIPTED)) {
    const policy = id.slice(SCRIPTED.length);
    if (!isJudgePolicyName(policy)) {
      return err(
        inputError(
          source,
          `"${id}" is not a scripted judge`,
          `use one of ${judgePolicyNames.map((name) => SCRIPTED + name).join(', ')}`,
        ),
      );
    }
    return ok({ kind: 'scripted', id, policy });
  }
  if ((options.env.ANTHROPIC_API_KEY ?? '').trim() === '') {
    return err(
      inputError(
        source,
        `"${id}" is a live model but ANTHROPIC_API_KEY is not set`,
        'export ANTHROPIC_API_KEY, or judge offline with --model scripted:judge-agree',
      ),
    );
  }
  const baseUrl = options.env.ANTHROPIC_BASE_URL?.trim();
  return ok({
    kind: 'live',
    id,
    baseUrl: baseUrl === undefined || baseUrl === '' ? undefined : baseUrl,
  });
}

/**
 * One cheap request to each live judge before any judgement is asked, as a
 * live run does for its model: a refused key, an unknown model or an
 * endpoint that cannot be reached is bad input, not a run of failed
 * judgements. Returns the notes of busy endpoints that answered.
 */
export async function preflightJudges(
  choices: Iterable<JudgeModelChoice>,
  env: NodeJS.ProcessEnv,
): Promise<Result<string[], InputError>> {
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const choice of choices) {
    if (choice.kind !== 'live' || seen.has(choice.id)) continue;
    seen.add(choice.id);
    const reached = await preflightEndpoint({
      model: choice.id,
      baseUrl: choice.baseUrl,
      apiKey: env.ANTHROPIC_API_KEY ?? '',
    });
    if (!reached.ok) return reached;
    if (reached.value.note !== undefined) notes.push(reached.value.note);
  }
  return ok(notes);
}

/**
 * `--max-cost` with a live judge the price table does not know is refused:
 * its cost would be null, count for nothing, and the limit would not hold.
 */
export function refuseUnpricedJudges(
  choices: Iterable<JudgeModelChoice>,
  maxCostUsd: number | null,
): Result<void, InputError> {
  if (maxCostUsd === null) return ok(undefined);
  const priced = pricingTable().models;
  for (const choice of choices) {
    if (choice.kind === 'live' && !Object.hasOwn(priced, choice.id)) {
      return err(
        inputError(
          `--max-cost ${maxCostUsd}`,
          `the judge "${choice.id}" has no price in harness/estimate/pricing.json, so its cost cannot count toward the limit`,
          'add its price to harness/estimate/pricing.json, judge with a priced model, or drop --max-cost',
        ),
      );
    }
  }
  return ok(undefined);
}
