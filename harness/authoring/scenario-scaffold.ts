/**
 * `redgreen scenario new <id>`: write a working scenario to start from, the
 * files of the scenario template an installed pack offers
 * (authoring/scenario-templates.ts), which `redgreen scenario lint` proves.
 * Nothing is overwritten.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SCENARIO_SCHEMA_FILE } from '../campaign/file-schemas.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { packageRoot } from '../lib/package-root.js';
import { err, ok, type Result } from '../lib/result.js';
import { SCENARIO_ID } from '../score/scenario-schema.js';
import { defaultScenarioTemplate } from './scenario-templates.js';

/** The published scenario schema, relative to a scenario folder, for editors (file-schemas.ts). */
export function schemaPathFrom(dir: string): string {
  return path.relative(dir, path.join(packageRoot(), 'schemas', SCENARIO_SCHEMA_FILE));
}

/** Write the default scenario template's files into `<scenariosDir>/<id>/`; refuses an existing folder. */
export async function scaffoldScenario(
  id: string,
  scenariosDir: string,
): Promise<Result<{ dir: string }, InputError>> {
  const template = defaultScenarioTemplate();
  if (template === undefined) {
    return err(
      inputError(
        'scenario new',
        'no installed pack offers a scenario template',
        "pass --skill <folder> to scaffold a scenario for a skill's folder",
      ),
    );
  }
  return writeScenarioFolder(id, scenariosDir, async (dir) =>
    ok(await template.files(id, schemaPathFrom(dir))),
  );
}

/**
 * Write a new scenario folder `<scenariosDir>/<id>/` from `files` (paths
 * relative to it), whole or not at all: written under a temporary name and
 * renamed into place. Refuses a bad id, a folder that exists, a scenarios
 * folder that does not.
 */
export async function writeScenarioFolder(
  id: string,
  scenariosDir: string,
  files: (
    dir: string,
  ) =>
    | Result<Readonly<Record<string, string>>, InputError>
    | Promise<Result<Readonly<Record<string, string>>, InputError>>,
): Promise<Result<{ dir: string }, InputError>> {
  if (!SCENARIO_ID.test(id)) {
    return err(
      inputError(`id ${id}`, 'is not a scenario id', 'use lower-case letters, digits and dashes'),
    );
  }
  const dir = path.resolve(scenariosDir, id);
  if (existsSync(dir))
    return err(inputError(dir, 'already exists', 'choose another id, or edit that scenario'));
  if (!existsSync(path.resolve(scenariosDir))) {
    return err(
      inputError(
        '--dir',
        `${scenariosDir} does not exist`,
        'create it, or pass the folder that holds your scenarios',
      ),
    );
  }
  const contents = await files(dir);
  if (!contents.ok) return contents;
  const partial = `${dir}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  for (const [file, text] of Object.entries(contents.value)) {
    await mkdir(path.dirname(path.join(partial, file)), { recursive: true });
    await writeFile(path.join(partial, file), text);
  }
  await rename(partial, dir);
  return ok({ dir });
}
