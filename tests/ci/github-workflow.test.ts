import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  with?: Record<string, string | number | boolean>;
  run?: string;
  if?: string;
  env?: Record<string, string>;
}
interface Job {
  needs?: string;
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  strategy?: { matrix: { shard: number[] } };
  steps: Step[];
}
interface Workflow {
  on: {
    pull_request: { paths: string[] };
    workflow_dispatch: { inputs: { base: { default: string } } };
  };
  permissions: Record<string, string>;
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflowFile = path.join(repoRoot, 'docs/ci/github-actions.yml');

/** Steps a runner provides (checkout, node, artifacts, apt, npm ci) or that need GitHub (gh). */
function isLocal(step: Step): boolean {
  return step.run !== undefined && !/apt-get|npm ci|gh pr comment/.test(step.run);
}

/** Replace the workflow's `${{ … }}` expressions; an expression this test does not know fails it. */
function substitute(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expression: string) => {
    const value = values[expression];
    if (value === undefined)
      throw new Error(`workflow uses an expression the local test does not model: ${expression}`);
    return value;
  });
}

async function git(repo: string, ...args: string[]): Promise<string> {
  const result = await execa('git', ['-C', repo, ...args], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: repo,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'dev',
      GIT_AUTHOR_EMAIL: 'dev@example.com',
      GIT_COMMITTER_NAME: 'dev',
      GIT_COMMITTER_EMAIL: 'dev@example.com',
    },
    extendEnv: false,
  });
  return String(result.stdout).trim();
}

/** A skills repository with the released text on main and the plan-scoped text on a PR branch. */
async function skillsRepository(workspace: string): Promise<void> {
  const repo = path.join(workspace, 'skills-repo');
  const skill = path.join(repo, 'skills/subagent-driven-development');
  mkdirSync(repo, { recursive: true });
  await git(repo, 'init', '-q', '-b', 'main');
  cpSync(path.join(repoRoot, 'skills-under-test/sdd-released'), skill, { recursive: true });
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-qm', 'released skill');
  await git(repo, 'update-ref', 'refs/remotes/origin/main', 'HEAD');
  await git(repo, 'checkout', '-qb', 'pr');
  cpSync(path.join(repoRoot, 'skills-under-test/sdd-plan-scoped'), skill, {
    recursive: true,
    force: true,
  });
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-qm', 'plan-scoped workspace');
}

async function runStep(
  step: Step,
  workspace: string,
  env: Record<string, string>,
  values: Record<string, string>,
) {
  const script = substitute(step.run ?? '', values);
  return execa('bash', ['-eo', 'pipefail', '-c', script], {
    cwd: workspace,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: workspace, LANG: 'C', ...env },
    extendEnv: false,
    reject: false,
    timeout: 300_000,
  });
}

