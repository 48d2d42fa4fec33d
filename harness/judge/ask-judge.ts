/**
 * Ask a judge about one rep through `@anthropic-ai/sdk`: the rubric and the
 * material in cached blocks, a forced call of the judge's tool, the SDK's own
 * retries for 408/409/429/5xx and connection errors. An answer that is not
 * valid against the schema is sent back once with what was wrong; if the
 * second answer is not valid either, every item is recorded unsure with both
 * raw answers kept — never a pass. Usage is summed over the requests and
 * priced at the repository's table (null for a scripted judge).
 *
 * Only a scripted judge on redgreen's own model server gets the checks'
 * outcomes, in a request header (JUDGE_CHECKS_HEADER), because it cannot read
 * the material the way a model does; a live endpoint never receives them.
 * The API key goes to the configured endpoint only, and any error text is
 * stripped of it before it is recorded.
 */
import Anthropic from '@anthropic-ai/sdk';
import { costUsd, pricingTable } from '../estimate/pricing.js';
import { JUDGE_CHECKS_HEADER, sessionHeader } from '../model-server/index.js';
import type { JudgeSpec } from '../score/judge-spec.js';
import { SecretRedactor } from '../session/secret-redactor.js';
import type { TokenUsage } from '../session/session-types.js';
import { applyQuoteRule, JUDGE_TOOL_NAME, judgeVerdictOf, parseJudgeAnswer } from './answer.js';
import type { Judgement } from './judgement.js';
import type { Material } from './material.js';
import { judgeEndpointId, judgementKey, judgeRequest, rubricHash } from './prompt.js';

/** Where judgements are asked for. */
export interface JudgeEndpoint {
  readonly model: string;
  /** The endpoint; undefined for the Anthropic API (ANTHROPIC_BASE_URL is read by the caller and given here). */
  readonly baseUrl: string | undefined;
  readonly apiKey: string;
  /** A scripted judge on redgreen's local model server: the only endpoint given the checks' outcomes. */
  readonly scripted: boolean;
}

/** A shadowed check's outcome, or `judge` for an item only the judge decides (a `judged` check). */
export type CheckOutcome = 'pass' | 'fail' | 'undecided' | 'judge';

export interface JudgeRepRequest {
  readonly repId: string;
  readonly spec: Pick<JudgeSpec, 'rubric' | 'instructions'>;
  readonly material: Material;
  /** The outcomes of the checks the rubric shadows, by id (sent only to a scripted judge). */
  readonly checks: Readonly<Record<string, CheckOutcome>>;
  /** Aborts the request in flight: the judgement is then an error ("aborted"), asked again later. */
  readonly signal?: AbortSignal | undefined;
}

const JUDGE_MAX_RETRIES = 4;
const JUDGE_TIMEOUT_MS = 180_000;

export function judgeClient(endpoint: JudgeEndpoint): Anthropic {
  return new Anthropic({
    apiKey: endpoint.apiKey,
    ...(endpoint.baseUrl === undefined ? {} : { baseURL: endpoint.baseUrl }),
    maxRetries: JUDGE_MAX_RETRIES,
    timeout: JUDGE_TIMEOUT_MS,
  });
}

function addUsage(total: TokenUsage, usage: Anthropic.Usage): TokenUsage {
  return {
    input: total.input + usage.input_tokens,
    output: total.output + usage.output_tokens,
    cacheWrite: total.cacheWrite + (usage.cache_creation_input_tokens ?? 0),
    cacheRead: total.cacheRead + (usage.cache_read_input_tokens ?? 0),
  };
}

function errorText(error: unknown, apiKey: string): string {
  let text: string;
  if (error instanceof Anthropic.APIUserAbortError) {
    text = 'aborted by the user before the judge answered';
  } else if (error instanceof Anthropic.APIError && error.status !== undefined) {
    const body = error.error as { error?: { type?: string; message?: string } } | undefined;
    text = `API error ${error.status}${body?.error?.type ? ` ${body.error.type}` : ''}${body?.error?.message ? `: ${body.error.message}` : ''} after the SDK's retries`;
  } else {
    const message = error instanceof Error ? error.message : String(error);
    text = `${(message.split('\n')[0] ?? message).replace(/\.$/, '')} (after the SDK's retries)`;
  }
  return apiKey === '' ? text : new SecretRedactor([apiKey], '[redacted]').redact(text);
}

