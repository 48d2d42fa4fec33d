/**
 * A pack: what one skill's scenarios need and the core does not know. The
 * core (fixture, model server, sessions, score, campaign, judge, report)
 * names no skill; a pack brings one skill's knowledge through the fields
 * below, each the extension point of one room, and nothing else.
 *
 * A pack lives in `packs/<name>/`, imports only the core's public modules,
 * and is installed by the composition root (the CLI, and the test setup)
 * before any command runs. A scenario file names the packs it uses.
 */
import type { AuthoringExtension } from '../authoring/scenario-templates.js';
import type { CampaignExtension } from '../campaign/campaign-extensions.js';
import type { CheckExtension } from '../check/check-extensions.js';
import type { CliExtensions } from '../cli/cli-extensions.js';
import type { FixtureExtension } from '../fixture/extensions.js';
import type { ScriptedBrains } from '../model-server/policies/policy.js';
import type { ScenarioExtension } from '../scenario/scenario-extensions.js';
import type { ScoreContribution } from '../score/score-registry.js';

export interface Pack {
  /** The name a scenario file's `packs` lists: lower-case words joined by dashes. */
  readonly name: string;
  /** One line saying whose knowledge this is, shown by `redgreen doctor`. */
  readonly summary: string;
  /**
   * Model server: scripted policies (each answers as `scripted:<name>`) and
   * the seats that answer the subagents they dispatch.
   */
  readonly brains?: ScriptedBrains;
  /**
   * The fixture room's extension (harness/fixture/extensions.ts): a folder of
   * recipes, the recipe fields and layout files a recipe naming the pack may
   * use, sanity checks, fingerprint fields and placeholder facts.
   */
  readonly fixture?: FixtureExtension;

  /**
   * The command line's extension point (harness/cli/cli-extensions.ts):
   * flags of `redgreen check` and `score-reply` for inputs only this pack's
   * scenarios have, and the `fixture --help` lines of its recipes.
   */
  readonly cli?: CliExtensions;

  /**
   * The scenario authoring room's extension point
   * (harness/authoring/scenario-templates.ts): what `redgreen scenario new`
   * scaffolds without `--skill`, and the old scenario formats
   * `redgreen scenario migrate` converts.
   */
  readonly authoring?: AuthoringExtension;
  /**
   * The score room's part: extractors a report contract may name, check
   * verbs, the scenario fields their data lives in, and what it reads from
   * each dispatch (harness/score/score-registry.ts).
   */
  readonly score?: ScoreContribution;
  /**
   * The campaign room's part (harness/campaign/campaign-extensions.ts): the
   * campaign `redgreen run` runs when none is named.
   */
  readonly campaign?: CampaignExtension;
  /**
   * The scenario room's part (harness/scenario/scenario-extensions.ts):
   * prompt variables valued from the pack's scenario fields, and the check
   * of those fields against the recipe, for the scenarios naming the pack.
   */
  readonly scenario?: ScenarioExtension;
  /**
   * The check room's part (harness/check/check-extensions.ts): what
   * `redgreen check` reads from the inputs the pack's flags give, the facts
   * it overrides, and what the check report adds.
   */
  readonly check?: CheckExtension;
}

const PACK_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** A pack as its folder's index exports it; refuses a name a scenario could not write. */
export function definePack<P extends Pack>(pack: P): P {
  if (!PACK_NAME.test(pack.name)) {
    throw new Error(
      `pack name ${JSON.stringify(pack.name)} is not lower-case words joined by dashes`,
    );
  }
  return pack;
}
