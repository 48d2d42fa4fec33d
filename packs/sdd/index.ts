/**
 * The subagent-driven-development pack: plans and their tasks, workspace
 * ledgers and the commits they cite, dispatches of implementers and
 * reviewers, and the fixtures and scripted brains the SDD campaigns use.
 */
import path from 'node:path';
import { packageRoot } from '../../harness/lib/package-root.js';
import { definePack } from '../../harness/pack/pack.js';
import { legacyMigration } from './authoring/legacy-migration.js';
import { resumeScenarioTemplate } from './authoring/resume-scenario.js';
import { sddBrains } from './brains/index.js';
import { ownPlanCheck } from './check/own-plan.js';
import { ownPlanFlag } from './cli/own-plan-flag.js';
import { sddRecipeHelp } from './cli/recipe-help.js';
import { sddFixture } from './fixture/index.js';
import { sddScenario } from './scenario/index.js';
import { sddScore } from './score/index.js';

export const sddPack = definePack({
  name: 'sdd',
  summary: 'subagent-driven development: plans, tasks, workspace ledgers, dispatches',
  brains: sddBrains,
  fixture: sddFixture,
  cli: { checkFlags: [ownPlanFlag], recipeHelp: sddRecipeHelp },
  authoring: { templates: [resumeScenarioTemplate], migrations: [legacyMigration] },
  score: sddScore,
  campaign: {
    defaultCampaign: path.join(packageRoot(), 'scenarios', 'plan-scoped-workspace.campaign.json'),
  },
  scenario: sddScenario,
  check: ownPlanCheck,
});
