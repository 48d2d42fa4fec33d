/**
 * The authoring room's extension point. Scenario templates a pack offers
 * `redgreen scenario new`: a working scenario folder for that pack's
 * fixtures and policies, to edit and lint; without one, `scenario new`
 * scaffolds only from a skill folder (`--skill`). And the old scenario
 * formats a pack migrates (`redgreen scenario migrate`). installPacks fills
 * this from the installed packs before any command runs.
 */
import type { InputError } from '../lib/input-error.js';
import type { Result } from '../lib/result.js';

export interface ScenarioTemplate {
  /** What the template scaffolds, for `scenario new --help`. */
  readonly summary: string;
  /**
   * The folder's files (paths relative to it) for a scenario `id`;
   * `schemaPath` is the published scenario schema relative to the folder.
   */
  readonly files: (id: string, schemaPath: string) => Promise<Readonly<Record<string, string>>>;
}

/** An old scenario format a pack converts into one scenario.json. */
export interface ScenarioMigration {
  /** The file beside scenario.json that marks a scenario of this format; removed once migrated. */
  readonly oldFile: string;
  /** The new scenario file from the old ones' JSON, or the input that does not fit. */
  readonly migrate: (input: {
    readonly scenarioFile: string;
    readonly scenario: unknown;
    readonly oldFile: string;
    readonly old: unknown;
    readonly scenarioDir: string;
  }) => Result<Record<string, unknown>, InputError>;
}

/** What a pack adds to the authoring room. */
export interface AuthoringExtension {
  readonly templates?: readonly ScenarioTemplate[];
  readonly migrations?: readonly ScenarioMigration[];
}

const registered: ScenarioTemplate[] = [];
const migrations: ScenarioMigration[] = [];

export function registerAuthoringExtension(extension: AuthoringExtension): void {
  registered.push(...(extension.templates ?? []));
  for (const migration of extension.migrations ?? []) {
    if (migrations.some((known) => known.oldFile === migration.oldFile)) {
      throw new Error(`two packs migrate scenarios marked by ${migration.oldFile}`);
    }
    migrations.push(migration);
  }
}

/** The old formats the installed packs migrate, in installation order. */
export function scenarioMigrations(): readonly ScenarioMigration[] {
  return migrations;
}

/** The template `scenario new` writes without `--skill`: the first installed pack's. */
export function defaultScenarioTemplate(): ScenarioTemplate | undefined {
  return registered[0];
}
