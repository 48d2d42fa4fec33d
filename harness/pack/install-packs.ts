/**
 * The packs this process knows. The composition root installs them once,
 * before any command runs; each room's extension point is filled from here,
 * so no core module imports a pack.
 */

import { registerAuthoringExtension } from '../authoring/scenario-templates.js';
import { registerCampaignExtension } from '../campaign/campaign-extensions.js';
import { registerCheckExtension } from '../check/check-extensions.js';
import { registerCliExtensions, setDefaultRecipeSource } from '../cli/cli-extensions.js';
import { registerFixtureExtension } from '../fixture/extensions.js';
import { defaultRecipeName } from '../fixture/recipe.js';
import { registerScriptedBrains } from '../model-server/policies/registry.js';
import { registerScenarioExtension } from '../scenario/scenario-extensions.js';
import { registerScoreContribution } from '../score/score-registry.js';
import type { Pack } from './pack.js';

const installed = new Map<string, Pack>();

/** Installs packs; installing the same pack again is a no-op, two packs of one name a bug. */
export function installPacks(packs: readonly Pack[]): void {
  setDefaultRecipeSource(defaultRecipeName);
  for (const pack of packs) {
    const known = installed.get(pack.name);
    if (known === pack) continue;
    if (known !== undefined) throw new Error(`two packs are named ${pack.name}`);
    installed.set(pack.name, pack);
    if (pack.brains !== undefined) registerScriptedBrains(pack.brains);
    registerFixtureExtension(pack.name, pack.fixture ?? {});
    registerCliExtensions(pack.name, pack.cli ?? {});
    registerAuthoringExtension(pack.authoring ?? {});
    registerScoreContribution(pack.name, pack.score ?? {});
    registerCampaignExtension(pack.name, pack.campaign ?? {});
    registerScenarioExtension(pack.name, pack.scenario ?? {});
    if (pack.check !== undefined) registerCheckExtension(pack.name, pack.check);
  }
}

/** Every installed pack, in installation order. */
export function installedPacks(): readonly Pack[] {
  return [...installed.values()];
}

/** The installed pack of that name, if any. */
export function installedPack(name: string): Pack | undefined {
  return installed.get(name);
}
