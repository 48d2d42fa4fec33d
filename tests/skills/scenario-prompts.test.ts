/**
 * The prompt templates of the fix-loop and rulings scenarios: they load with
 * exactly the variables a campaign supplies, a scripted policy can read the
 * repository, plan and skill back out of the rendered text, and they neither
 * forbid dispatching nor mention what the session is measured on.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPromptTemplate } from '../../harness/scenario/prompt-template.js';
import { readPromptFacts } from '../../packs/sdd/brains/prompt-facts.js';
import { repoRoot } from '../helpers/cli.js';

const promptsDir = path.join(repoRoot, 'scenarios', 'prompts');
const templates = ['mid-plan-resume', 'fresh-start'] as const;

const variables = {
  skillDir: '/tmp/session-x/skills/subagent-driven-development',
  fixtureRepo: '/tmp/session-x/repo',
  planPath: 'docs/plans/2026-09-08-step-report.md',
};

/**
 * What a scenario prompt must not say: a rule against dispatching (the
 * session ends at the first dispatch, and the prompt must not know that),
 * or words about capture, probes, scoring or the evaluation itself.
 */
function promptProblems(text: string): string[] {
  const rules: [RegExp, string][] = [
    [/\b(?:do not|don't|never|without)\b[^.\n]{0,40}\bdispatch/i, 'forbids dispatching'],
    [/\bcaptur/i, 'mentions capture'],
    [/\bprobe/i, 'mentions probes'],
    [/\bscor(?:e|ed|ing)\b/i, 'mentions scoring'],
    [/\b(?:eval|evaluation|benchmark|fixture|scenario|redgreen)\b/i, 'names the evaluation'],
    [/\bSTOP\b|\breply with exactly\b/, 'prescribes a report'],
  ];
  return rules.filter(([pattern]) => pattern.test(text)).map(([, problem]) => problem);
}

describe.each(templates)('scenarios/prompts/%s.hbs', (name) => {
  const file = path.join(promptsDir, `${name}.hbs`);

  it('loads with exactly the variables a campaign supplies', async () => {
    const loaded = await loadPromptTemplate(file, name);
    expect(loaded.ok, loaded.ok ? '' : loaded.error.problem).toBe(true);
  });

  it('renders so a scripted policy reads back the repository, plan and skill', async () => {
    const loaded = await loadPromptTemplate(file, name);
    if (!loaded.ok) throw new Error(loaded.error.problem);
    const facts = readPromptFacts(loaded.value.render(variables));
    if (!facts.ok) throw new Error(`missing ${facts.error.item}`);
    expect(facts.value.repo).toBe(variables.fixtureRepo);
    expect(facts.value.planRelative).toBe(variables.planPath);
    expect(facts.value.skillDir).toBe(variables.skillDir);
  });

  it('tells the controller to carry on with the skill, and nothing about measuring it', () => {
    const text = readFileSync(file, 'utf8');
    expect(promptProblems(text)).toEqual([]);
    expect(text).toMatch(/SKILL\.md/);
    expect(text).toMatch(
      name === 'fresh-start'
        ? /\bExecute the implementation plan\b/
        : /\bContinue executing the plan\b/,
    );
  });
});

it('the rules catch the report-mode prompt S1 and S2 use (planted negative)', () => {
  const reportMode = readFileSync(path.join(promptsDir, 'compaction-resume.hbs'), 'utf8');
  expect(promptProblems(reportMode)).toEqual(['forbids dispatching', 'prescribes a report']);
  expect(promptProblems('Your first dispatch will be captured and scored.')).toEqual([
    'mentions capture',
    'mentions scoring',
  ]);
});

it('only the mid-plan prompt speaks of a compaction; the fresh start does not', () => {
  const mid = readFileSync(path.join(promptsDir, 'mid-plan-resume.hbs'), 'utf8');
  const fresh = readFileSync(path.join(promptsDir, 'fresh-start.hbs'), 'utf8');
  expect(mid).toMatch(/compacted/);
  expect(fresh).not.toMatch(/compact|previous conversation|resum/i);
});