describe('docs/ci/github-actions.yml', () => {
  const workflow = parse(readFileSync(workflowFile, 'utf8')) as Workflow;

  it('runs the SDD panel on pull requests that touch skill files, shards it, then merges and gates', () => {
    expect(workflow.on.pull_request.paths).toContain('skills/**');
    expect(workflow.env.CAMPAIGN).toBe('scenarios/sdd-panel.campaign.json');
    expect(Number(workflow.env.REPS)).toBeGreaterThanOrEqual(5);
    expect(workflow.jobs.shard?.strategy?.matrix.shard.length).toBeGreaterThan(1);
    expect(workflow.jobs.gate?.needs).toBe('shard');
    const shardRuns = workflow.jobs.shard?.steps.map((step) => step.run ?? '').join('\n') ?? '';
    expect(shardRuns).toMatch(/--arm "red=git:skills-repo@\$\{\{ steps\.refs\.outputs\.red \}\}/);
    // The shard count is derived from the matrix: one list to edit, never two settings.
    expect(shardRuns).toMatch(
      /--shard "\$\{\{ matrix\.shard \}\}\/\$\{\{ strategy\.job-total \}\}"/,
    );
    expect(JSON.stringify(workflow)).not.toContain('SHARDS');
    expect(shardRuns).toContain('--backend "$BACKEND"');
    expect(workflow.env.BACKEND).toBe('claude-code');
    const gateRuns = workflow.jobs.gate?.steps.map((step) => step.run ?? '').join('\n') ?? '';
    expect(gateRuns).toContain('merge shards/shard-*');
    expect(gateRuns).toContain('gate merged --junit');
    expect(JSON.stringify(workflow)).not.toContain('pull_request_target');
    // GREEN is the pull request's own head, not the merge commit a plain checkout gives.
    expect(JSON.stringify(workflow.jobs.shard)).toContain('github.event.pull_request.head.sha');
  });

  it('gives write access only to the job that comments, and keeps no credentials in checkouts', () => {
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(workflow.jobs.shard?.permissions).toBeUndefined();
    expect(workflow.jobs.gate?.permissions).toEqual({
      contents: 'read',
      'pull-requests': 'write',
    });
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    const checkouts = steps.filter((step) => step.uses?.startsWith('actions/checkout@'));
    expect(checkouts.length).toBe(3);
    for (const checkout of checkouts) expect(checkout.with?.['persist-credentials']).toBe(false);
    const nodeSetups = steps.filter((step) => step.uses?.startsWith('actions/setup-node@'));
    for (const setup of nodeSetups) {
      expect(setup.with?.cache).toBe('npm');
      expect(setup.with?.['cache-dependency-path']).toBe('redgreen/package-lock.json');
    }
  });

  it('refuses fewer than 5 reps, and a manual run whose RED would be its GREEN', async () => {
    const workspace = makeTempDir();
    await skillsRepository(workspace);
    const steps = workflow.jobs.shard?.steps ?? [];
    const settings = steps.find((step) => step.name === 'Check the settings') as Step;
    const refs = steps.find((step) => step.id === 'refs') as Step;
    for (const reps of ['3', '', 'five']) {
      const refused = await runStep(settings, workspace, { REPS: reps }, {});
      expect(refused.exitCode).toBe(1);
      expect(String(refused.stdout)).toContain('at least 5 reps');
    }
    expect((await runStep(settings, workspace, { REPS: '5' }, {})).exitCode).toBe(0);

    // A manual dispatch on main with base main: the merge base is the head itself.
    const head = await git(path.join(workspace, 'skills-repo'), 'rev-parse', 'origin/main');
    await git(path.join(workspace, 'skills-repo'), 'checkout', '-q', head);
    const dispatchValues = {
      "github.event.pull_request.base.sha || format('origin/{0}', inputs.base)": `origin/${workflow.on.workflow_dispatch.inputs.base.default}`,
    };
    const output = path.join(workspace, 'github-output');
    writeFileSync(output, '');
    const same = await runStep(refs, workspace, { GITHUB_OUTPUT: output }, dispatchValues);
    expect(same.exitCode).toBe(1);
    expect(String(same.stdout)).toContain('RED and GREEN are the same commit');
    expect(readFileSync(output, 'utf8')).toBe('');
    // The same dispatch on the branch that changes the skill resolves two commits.
    await git(path.join(workspace, 'skills-repo'), 'checkout', '-q', 'pr');
    const apart = await runStep(refs, workspace, { GITHUB_OUTPUT: output }, dispatchValues);
    expect(apart.exitCode).toBe(0);
    expect(readFileSync(output, 'utf8')).toMatch(/^red=[0-9a-f]{40}\ngreen=[0-9a-f]{40}\n$/);
  });

  it('its commands fit together: run locally and offline, the shards merge and the gate passes', async () => {
    const workspace = makeTempDir();
    await skillsRepository(workspace);
    symlinkSync(repoRoot, path.join(workspace, 'redgreen'));
    const shardJob = workflow.jobs.shard as Job;
    const gateJob = workflow.jobs.gate as Job;
    const common: Record<string, string> = {
      "github.event.pull_request.base.sha || format('origin/{0}', inputs.base)": 'origin/main',
      "(github.event_name == 'workflow_dispatch' || github.event.pull_request.head.repo.full_name == github.repository) && secrets.ANTHROPIC_API_KEY || ''":
        '',
      'env.REDGREEN_REPO': 'local/redgreen',
      'env.REDGREEN_REF': 'main',
      'github.repository': 'local/skills',
      'github.token': '',
      'github.event.pull_request.number': '1',
    };
    // The workflow's own settings (the SDD panel, 5 reps per cell, 4 shards): with fewer reps
    // the panel's Holm-corrected gate could not be decided. The shard jobs run one after
    // another here.
    // The backend is the one setting changed: the panel's 100 sessions on the real engine take
    // minutes here, and the engine's side of these scenarios is tested on its own
    // (tests/campaign/sdd-campaigns.test.ts); what this test proves is that the commands fit.
    const baseEnv = { ...workflow.env, BACKEND: 'messages' };

    const shards = shardJob.strategy?.matrix.shard ?? [];
    for (const shard of shards) {
      const outputs: Record<string, string> = {};
      const values = {
        ...common,
        'matrix.shard': String(shard),
        'strategy.job-total': String(shards.length),
      };
      for (const step of shardJob.steps.filter(isLocal)) {
        const outputFile = path.join(workspace, `github-output-${shard}-${step.id ?? 'x'}`);
        writeFileSync(outputFile, '');
        const jobEnv = Object.fromEntries(
          Object.entries(shardJob.env ?? {}).map(([name, value]) => [
            name,
            substitute(value, values),
          ]),
        );
        const result = await runStep(
          step,
          workspace,
          { ...baseEnv, ...jobEnv, GITHUB_OUTPUT: outputFile },
          { ...values, ...outputs },
        );
        expect(result.exitCode, `${step.name}: ${String(result.stderr)}`).toBe(0);
        for (const line of readFileSync(outputFile, 'utf8').split('\n').filter(Boolean)) {
          const [name, ...rest] = line.split('=');
          outputs[`steps.${step.id}.outputs.${name}`] = rest.join('=');
        }
      }
    }
    // The artifact round trip: each shard directory lands under shards/.
    for (const shard of shards) {
      cpSync(
        path.join(workspace, `shard-${shard}`),
        path.join(workspace, 'shards', `shard-${shard}`),
        { recursive: true },
      );
    }

    for (const step of gateJob.steps.filter(isLocal)) {
      const result = await runStep(
        step,
        workspace,
        { ...baseEnv, GITHUB_STEP_SUMMARY: path.join(workspace, 'step-summary.md') },
        common,
      );
      expect(
        result.exitCode,
        `${step.name}: ${String(result.stdout)} ${String(result.stderr)}`,
      ).toBe(0);
    }
    const summary = readFileSync(path.join(workspace, 'gate-summary.md'), 'utf8');
    expect(summary).toContain('Gates: PASS');
    expect(summary).toMatch(/no scenario regresses/);
    expect(readFileSync(path.join(workspace, 'gate-junit.xml'), 'utf8')).toContain('<testsuites');
    expect(existsSync(path.join(workspace, 'merged/results.md'))).toBe(true);
    const campaign = JSON.parse(
      readFileSync(path.join(workspace, 'merged/campaign.json'), 'utf8'),
    ) as {
      arms: { name: string; source: { kind: string } }[];
      shard: unknown;
    };
    expect(campaign.shard).toBeNull();
    expect(campaign.arms.map((arm) => arm.source.kind)).toEqual(['git', 'git']);
  });
});
