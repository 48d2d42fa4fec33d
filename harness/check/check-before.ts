/**
 * The before-snapshot of a session scored elsewhere (`check --repo <dir>
 * --layout <name>`): the scenario's fixture in that layout, built afresh (it
 * is deterministic), once the repository has been shown to have started from
 * it. Refused, so no check compares against the wrong start:
 *
 * - a repository whose history does not contain the fixture's HEAD (another
 *   fixture, another scenario, unrelated work);
 * - a layout the repository plainly is not: the files only some layouts
 *   have are, untouched, another layout's (a flat fixture given as scoped),
 *   or are another layout's besides this one's (a scoped fixture given as
 *   flat). A session that removed its own layout's files looks like the
 *   first case too; the error says so, and leaving `--layout` off still
 *   scores it without a before-snapshot.
 */
import path from 'node:path';
import {
  buildFixture,
  formatGateFailure,
  type Snapshot,
  snapshotBuiltFixture,
} from '../fixture/index.js';
import { NO_REPOSITORY_PROGRAMS, runGit } from '../fixture/run-git.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { withTempWorkDir } from '../lib/temp-work-dir.js';
import type { ResolvedScenario } from '../scenario/resolve-scenario.js';

/** A file as a snapshot records it: `path sha256`. */
type FileKey = string;

function fileKeys(snapshot: Snapshot): Set<FileKey> {
  return new Set(Object.entries(snapshot.files).map(([file, entry]) => `${file} ${entry.sha256}`));
}

/** Whether the repository's history contains `head` (it is HEAD or an ancestor of it). */
async function historyContains(
  repo: string,
  head: string,
  repoHead: string | null,
): Promise<boolean> {
  if (repoHead === head) return true;
  if (repoHead === null) return false;
  const found = await runGit(repo, [
    ...NO_REPOSITORY_PROGRAMS,
    'merge-base',
    '--is-ancestor',
    head,
    'HEAD',
  ]);
  return found.exitCode === 0;
}

/** Which layout names, of those whose layout-specific files the repository holds untouched. */
function fittingLayouts(
  built: ReadonlyMap<string, Snapshot>,
  repo: ReadonlySet<FileKey>,
): { fits: string[]; specific: Map<string, Set<FileKey>> } {
  const all = [...built.values()].map(fileKeys);
  const common = new Set(
    [...(all[0] ?? new Set<FileKey>())].filter((key) => all.every((set) => set.has(key))),
  );
  const specific = new Map<string, Set<FileKey>>();
  for (const [name, snapshot] of built) {
    specific.set(name, new Set([...fileKeys(snapshot)].filter((key) => !common.has(key))));
  }
  const fits = [...specific.entries()]
    .filter(([, keys]) => [...keys].every((key) => repo.has(key)))
    .map(([name]) => name);
  return { fits, specific };
}

const pathsOf = (keys: Iterable<FileKey>): string[] =>
  [...keys].map((key) => key.slice(0, key.lastIndexOf(' ')));

/** The fixture in `layout` as the before-snapshot of `repo` (whose snapshot is `after`). */
export async function beforeSnapshotFor(
  scenario: ResolvedScenario,
  layout: string,
  repo: string,
  after: Snapshot,
): Promise<Result<Snapshot, InputError>> {
  const layouts = Object.keys(
    scenario.recipe.spec.scenarios[scenario.config.fixture.scenario]?.layouts ?? {},
  );
  return withTempWorkDir('redgreen-check-', async (work) => {
    const built = new Map<string, Snapshot>();
    for (const name of [layout, ...layouts.filter((other) => other !== layout)]) {
      const dest = path.join(work, name);
      const fixture = await buildFixture({
        recipe: scenario.recipe,
        scenario: scenario.config.fixture.scenario,
        layout: name,
        dest,
      });
      if (!fixture.ok) {
        return err(
          inputError(
            '--layout',
            `the fixture could not be built: ${fixture.error.kind === 'gate' ? formatGateFailure(fixture.error) : fixture.error.problem}`,
            'fix the fixture recipe',
          ),
        );
      }
      built.set(name, (await snapshotBuiltFixture(dest)).snapshot);
    }
    const before = built.get(layout) as Snapshot;
    if (before.head !== null && !(await historyContains(repo, before.head, after.head))) {
      return err(
        inputError(
          `--repo ${repo}`,
          `its history does not contain the fixture's HEAD ${before.head.slice(0, 12)} (${scenario.config.fixture.recipe} ${scenario.config.fixture.scenario}), so it did not start from this scenario's fixture`,
          'pass the work tree of a session run on this scenario, or leave --layout off',
        ),
      );
    }
    const { fits, specific } = fittingLayouts(built, fileKeys(after));
    const own = specific.get(layout) ?? new Set<FileKey>();
    const wider = fits.find(
      (other) =>
        other !== layout &&
        [...own].every((key) => specific.get(other)?.has(key)) &&
        (specific.get(other)?.size ?? 0) > own.size,
    );
    const instead = fits.includes(layout) ? wider : fits.find((other) => other !== layout);
    if (instead !== undefined) {
      const missing = pathsOf([...own].filter((key) => !fileKeys(after).has(key)));
      const extra = pathsOf([...(specific.get(instead) ?? [])].filter((key) => !own.has(key)));
      return err(
        inputError(
          `--layout ${layout}`,
          `the repository holds the ${instead} layout's files untouched (${[...extra, ...missing.map((file) => `no ${file}`)].slice(0, 3).join(', ')}), not the ${layout} layout's`,
          `give --layout ${instead}; if the session itself removed or changed those files, leave --layout off and judge them by hand`,
        ),
      );
    }
    return ok(before);
  });
}
