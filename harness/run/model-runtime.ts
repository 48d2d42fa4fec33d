import pLimit from 'p-limit';
import { credentialVariables } from '../campaign/endpoint-profile.js';
import type { CampaignModel, ModelAxis } from '../campaign/model-axis.js';
import { preflightEndpoint } from '../campaign/preflight.js';
import { priceSession } from '../estimate/model-pricing.js';
import type { InputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import {
  type Brain,
  type FaultRuleInput,
  isPolicyName,
  type ModelServer,
  startModelServer,
} from '../model-server/index.js';
import type { ScheduledRep } from '../schedule/schedule.js';
import type { ModelEndpoint, PriceModel, TokenUsage } from '../session/session-types.js';

/**
 * The models of a run at run time: each model's endpoint (a live endpoint
 * with its key read from the environment by name, or a local model server
 * of its own for a scripted policy), its pricing, the secrets every rep
 * redacts, the one-request preflight of each live endpoint, and the
 * concurrency limit of each endpoint profile.
 */

/** The key sent to the local model server; it is not a secret and unlocks nothing. */
export const OFFLINE_API_KEY = 'redgreen-offline-no-key';

/** What a rep needs of its model. */
export interface RepModel {
  /** The model's name in a campaign of several models, else null. */
  readonly name: string | null;
  /** The endpoint profile its entry names, if any. */
  readonly profile: string | null;
  readonly endpoint: ModelEndpoint;
  readonly price: (usage: TokenUsage | null) => number | null;
  /**
   * Prices one reply of any model the session ran (a seat's tier model too),
   * for the cost limits: the session's model at its pricing, another model by
   * the price table (null when unpriced, or for a scripted stand-in).
   */
  readonly priceModel: PriceModel;
}

export interface ModelBrains {
  /** The model of a scheduled rep (a one-model campaign's reps carry no name). */
  readonly modelOf: (rep: Pick<ScheduledRep, 'model' | 'id'>) => RepModel;
  /** Every credential value of the run, replaced wherever a rep writes. */
  readonly secrets: readonly string[];
  close(): Promise<void>;
}

function liveEndpoint(model: CampaignModel, env: NodeJS.ProcessEnv): ModelEndpoint {
  const { choice, endpoint } = model;
  const value = (name: string): string => (env[name] ?? '').trim();
  const keyEnv = endpoint === null ? 'ANTHROPIC_API_KEY' : endpoint.keyEnv;
  return {
    id: choice.id,
    baseUrl: choice.kind === 'live' ? choice.baseUrl : undefined,
    apiKey: keyEnv === null ? '' : value(keyEnv),
    scripted: false,
    ...(endpoint === null
      ? {}
      : {
          auth: endpoint.auth,
          headers: endpoint.headers,
          ...(endpoint.provider === 'anthropic'
            ? {}
            : {
                provider: {
                  kind: endpoint.provider,
                  region: endpoint.region ?? '',
                  project: endpoint.project,
                  passEnv: Object.fromEntries(endpoint.passEnv.map((name) => [name, value(name)])),
                },
              }),
        }),
  };
}

/**
 * Start each model's brain: a live endpoint as configured, or a local
 * model server per scripted model (its own endpoint, with the run's faults).
 */
export async function startModelBrains(
  axis: ModelAxis,
  options: {
    readonly seed: number;
    readonly faults: readonly FaultRuleInput[];
    readonly env: NodeJS.ProcessEnv;
    /** Brains that are data (a scenario's policy files, a run's recordings), by the policy name they answer. */
    readonly brains?: ReadonlyMap<string, Brain> | undefined;
  },
): Promise<ModelBrains> {
  const servers: ModelServer[] = [];
  const byName = new Map<string, RepModel>();
  const secrets = new Set<string>();
  try {
    for (const model of axis.models) {
      let endpoint: ModelEndpoint;
      if (model.choice.kind === 'scripted') {
        const policy = model.choice.policy;
        const brain = options.brains?.get(policy);
        if (!isPolicyName(policy) && brain === undefined) {
          throw new Error(`unknown policy ${policy}`);
        }
        const server = await startModelServer({
          policy,
          ...(brain === undefined ? {} : { brains: new Map([[policy, brain]]) }),
          seed: options.seed,
          faults: options.faults,
        });
        servers.push(server);
        endpoint = {
          id: model.choice.id,
          baseUrl: server.baseUrl,
          apiKey: OFFLINE_API_KEY,
          scripted: true,
        };
      } else {
        endpoint = liveEndpoint(model, options.env);
        for (const name of credentialVariables(model.endpoint)) {
          const value = (options.env[name] ?? '').trim();
          if (value !== '') secrets.add(value);
        }
      }
      const { pricing } = model;
      const id = model.choice.id;
      byName.set(model.name, {
        name: axis.multi ? model.name : null,
        profile: model.endpoint?.name ?? null,
        endpoint,
        price: (usage) =>
          model.choice.kind === 'scripted' ? null : priceSession(pricing, id, usage),
        priceModel: (modelId, usage) =>
          model.choice.kind === 'scripted' || pricing === 'unpriced'
            ? null
            : priceSession(modelId === id ? pricing : 'table', modelId, usage),
      });
    }
  } catch (error) {
    await Promise.all(servers.map((server) => server.close()));
    throw error;
  }
  const only = axis.models.length === 1 ? axis.models[0]?.name : undefined;
  return {
    modelOf: (rep) => {
      const model = byName.get(rep.model ?? only ?? '');
      if (model === undefined) throw new Error(`rep ${rep.id} names no model of the run`);
      return model;
    },
    secrets: [...secrets],
    close: async () => {
      await Promise.all(servers.map((server) => server.close()));
    },
  };
}

/**
 * One cheap request to each live Messages API endpoint before anything is
 * made: a refused key or an unknown model is bad input naming the key's
 * variable (never its value). With several models, an endpoint that cannot
 * be reached is a note: the other models run, and its reps come out
 * indeterminate (infrastructure). Bedrock and Vertex endpoints are reached
 * by the engine itself and are not checked here.
 */
export async function preflightModels(
  axis: ModelAxis,
  env: NodeJS.ProcessEnv,
): Promise<Result<readonly string[], InputError>> {
  const notes: string[] = [];
  for (const model of axis.models) {
    if (model.choice.kind !== 'live') continue;
    const endpoint = liveEndpoint(model, env);
    if (endpoint.provider !== undefined) {
      notes.push(
        `${model.name}: ${endpoint.provider.kind} endpoint ${model.endpoint?.name} is not checked before the run (the engine reaches it itself); a first session with a bad credential comes out indeterminate`,
      );
      continue;
    }
    const answered = await preflightEndpoint(
      {
        model: endpoint.id,
        baseUrl: endpoint.baseUrl,
        apiKey: endpoint.apiKey,
        ...(endpoint.auth === undefined ? {} : { auth: endpoint.auth }),
        ...(endpoint.headers === undefined ? {} : { headers: endpoint.headers }),
        ...(model.endpoint?.keyEnv ? { keyEnv: model.endpoint.keyEnv } : {}),
        ...(model.endpoint === null
          ? {}
          : { urlInput: `endpoints.${model.endpoint.name}.baseUrl` }),
      },
      undefined,
      axis.multi ? 'note' : 'error',
    );
    if (!answered.ok) return err(answered.error);
    if (answered.value.note !== undefined)
      notes.push(axis.multi ? `${model.name}: ${answered.value.note}` : answered.value.note);
  }
  return ok(notes);
}

/**
 * Run a rep's work within its endpoint profile's concurrency limit (if it
 * has one) and the run's overall limit. The endpoint's slot is taken first,
 * so reps waiting for a busy endpoint hold no overall slot.
 */
export function concurrencyLimiter(
  axis: ModelAxis,
  overall: number,
): <T>(model: string | null, work: () => Promise<T>) => Promise<T> {
  const run = pLimit(overall);
  const perEndpoint = new Map<string, ReturnType<typeof pLimit>>();
  const byModel = new Map<string, ReturnType<typeof pLimit>>();
  for (const model of axis.models) {
    const endpoint = model.endpoint;
    if (endpoint?.concurrency === undefined) continue;
    let limit = perEndpoint.get(endpoint.name);
    if (limit === undefined) {
      limit = pLimit(endpoint.concurrency);
      perEndpoint.set(endpoint.name, limit);
    }
    byModel.set(model.name, limit);
  }
  const only = axis.models.length === 1 ? axis.models[0]?.name : undefined;
  return (model, work) => {
    const endpoint = byModel.get(model ?? only ?? '');
    return endpoint === undefined ? run(work) : endpoint(() => run(work));
  };
}
