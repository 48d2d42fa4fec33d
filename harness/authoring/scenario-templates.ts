/**
 * Scenario templates a pack offers `redgreen scenario new`: a working
 * scenario folder for that pack's fixtures and policies, to edit and lint.
 * The composition root fills this from the installed packs; without one,
 * `scenario new` scaffolds only from a skill folder (`--skill`).
 */

export interface ScenarioTemplate {
  /** What the template scaffolds, for `scenario new --help`. */
  readonly summary: string;
  /**
   * The folder's files (paths relative to it) for a scenario `id`;
   * `schemaPath` is the published scenario schema relative to the folder.
   */
  readonly files: (id: string, schemaPath: string) => Promise<Readonly<Record<string, string>>>;
}

const registered: ScenarioTemplate[] = [];

export function registerScenarioTemplates(templates: readonly ScenarioTemplate[]): void {
  registered.push(...templates);
}

/** The template `scenario new` writes without `--skill`: the first installed pack's. */
export function defaultScenarioTemplate(): ScenarioTemplate | undefined {
  return registered[0];
}
