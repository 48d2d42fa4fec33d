/**
 * Where a scenario's bare prompt name resolves: the `prompts/` folder beside
 * the scenario first, then the prompts shipped with redgreen, so a scenario
 * copied out of the repository still runs; a name found in neither is refused
 * through `redgreen scenario lint`, one line naming the template.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioDir } from '../../harness/score/load-scenario.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const shipped = path.join(repoRoot, 'scenarios', 'fix-loop-resumes-implementer');

function copied(edit: (scenario: Record<string, unknown>) => void = () => {}): string {
  const dir = path.join(makeTempDir(), 'mine', 'my-fix');
  cpSync(shipped, dir, { recursive: true });
  const file = path.join(dir, 'scenario.json');
  const scenario = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  scenario.id = 'my-fix';
  edit(scenario);
  writeFileSync(file, JSON.stringify(scenario, null, 2));
  return dir;
}

describe('a bare prompt name', () => {
  it('falls back to the shipped prompts when the scenario’s own folder has none', () => {
    const loaded = loadScenarioDir(copied());
    if (!loaded.ok) throw new Error(loaded.error.problem);
    expect(loaded.value.promptTemplate).toBe(
      path.join(repoRoot, 'scenarios', 'prompts', 'full-session.hbs'),
    );
  });

  it('prefers a template of that name beside the scenario', () => {
    const dir = copied();
    const own = path.join(path.dirname(dir), 'prompts', 'full-session.hbs');
    mkdirSync(path.dirname(own));
    writeFileSync(own, 'my own prompt {{fixtureRepo}}\n');
    const loaded = loadScenarioDir(dir);
    if (!loaded.ok) throw new Error(loaded.error.problem);
    expect(loaded.value.promptTemplate).toBe(own);
  });

  it('a name found in neither place is refused by lint, one line naming it', async () => {
    const dir = copied((scenario) => {
      scenario.prompt = 'no-such-prompt';
    });
    const lint = await runCli(['scenario', 'lint', dir], { timeoutMs: 120_000 });
    expect(lint.exitCode).toBe(2);
    expect(lint.stderr.trim().split('\n')).toHaveLength(1);
    expect(lint.stderr).toContain('no-such-prompt.hbs');
  });
});
