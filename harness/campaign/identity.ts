import type { FixtureFingerprint } from '../fixture/index.js';
import { canonicalJson } from '../lib/canonical-json.js';
import { sha256Hex } from '../lib/hash.js';
import { fixtureRecord } from '../scenario/resolve-scenario.js';
import { combinedIdentity } from '../scenario/scenario-identity.js';
import { identityFieldsOf } from '../score/score-registry.js';
import type { ResolvedCampaign } from './load-campaign.js';
import type { CampaignModel, ModelAxis } from './model-axis.js';
import { displayBaseUrl } from './model-choice.js';

export interface IdentityInputs {
  readonly campaign: ResolvedCampaign;
  readonly models: ModelAxis;
  readonly engine: string;
  /** How model-issued commands were confined: a different sandbox is a different environment. */
  readonly sandbox: string;
  readonly harness: string;
  readonly trees: ReadonlyMap<string, string>;
  /** A library arm's plugin name (its skills are listed qualified by it), by arm. */
  readonly plugins?: ReadonlyMap<string, string> | undefined;
  readonly fixtures: ReadonlyMap<string, FixtureFingerprint>;
}

/**
 * The campaign identity: the session identity and the hash of each scenario
 * (scenario-identity.ts), so reps scored with other checks are never
 * adopted. A results directory adopts only reps of its own identity.
 */
export function campaignIdentity(inputs: IdentityInputs): { session: string; campaign: string } {
  const session = sessionIdentity(inputs);
  return {
    session,
    campaign: combinedIdentity(session, inputs.campaign.scenarios),
  };
}

/**
 * The session identity: a hash of everything a session depends on (each
 * model, its name and endpoint, backend and engine version, harness version, limits, seed, each
 * arm's skill tree, the prompt and its variables, the stop mode, the
 * scripted user's answers, the fixtures, the `--only` subset), and of nothing it does not (reps,
 * concurrency, shard, cost cap, gates, checks: a rescore handles those). It is
 * what the campaign identity was before scenario hashes joined it, so a
 * directory from then still resumes (prepare-run.ts).
 */
export function sessionIdentity(inputs: IdentityInputs): string {
  const { campaign } = inputs;
  const { maxCostUsd: _notPartOfIdentity, ...sessionLimits } = campaign.limits;
  return sha256Hex(
    canonicalJson({
      // A subset run (--only) is its own identity; a whole-campaign identity is as it always was.
      ...(campaign.only === null ? {} : { only: campaign.only }),
      campaign: campaign.config.id,
      ...modelIdentity(inputs.models),
      backend: campaign.backend,
      // Several engines hash each (and `engine` each one's version); one hashes as it always did.
      ...(campaign.engines.length > 1 ? { engines: campaign.engines } : {}),
      engine: inputs.engine,
      sandbox: inputs.sandbox,
      harness: inputs.harness,
      seed: inputs.models.all.some((model) => model.choice.kind === 'scripted')
        ? campaign.seed
        : null,
      limits: sessionLimits,
      arms: campaign.arms.map((arm) => ({
        name: arm.name,
        role: arm.role,
        layout: arm.layout,
        tree: inputs.trees.get(arm.name),
        // A library arm is installed as a plugin (under a name the tree need not hold: a
        // manifest-less library's is `library.name`); one-folder arms hash as before.
        ...(arm.library === undefined
          ? {}
          : { installed: 'library', plugin: inputs.plugins?.get(arm.name) ?? null }),
      })),
      scenarios: campaign.scenarios.map((scenario) => ({
        id: scenario.id,
        ...identityFieldsOf(scenario.config),
        fixture: fixtureRecord(scenario.config),
        prompt: sha256Hex(scenario.prompt.source),
        ...(Object.keys(scenario.compiled.promptVariables).length === 0
          ? {}
          : { promptVariables: scenario.compiled.promptVariables }),
        // Only a non-default stop mode enters the hash, so identities from before it stay valid.
        ...(scenario.config.stop === 'report' ? {} : { stop: scenario.config.stop }),
        // What the session is offered and told besides the prompt; absent, identities stay as they were.
        ...(scenario.config.tools === undefined ? {} : { tools: scenario.config.tools }),
        ...(scenario.config.instructions === undefined
          ? {}
          : { instructions: scenario.config.instructions }),
        // The parts of the fixture's .claude/ the session is given (their content is the fixture's).
        ...(scenario.config.claudeDir === undefined
          ? {}
          : { claudeDir: scenario.config.claudeDir }),
        // The scripted user's answers change the session; absent, identities stay as they were.
        ...(scenario.config.user === undefined ? {} : { user: scenario.config.user }),
      })),
      fixtures: [...inputs.fixtures.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, print]) => ({
          key,
          head: print.head,
          untracked: print.untracked.map((file) => [file.path, file.sha256]),
        })),
    }),
  );
}

/** Where a model's sessions go, as the identity records it. */
function endpointText(model: CampaignModel): string {
  if (model.choice.kind === 'scripted') return 'scripted';
  return model.choice.baseUrl === undefined ? 'default' : displayBaseUrl(model.choice.baseUrl);
}

/**
 * The model part of the identity. One model at the default endpoint (or a
 * scripted one) hashes as it always did (`model`, `endpoint`), so existing
 * results directories resume; several models, or a live one on an endpoint
 * profile, hash each model's name, id, endpoint and what the profile sends
 * (provider, region, project, auth, headers). Pricing and concurrency limits
 * change no session and are left out.
 */
function modelIdentity(axis: ModelAxis): Record<string, unknown> {
  const only = axis.all[0];
  const profiled = (model: CampaignModel): boolean =>
    model.choice.kind === 'live' && model.endpoint !== null;
  if (!axis.multi && only !== undefined && !profiled(only)) {
    return { model: only.choice.id, endpoint: endpointText(only) };
  }
  return {
    models: axis.all.map((model) => ({
      name: model.name,
      id: model.choice.id,
      ...(model.engine === undefined ? {} : { engine: model.engine }),
      endpoint: endpointText(model),
      ...(profiled(model) && model.endpoint !== null
        ? {
            profile: {
              provider: model.endpoint.provider,
              region: model.endpoint.region,
              project: model.endpoint.project,
              auth: model.endpoint.auth,
              headers: model.endpoint.headers,
            },
          }
        : {}),
    })),
  };
}