/** Ask the judge about one rep and return the judge.json it should be recorded as. */
export async function judgeRep(
  client: Anthropic,
  endpoint: JudgeEndpoint,
  request: JudgeRepRequest,
  now: () => Date = () => new Date(),
): Promise<Judgement> {
  const ids = Object.keys(request.spec.rubric);
  const base = judgeRequest(request.spec, request.material, endpoint.model);
  const headers: Record<string, string> = endpoint.scripted
    ? {
        [sessionHeader]: `judge/${request.repId}`,
        [JUDGE_CHECKS_HEADER]: JSON.stringify(
          Object.fromEntries(ids.map((id) => [id, request.checks[id] ?? 'undecided'])),
        ),
      }
    : {};
  let usage: TokenUsage = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  let estimated = endpoint.scripted;
  let reported: string | null = null;
  const invalidAnswers: string[] = [];
  let messages = base.messages;
  let attempts = 0;
  const record = (
    fields: Pick<Judgement, 'status' | 'error' | 'verdict' | 'items'>,
  ): Judgement => ({
    schemaVersion: 1,
    rep: request.repId,
    key: judgementKey(request.spec, request.material, endpoint.model, judgeEndpointId(endpoint)),
    rubricHash: rubricHash(request.spec),
    materialHash: request.material.hash,
    model: {
      requested: endpoint.model,
      reported,
      scripted: endpoint.scripted,
      endpoint: judgeEndpointId(endpoint),
    },
    ...fields,
    attempts,
    invalidAnswers,
    tokens: attempts === 0 ? null : usage,
    tokensEstimated: estimated,
    costUsd: endpoint.scripted || attempts === 0 ? null : costUsd(endpoint.model, usage),
    pricingAsOf: pricingTable().asOf,
    judgedAt: now().toISOString(),
  });
  const allUnsure = (rationale: string) =>
    ids.map((id) => ({
      id,
      verdict: 'unsure' as const,
      answered: 'unsure' as const,
      quote: '',
      quoteFound: false,
      quotePart: null,
      rationale,
    }));

  while (attempts < 2) {
    let response: Anthropic.Message;
    try {
      attempts += 1;
      response = await client.messages.create(
        { ...base, messages },
        { headers, ...(request.signal === undefined ? {} : { signal: request.signal }) },
      );
    } catch (error) {
      attempts -= 1;
      const why = errorText(error, endpoint.apiKey);
      return record({
        status: 'error',
        error: why,
        verdict: 'unsure',
        items: allUnsure(`no judgement: ${why}`),
      });
    }
    usage = addUsage(usage, response.usage);
    reported = response.model;
    if ((response as { redgreen?: { usage?: string } }).redgreen?.usage === 'estimated') {
      estimated = true;
    }
    const call = response.content.find(
      (block): block is Anthropic.ToolUseBlock =>
        block.type === 'tool_use' && block.name === JUDGE_TOOL_NAME,
    );
    const parsed =
      call === undefined
        ? { ok: false as const, problem: `no call of ${JUDGE_TOOL_NAME}` }
        : parseJudgeAnswer(call.input, ids);
    if (parsed.ok) {
      const items = applyQuoteRule(parsed.items, request.material);
      return record({ status: 'judged', error: null, verdict: judgeVerdictOf(items), items });
    }
    invalidAnswers.push(JSON.stringify(response.content));
    if (attempts >= 2) break;
    const fix = `That answer is not valid: ${parsed.problem}. Call ${JUDGE_TOOL_NAME} again with exactly one entry for each of ${ids.join(', ')}.`;
    messages = [
      ...base.messages,
      { role: 'assistant', content: response.content },
      {
        role: 'user',
        content:
          call === undefined
            ? [{ type: 'text', text: fix }]
            : [{ type: 'tool_result', tool_use_id: call.id, content: fix, is_error: true }],
      },
    ];
  }
  return record({
    status: 'judged',
    error: null,
    verdict: 'unsure',
    items: allUnsure(
      'the judge answered outside the schema twice; recorded as unsure (its raw answers are kept)',
    ),
  });
}
