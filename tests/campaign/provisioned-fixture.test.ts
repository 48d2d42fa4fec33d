import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { readJson, runCampaignCli } from './support.js';

describe('a campaign on a provisioned fixture', () => {
  it('whose step needs a tool this machine lacks: the rep is a failed pre-check saying what to install, and no session runs', async () => {
    const dir = makeTempDir('redgreen-provisioned-campaign-');
    const recipe = path.join(dir, 'recipe');
    cpSync(path.join(repoRoot, 'fixtures', 'wordfreq'), recipe, { recursive: true });
    const recipeFile = path.join(recipe, 'recipe.json');
    const json = JSON.parse(readFileSync(recipeFile, 'utf8'));
    json.scenarios['failing-test'].provision = [
      {
        name: 'deps',
        run: 'mkdir .deps',
        requires: [
          { command: 'command -v no-such-tool-rg', install: 'apt-get install no-such-tool' },
        ],
      },
    ];
    writeFileSync(recipeFile, JSON.stringify(json));
    const scenarioDir = path.join(dir, 'licence-question');
    cpSync(path.join(repoRoot, 'scenarios', 'skill-triggering-unrelated'), scenarioDir, {
      recursive: true,
    });
    const scenarioFile = path.join(scenarioDir, 'scenario.json');
    const scenario = JSON.parse(readFileSync(scenarioFile, 'utf8'));
    writeFileSync(
      scenarioFile,
      JSON.stringify({
        ...scenario,
        id: 'licence-question',
        fixture: { recipe, scenario: 'failing-test' },
        checks: {
          ...scenario.checks,
          pre: [{ id: 'project-present', verb: 'file-exists', path: 'wordfreq/counts.py' }],
        },
      }),
    );
    const campaign = path.join(dir, 'c.campaign.json');
    writeFileSync(
      campaign,
      JSON.stringify({
        id: 'provisioned',
        title: 'a provisioned fixture whose tool is missing',
        arms: [
          {
            name: 'green',
            role: 'green',
            label: 'devflow',
            library: { source: path.join(repoRoot, 'skills-under-test', 'devflow') },
            layout: 'default',
          },
        ],
        scenarios: ['./licence-question'],
        reps: 1,
        model: 'claude-sonnet-5-5',
        offlineModel: 'scripted:skill-trigger',
        backend: 'messages',
      }),
    );
    const out = path.join(dir, 'out');
    const result = await runCampaignCli([campaign, '--out', out, '--quiet']);
    expect(result.exitCode, result.stderr).not.toBe(2);
    const rep = path.join(out, 'reps/green/licence-question-rep1');
    const status = readJson<{ status: { kind: string; stage?: string; reason?: string } }>(
      path.join(rep, 'meta.json'),
    ).status;
    expect(status).toMatchObject({ kind: 'indeterminate', stage: 'pre-check' });
    expect(status.reason).toContain(
      'provisioning step "deps" needs `command -v no-such-tool-rg`, which fails here (install: apt-get install no-such-tool)',
    );
    // The premise itself holds: only the missing tool stopped the rep.
    expect(status.reason).not.toContain('project-present');
    expect(readFileSync(path.join(rep, 'transcript.jsonl'), 'utf8').trim()).toBe('');
    expect(existsSync(path.join(rep, 'reply.md'))).toBe(true);
  });
});
