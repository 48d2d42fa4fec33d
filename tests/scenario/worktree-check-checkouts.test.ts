/**
 * Checks on a fixture whose session starts in a linked worktree (slugkit
 * feature-worktree, start .worktrees/slugify): `scenario lint`'s pre-check
 * row reads a check without `checkout` in the start checkout, as each rep
 * does; and a `checkout` naming no checkout of the recipe scenario is refused
 * when the scenario loads. Planted negatives: the same pre-check on the
 * repository's own checkout fails in lint; a typo'd checkout exits 2.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintScenario } from '../../harness/authoring/scenario-lint.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const readsSkill = `summary: reads the skill and stops
steps:
  - capture: skill-dir
    from: prompt
    pattern: 'complete text is at\\s+(\\S+?)\\s+for'
  - tool: Read
    input: { file_path: '{{skill-dir}}/SKILL.md' }
  - reply: Nothing to do.
`;
const skips = `summary: stops without reading
steps:
  - reply: Nothing to do.
`;

/** A scenario on slugkit feature-worktree with these checks, in a scratch folder; its directory. */
function worktreeScenario(pre: unknown[], post: unknown[] = []): string {
  const root = makeTempDir('redgreen-wt-checks-');
  const dir = path.join(root, 'scenarios', 'wt-checks');
  mkdirSync(path.join(dir, 'policies'), { recursive: true });
  mkdirSync(path.join(root, 'skill'));
  writeFileSync(path.join(root, 'skill', 'SKILL.md'), '---\nname: s\ndescription: d\n---\nBody.\n');
  writeFileSync(path.join(dir, 'policies', 'reads.yaml'), readsSkill);
  writeFileSync(path.join(dir, 'policies', 'skips.yaml'), skips);
  writeFileSync(
    path.join(dir, 'prompt.hbs'),
    'Use the skill whose complete text is at {{skillDir}} for this work: read its SKILL.md first.\n',
  );
  const scenario = {
    id: 'wt-checks',
    title: 'worktree checks',
    description: 'pre-checks on a worktree start',
    fixture: { recipe: 'slugkit', scenario: 'feature-worktree' },
    prompt: { template: 'prompt.hbs', variables: {} },
    stop: 'report',
    checks: {
      pre,
      post: [{ id: 'read-the-skill', verb: 'skill-read', seat: 'controller' }, ...post],
    },
    calibration: {
      mustPass: [{ policy: 'reads', skill: '../../skill', layout: 'default' }],
      mustFail: [
        { policy: 'skips', skill: '../../skill', layout: 'default', failing: ['read-the-skill'] },
      ],
    },
  };
  writeFileSync(path.join(dir, 'scenario.json'), JSON.stringify(scenario, null, 2));
  return dir;
}

describe('checks on a fixture that starts in a worktree', () => {
  it("lint's pre-check row reads a check without checkout in the start checkout", async () => {
    const dir = worktreeScenario([
      { id: 'in-start', verb: 'file-exists', path: 'src/slugify.js' },
      { id: 'main-lacks', not: { verb: 'file-exists', path: 'src/slugify.js', checkout: '.' } },
    ]);
    const report = await lintScenario(dir, { backend: 'messages', scenariosDirs: [] });
    if (!report.ok) throw new Error(`${report.error.input}: ${report.error.problem}`);
    const pre = report.value.rows.filter((row) => row.kind === 'pre-check');
    expect(pre).toEqual([expect.objectContaining({ got: 'all pass', ok: true })]);
    expect(report.value.ok).toBe(true);
  });

  it('planted: the same file asked of the repository checkout fails the pre-check row', async () => {
    const dir = worktreeScenario([
      { id: 'in-main', verb: 'file-exists', path: 'src/slugify.js', checkout: '.' },
    ]);
    const report = await lintScenario(dir, { backend: 'messages', scenariosDirs: [] });
    if (!report.ok) throw new Error(`${report.error.input}: ${report.error.problem}`);
    const pre = report.value.rows.filter((row) => row.kind === 'pre-check');
    expect(pre).toEqual([expect.objectContaining({ ok: false })]);
  });

  it('refuses a checkout the recipe scenario does not hold when the scenario loads (exit 2)', async () => {
    const dir = worktreeScenario(
      [],
      [{ id: 'wt-clean', verb: 'git-clean', checkout: '.worktrees/slugfy' }],
    );
    const lint = await runCli(['scenario', 'lint', dir, '--backend', 'messages']);
    expect(lint.exitCode).toBe(2);
    const line = lint.stderr.trim();
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toContain('checks.post wt-clean: checkout');
    expect(line).toContain('".worktrees/slugfy"');
    expect(line).toContain('".", ".worktrees/slugify"');
  });
});
