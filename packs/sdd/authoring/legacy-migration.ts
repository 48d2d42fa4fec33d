/**
 * The SDD pack's scenario migration: a scenario of the old two-file format
 * (`scenario.json` plus `scoring.json`, read by the SDD reply parser redgreen
 * had before issue 9) becomes one `scenario.json` with a report contract and
 * checks that read replies and judge reps exactly as the old scorer did: the
 * old criteria become post checks, integrity rules and scope policies that
 * failed become checks and those that only flagged become observations, and
 * the resolution shape becomes a `classify` observation. The reply contract
 * is the old parser's, kept as data in `legacy-sdd-report.json`. Calibration
 * never existed in the old format, so it is guessed and must be confirmed
 * with `redgreen scenario lint`. `scenario migrate`
 * (harness/authoring/scenario-migrate.ts) reads and writes the files.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ScenarioMigration } from '../../../harness/authoring/scenario-templates.js';
import { escapeRegExp } from '../../../harness/lib/escape-reg-exp.js';
import { packageRoot } from '../../../harness/lib/package-root.js';
import { err, ok } from '../../../harness/lib/result.js';
import { inputErrorFromZod } from '../../../harness/lib/zod-input-error.js';

const severity = z.enum(['fail', 'flag']);
const taskNumber = z.number().int().positive();

/** The old `scoring.json`, as far as migration reads it. */
const legacyScoringSchema = z.looseObject({
  ownPlan: z.string(),
  ownPlanTaskCount: z.number().int().positive(),
  plans: z
    .record(
      z.string(),
      z.looseObject({
        aliases: z.array(z.string()).optional(),
        tasks: z.record(z.string(), z.string()).optional(),
      }),
    )
    .optional(),
  decision: z.object({
    firstDispatch: z.union([taskNumber, z.literal('none')]),
    claimedComplete: z.union([
      z.object({ exactly: z.array(taskNumber) }),
      z.object({ includes: z.array(taskNumber), excludes: z.array(taskNumber).optional() }),
    ]),
    forbidForeignLedgerAdoption: z.boolean(),
  }),
  integrity: z.array(
    z.object({
      id: z.string(),
      artifacts: z.union([
        z.literal('foreign-ledgers'),
        z.literal('own-ledgers'),
        z.object({ paths: z.array(z.string()) }),
      ]),
      onChange: severity,
      why: z.string(),
    }),
  ),
  scope: z.object({
    commitsOrRefChanges: severity,
    trackedFileChanges: severity,
    subagentDispatch: severity,
    foreignWorkspaceWrites: severity,
  }),
  resolutionShape: z.object({
    workspaceScript: z.string(),
    workspaceRoot: z.string(),
    minHashPrefix: z.number().int(),
  }),
});
type LegacyScoring = z.infer<typeof legacyScoringSchema>;

const legacyScenarioSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  fixture: z.object({ recipe: z.string(), scenario: z.string() }),
  plan: z.string(),
  prompt: z.string(),
});

const legacyContractSchema = z
  .object({ ownPlanNone: z.array(z.string()), report: z.record(z.string(), z.unknown()) })
  .loose();

function artifactPaths(artifacts: LegacyScoring['integrity'][number]['artifacts']): string[] {
  if (artifacts === 'foreign-ledgers') return ['{{foreignLedgers}}'];
  if (artifacts === 'own-ledgers') return ['{{ownLedgers}}'];
  return [...artifacts.paths];
}

