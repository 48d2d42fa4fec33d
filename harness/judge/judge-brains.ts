/**
 * The endpoints judgements are asked from, one SDK client each: a live model
 * through the Messages API with the user's key, or a scripted judge on
 * redgreen's local model server, started on first use (or one a run already
 * has) and closed at the end. The key is handed to the SDK client for the
 * configured endpoint only.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { type ModelServer, startModelServer } from '../model-server/index.js';
import { type JudgeEndpoint, judgeClient } from './ask-judge.js';
import type { JudgeModelChoice } from './judge-model.js';

/** The key sent to the local model server: not a secret, unlocks nothing. */
const OFFLINE_KEY = 'redgreen-offline-no-key';

export interface JudgeBrain {
  readonly endpoint: JudgeEndpoint;
  readonly client: Anthropic;
}

export class JudgeBrains {
  readonly #env: NodeJS.ProcessEnv;
  readonly #seed: number;
  #localUrl: string | undefined;
  #server: Promise<ModelServer> | undefined;
  readonly #brains = new Map<string, JudgeBrain>();

  /** `localUrl`: a model server already running (a run's), used instead of starting one. */
  constructor(env: NodeJS.ProcessEnv, seed: number, localUrl?: string) {
    this.#env = env;
    this.#seed = seed;
    this.#localUrl = localUrl;
  }

  async brainFor(choice: JudgeModelChoice): Promise<JudgeBrain> {
    const known = this.#brains.get(choice.id);
    if (known !== undefined) return known;
    let endpoint: JudgeEndpoint;
    if (choice.kind === 'live') {
      endpoint = {
        model: choice.id,
        baseUrl: choice.baseUrl,
        apiKey: this.#env.ANTHROPIC_API_KEY ?? '',
        scripted: false,
      };
    } else {
      if (this.#localUrl === undefined) {
        this.#server ??= startModelServer({ policy: 'skill-reader', seed: this.#seed });
        this.#localUrl = (await this.#server).baseUrl;
      }
      endpoint = { model: choice.id, baseUrl: this.#localUrl, apiKey: OFFLINE_KEY, scripted: true };
    }
    const brain = { endpoint, client: judgeClient(endpoint) };
    this.#brains.set(choice.id, brain);
    return brain;
  }

  async close(): Promise<void> {
    if (this.#server !== undefined) await (await this.#server).close();
  }
}
