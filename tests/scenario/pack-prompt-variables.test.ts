/**
 * A pack's prompt variables (harness/scenario/scenario-extensions.ts): the
 * sdd pack's {{planPath}} takes its value from the scenario's `plan`; a
 * template using it in a scenario that gives none, or that does not name the
 * pack, is refused in one line with the fix; a rendered prompt that leaves it
 * out is caught. And `plan` itself is a field of the sdd pack.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  loadPromptTemplate,
  renderedPromptProblem,
} from '../../harness/scenario/prompt-template.js';
import { loadScenarioDir } from '../../harness/score/load-scenario.js';
import type { ScenarioShell } from '../../harness/score/scenario-schema.js';

const root = mkdtempSync(path.join(tmpdir(), 'redgreen-prompt-vars-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let next = 0;
function template(text: string): string {
  next += 1;
  const file = path.join(root, `t${next}.hbs`);
  writeFileSync(file, text);
  return file;
}

const scenario = (packs: string[], fields: Record<string, unknown>) => ({
  packs,
  config: fields as ScenarioShell,
});

async function refusal(file: string, packs: string[], fields: Record<string, unknown>) {
  const loaded = await loadPromptTemplate(file, 'prompt', {}, scenario(packs, fields));
  return loaded.ok ? '' : `${loaded.error.problem} (${loaded.error.fix})`;
}

describe("a pack's prompt variables", () => {
  it('renders {{planPath}} from the scenario plan when the scenario names the sdd pack', async () => {
    const loaded = await loadPromptTemplate(
      template('Resume {{planPath}} in {{fixtureRepo}}.'),
      'prompt',
      {},
      scenario(['sdd'], { plan: 'docs/plans/p.md' }),
    );
    if (!loaded.ok) throw new Error(loaded.error.problem);
    expect(loaded.value.render({ skillDir: '/s', fixtureRepo: '/r' })).toBe(
      'Resume docs/plans/p.md in /r.',
    );
    expect(renderedPromptProblem(loaded.value, { skillDir: false, packVariables: true })).toBe(
      undefined,
    );
  });

  it('refuses {{planPath}} without a plan, or without naming the pack, saying how to fix it', async () => {
    const file = template('Do {{planPath}}.');
    expect(await refusal(file, ['sdd'], {})).toBe(
      `prompt template ${file} uses {{planPath}}, but the scenario has no plan (give the scenario a "plan", or take {{planPath}} out of the template)`,
    );
    expect(await refusal(file, [], {})).toBe(
      `prompt template ${file} uses {{planPath}}, but the scenario has no plan (give the scenario a "plan" and add "packs": ["sdd"], or take {{planPath}} out of the template)`,
    );
    expect(await refusal(file, [], { plan: 'docs/p.md' })).toMatch(
      /uses \{\{planPath\}\}, which the sdd pack supplies, and the scenario does not name that pack \(add "packs": \["sdd"\]/,
    );
    expect(await refusal(template('Do {{nothing}}.'), ['sdd'], {})).toMatch(
      /uses \{\{nothing\}\}, which redgreen does not supply \(use only \{\{skillDir\}\}, \{\{fixtureRepo\}\}, \{\{startDir\}\}, \{\{planPath\}\}/,
    );
  });

  it('catches a rendered prompt that never names the plan it is given (planted negative)', async () => {
    const loaded = await loadPromptTemplate(
      template('{{#if fixtureRepo}}Carry on.{{else}}{{planPath}}{{/if}}'),
      'prompt',
      {},
      scenario(['sdd'], { plan: 'docs/p.md' }),
    );
    if (!loaded.ok) throw new Error(loaded.error.problem);
    expect(renderedPromptProblem(loaded.value, { skillDir: false, packVariables: true })).toEqual({
      problem: `prompt template ${loaded.value.path} never mentions {{planPath}} in what it renders, so sessions would not know their plan`,
      fix: 'add {{planPath}} to the template',
    });
    expect(renderedPromptProblem(loaded.value, { skillDir: false })).toBe(undefined);
  });

  it('refuses a scenario that gives a plan without naming the sdd pack', () => {
    const dir = path.join(root, 'feature', 'skill-triggering-feature');
    cpSync(path.join(import.meta.dirname, '../../scenarios/skill-triggering-feature'), dir, {
      recursive: true,
    });
    const file = path.join(dir, 'scenario.json');
    const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(loadScenarioDir(dir).ok).toBe(true);
    writeFileSync(file, JSON.stringify({ ...data, plan: 'docs/p.md' }));
    const loaded = loadScenarioDir(dir);
    expect(
      loaded.ok ? '' : `${loaded.error.input}: ${loaded.error.problem} (${loaded.error.fix})`,
    ).toMatch(
      /scenario\.json: plan: is a field of the sdd pack, and the scenario does not name that pack \(add "packs": \[.*"sdd"\]\)/,
    );
  });

  it('{{startDir}} renders the start checkout, and {{fixtureRepo}} when the session starts in the repository', async () => {
    const loaded = await loadPromptTemplate(
      template('In {{startDir}} of {{fixtureRepo}}.'),
      'prompt',
      {},
      scenario([], {}),
    );
    if (!loaded.ok) throw new Error(loaded.error.problem);
    expect(loaded.value.render({ skillDir: '/s', fixtureRepo: '/r', startDir: '/r/../wt' })).toBe(
      'In /r/../wt of /r.',
    );
    expect(loaded.value.render({ skillDir: '/s', fixtureRepo: '/r' })).toBe('In /r of /r.');
  });
});