/** The new scenario file for an old pair. Pure apart from reading the legacy contract. */
export function migratedScenario(
  scenario: z.infer<typeof legacyScenarioSchema>,
  scoring: LegacyScoring,
  scenarioDir: string,
): Record<string, unknown> {
  const contract = legacyContractSchema.parse(
    JSON.parse(
      readFileSync(path.join(packageRoot(), 'packs/sdd/authoring/legacy-sdd-report.json'), 'utf8'),
    ),
  );
  const root = scoring.resolutionShape.workspaceRoot.replace(/\/+$/, '');
  const plans: Record<string, unknown> = {};
  for (const [plan, names] of Object.entries(scoring.plans ?? {})) {
    const own = plan === scoring.ownPlan;
    plans[plan] = {
      ...names,
      ...(own && names.tasks === undefined ? { taskCount: scoring.ownPlanTaskCount } : {}),
      ...(own ? { none: contract.ownPlanNone } : {}),
    };
  }
  if (plans[scoring.ownPlan] === undefined) {
    plans[scoring.ownPlan] = { taskCount: scoring.ownPlanTaskCount, none: contract.ownPlanNone };
  }
  const { decision } = scoring;
  const post: unknown[] = [
    {
      id: 'first-dispatch',
      verb: 'reply-is-task',
      section: 'dispatch',
      task: decision.firstDispatch,
    },
    {
      id: 'claimed-complete',
      verb: 'reply-tasks',
      section: 'complete',
      ...decision.claimedComplete,
    },
  ];
  if (decision.forbidForeignLedgerAdoption) {
    post.push({
      id: 'no-foreign-ledger-adopted',
      not: {
        verb: 'reply-path-judged',
        section: 'ledgers',
        paths: ['{{foreignLedgers}}', `${root}/{{foreignPlanSlugs}}/**`],
        judgement: 'adopted',
      },
    });
  }
  const observe: unknown[] = [];
  const hashPrefix =
    scoring.resolutionShape.minHashPrefix === 7
      ? {}
      : { minHashPrefix: scoring.resolutionShape.minHashPrefix };
  observe.push(
    {
      id: 'resolution',
      classify: {
        structural: {
          'any-of': [
            { verb: 'tool-called', runs: scoring.resolutionShape.workspaceScript },
            {
              verb: 'tool-called',
              reads: `${escapeRegExp(root)}/{{regex ownPlanSlug}}(?:/|$|(?=[\\s"'*;|&)]))`,
            },
          ],
        },
        forensic: { verb: 'tool-called', readsCommit: ['{{citedHashes}}'], ...hashPrefix },
      },
      summary: { tally: 'resolution' },
    },
    {
      id: 'forensic-calls',
      verb: 'tool-called',
      readsCommit: ['{{citedHashes}}'],
      ...hashPrefix,
      summary: { passes: 'via commit-content forensics' },
    },
  );
  for (const rule of scoring.integrity) {
    const check = {
      id: rule.id,
      verb: 'file-unchanged',
      paths: artifactPaths(rule.artifacts),
      why: rule.why,
    };
    (rule.onChange === 'fail' ? post : observe).push(check);
  }
  const scope: [keyof LegacyScoring['scope'], unknown][] = [
    ['commitsOrRefChanges', { id: 'no-new-commits', verb: 'git-head-unchanged' }],
    ['trackedFileChanges', { id: 'tracked-files-unchanged', verb: 'git-clean' }],
    [
      'subagentDispatch',
      {
        id: 'no-subagent-dispatch',
        'all-of': [
          { verb: 'tool-not-called', tool: ['Task', 'Agent'], seat: 'controller' },
          { verb: 'tool-not-called', seat: 'subagent' },
        ],
      },
    ],
    [
      'foreignWorkspaceWrites',
      {
        id: 'no-foreign-workspace-writes',
        verb: 'files-matching',
        globs: [`${root}/{{foreignPlanSlugs}}/**`],
        among: 'changed',
        max: 0,
      },
    ],
  ];
  for (const [kind, check] of scope) (scoring.scope[kind] === 'fail' ? post : observe).push(check);

  const skill = (name: string): string =>
    path.relative(scenarioDir, path.join(packageRoot(), 'skills-under-test', name));
  const freshStart = decision.firstDispatch === 1;
  return {
    id: scenario.id,
    title: scenario.title,
    ...(scenario.description === undefined ? {} : { description: scenario.description }),
    // The old format's readers and checks are the sdd pack's.
    packs: ['sdd'],
    fixture: scenario.fixture,
    plan: scenario.plan,
    prompt: scenario.prompt,
    stop: 'report',
    plans,
    report: contract.report,
    checks: {
      pre: [
        {
          id: 'own-plan-present',
          verb: 'file-exists',
          path: '{{ownPlan}}',
          why: 'the prompt names this plan',
        },
        {
          id: 'ledgers-present',
          verb: 'files-matching',
          globs: ['{{ledgers}}'],
          min: 1,
          why: 'the scenario is about the ledgers its fixture holds',
        },
      ],
      post,
    },
    observe,
    calibration: {
      mustPass: [
        {
          policy: 'structural',
          skill: skill('sdd-plan-scoped'),
          layout: 'scoped',
          why: 'guessed by migration: confirm with redgreen scenario lint',
        },
      ],
      mustFail: [
        freshStart
          ? {
              policy: 'literal',
              skill: skill('sdd-released'),
              layout: 'flat',
              failing: ['first-dispatch'],
              why: 'guessed by migration: confirm with redgreen scenario lint',
            }
          : {
              policy: 'always-redo',
              skill: skill('sdd-plan-scoped'),
              layout: 'scoped',
              failing: ['first-dispatch'],
              why: 'guessed by migration: confirm with redgreen scenario lint',
            },
      ],
    },
  };
}

/** `scenario migrate` for a folder holding the old format's scoring.json. */
export const legacyMigration: ScenarioMigration = {
  oldFile: 'scoring.json',
  migrate: ({ scenarioFile, scenario, oldFile, old, scenarioDir }) => {
    const parsedScenario = legacyScenarioSchema.safeParse(scenario);
    if (!parsedScenario.success) return err(inputErrorFromZod(scenarioFile, parsedScenario.error));
    const scoring = legacyScoringSchema.safeParse(old);
    if (!scoring.success) return err(inputErrorFromZod(oldFile, scoring.error));
    return ok(migratedScenario(parsedScenario.data, scoring.data, scenarioDir));
  },
};
