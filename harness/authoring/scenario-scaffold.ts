/**
 * `redgreen scenario new <id>`: write a working scenario to start from: the
 * widget-v3 fixture's same-plan resume, a prompt template of its own, a
 * two-section report contract, a few checks and observations, and a
 * calibration that `redgreen scenario lint` proves (the structural policy
 * passes, always-redo fails for the right reason). Nothing is overwritten.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SCENARIO_SCHEMA_FILE } from '../campaign/file-schemas.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { packageRoot } from '../lib/package-root.js';
import { err, ok, type Result } from '../lib/result.js';
import { SCENARIO_ID } from '../score/scenario-schema.js';

const PLAN = 'docs/plans/2026-07-06-widget-export.md';

function scaffold(id: string, schema: string): Record<string, unknown> {
  return {
    $schema: schema,
    id,
    title: `${id}: a controller resumes its own plan after a compaction`,
    description:
      'Scaffolded by `redgreen scenario new`. Tasks 1-2 of the plan are done and recorded in its own ledger; a correct controller names them done and dispatches Task 3. Edit the fixture, prompt, report contract and checks to say what your scenario is about, then run `redgreen scenario lint`.',
    // Its readers, checks and facts are the sdd pack's.
    packs: ['sdd'],
    fixture: { recipe: 'widget-v3', scenario: 's2' },
    plan: PLAN,
    prompt: { template: 'prompt.hbs', variables: {} },
    stop: 'report',
    plans: {
      [PLAN]: {
        aliases: ['plan B'],
        tasks: {
          '1': 'Export data model',
          '2': 'CSV serializer',
          '3': 'JSON serializer',
          '4': 'CLI flag',
          '5': 'End-to-end test',
        },
      },
    },
    report: {
      done: { label: 'TASKS ALREADY COMPLETE', extract: 'tasks' },
      next: { label: 'FIRST DISPATCH', extract: { kind: 'task', after: 'done' } },
    },
    checks: {
      pre: [
        {
          id: 'own-plan-present',
          verb: 'file-exists',
          path: '{{ownPlan}}',
          why: 'the prompt names this plan',
        },
      ],
      post: [
        {
          id: 'next-task',
          verb: 'reply-is-task',
          section: 'next',
          task: 3,
          why: 'Tasks 1-2 are done, so Task 3 is next',
        },
        { id: 'done-tasks', verb: 'reply-tasks', section: 'done', includes: [1, 2] },
        {
          id: 'own-ledger-untouched',
          verb: 'file-unchanged',
          paths: ['{{ownLedgers}}'],
          why: 'deciding needs no ledger write',
        },
      ],
    },
    observe: [
      {
        id: 'read-the-skill',
        verb: 'skill-read',
        seat: 'controller',
        summary: { passes: 'read SKILL.md' },
      },
      { id: 'no-new-commits', verb: 'git-head-unchanged' },
    ],
    calibration: {
      mustPass: [
        {
          policy: 'structural',
          // A bare name: a skill text redgreen ships, wherever the scenario folder is.
          skill: 'sdd-plan-scoped',
          layout: 'scoped',
          why: 'trusts its own plan-scoped ledger',
        },
      ],
      mustFail: [
        {
          policy: 'always-redo',
          // A bare name: a skill text redgreen ships, wherever the scenario folder is.
          skill: 'sdd-plan-scoped',
          layout: 'scoped',
          failing: ['next-task', 'done-tasks'],
          why: 'ignores the ledger and starts again at Task 1',
        },
      ],
    },
  };
}

/** The published scenario schema, relative to a scenario folder, for editors (file-schemas.ts). */
export function schemaPathFrom(dir: string): string {
  return path.relative(dir, path.join(packageRoot(), 'schemas', SCENARIO_SCHEMA_FILE));
}

/** Write `<scenariosDir>/<id>/scenario.json` and its `prompt.hbs`; refuses an existing folder. */
export async function scaffoldScenario(
  id: string,
  scenariosDir: string,
): Promise<Result<{ dir: string }, InputError>> {
  const template = await readFile(
    path.join(packageRoot(), 'scenarios', 'prompts', 'compaction-resume.hbs'),
    'utf8',
  );
  return writeScenarioFolder(id, scenariosDir, (dir) =>
    ok({
      'scenario.json': `${JSON.stringify(scaffold(id, schemaPathFrom(dir)), null, 2)}\n`,
      'prompt.hbs': template,
    }),
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
