/**
 * `redgreen scenario migrate <dir>`: turn a scenario of an old format into
 * one `scenario.json`. What an old format is and how it converts is a pack's
 * (scenario-templates.ts: a migration names the old file beside
 * scenario.json that marks its format); this reads the files, keeps the old
 * ones and writes the new one.
 *
 * The old scenario.json and the marking file are first copied aside as
 * `*.pre-migration` (a migration that finds such a copy refuses: it never
 * overwrites one); the new file is written beside them and renamed into
 * place; only then is the marking file removed.
 */
import { constants, existsSync, readFileSync } from 'node:fs';
import { copyFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { scenarioMigrations } from './scenario-templates.js';

function readJsonFile(file: string): Result<unknown, InputError> {
  try {
    return ok(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    return err(
      inputError(file, `cannot be read as JSON (${(error as Error).message})`, 'fix the file'),
    );
  }
}

/** What the old files are kept as, beside the new scenario.json. */
export const BACKUP_SUFFIX = '.pre-migration';

/** Migrate the old-format scenario in `dir` in place. */
export async function migrateScenario(
  dir: string,
): Promise<Result<{ file: string; backups: string[] }, InputError>> {
  const migrations = scenarioMigrations();
  const migration = migrations.find((known) => existsSync(path.join(dir, known.oldFile)));
  if (migration === undefined) {
    const names = migrations.map((known) => known.oldFile);
    return err(
      inputError(
        dir,
        names.length === 0
          ? 'cannot be migrated: no installed pack migrates an old scenario format'
          : `has no ${names.join(' or ')}, so it is not an old-format scenario`,
        'nothing to migrate',
      ),
    );
  }
  const oldFile = path.join(dir, migration.oldFile);
  const scenarioFile = path.join(dir, 'scenario.json');
  const scenarioJson = readJsonFile(scenarioFile);
  if (!scenarioJson.ok) return scenarioJson;
  const oldJson = readJsonFile(oldFile);
  if (!oldJson.ok) return oldJson;
  const migrated = migration.migrate({
    scenarioFile,
    scenario: scenarioJson.value,
    oldFile,
    old: oldJson.value,
    scenarioDir: path.resolve(dir),
  });
  if (!migrated.ok) return migrated;
  const backups = [scenarioFile, oldFile].map((file) => ({
    file,
    backup: `${file}${BACKUP_SUFFIX}`,
  }));
  const taken = backups.find(({ backup }) => existsSync(backup));
  if (taken !== undefined) {
    return err(
      inputError(
        taken.backup,
        'already exists (a backup of an earlier migration), and migrate never overwrites one',
        'move it out of the scenario folder, then migrate again',
      ),
    );
  }
  // The old files are copied aside first, so nothing the user had is lost.
  for (const { file, backup } of backups) await copyFile(file, backup, constants.COPYFILE_EXCL);
  const temp = `${scenarioFile}.migrating-${process.pid}`;
  await writeFile(temp, `${JSON.stringify(migrated.value, null, 2)}\n`);
  await rename(temp, scenarioFile);
  await rm(oldFile);
  return ok({ file: scenarioFile, backups: backups.map(({ backup }) => backup) });
}
