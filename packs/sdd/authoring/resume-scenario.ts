/**
 * The sdd pack's `redgreen scenario new` template: the widget-v3 fixture's
 * same-plan resume, a prompt template of its own, a two-section report
 * contract, a few checks and observations, and a calibration that
 * `redgreen scenario lint` proves (the structural policy passes, always-redo
 * fails for the right reason).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ScenarioTemplate } from '../../../harness/authoring/scenario-templates.js';
import { packageRoot } from '../../../harness/lib/package-root.js';

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

export const resumeScenarioTemplate: ScenarioTemplate = {
  summary:
    'an SDD resume scenario on the widget-v3 fixture (scenario.json, prompt.hbs) calibrated by built-in policies',
  files: async (id, schemaPath) => ({
    'scenario.json': `${JSON.stringify(scaffold(id, schemaPath), null, 2)}\n`,
    'prompt.hbs': await readFile(
      path.join(packageRoot(), 'scenarios', 'prompts', 'compaction-resume.hbs'),
      'utf8',
    ),
  }),
};
