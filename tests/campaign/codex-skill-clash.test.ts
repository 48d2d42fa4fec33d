/**
 * Two skills that Codex would install under one bare name: on codex a
 * session's skills go one directory each under `$CODEX_HOME/skills`, so a
 * library with two skills named alike (or a project skill named as a
 * library's) is the campaign's input error, one line naming both files and
 * the fix, exit 2, with nothing written; never a throw halfway through a
 * session's CODEX_HOME. The same library runs on an engine that lists
 * skills by qualified name.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bareSkillName, codexSkillClash } from '../../harness/session/codex-skill-installs.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { codexSkipReason } from '../helpers/codex-skip.js';
import { makeTempDir } from '../helpers/temp-dir.js';

describe('codexSkillClash: skills that would share a directory under $CODEX_HOME/skills', () => {
  it('names both files and the fix; distinct names pass', () => {
    expect(bareSkillName('devflow:test-first')).toBe('test-first');
    expect(bareSkillName('test-first')).toBe('test-first');
    expect(
      codexSkillClash([
        { dir: 'test-first', from: 'a' },
        { dir: 'debugging', from: 'b' },
      ]),
    ).toBeUndefined();
    const clash = codexSkillClash([
      { dir: 'test-first', from: "the fixture's .claude/skills/test-first/SKILL.md" },
      { dir: 'debugging', from: 'library skill debugging (skills/debugging/SKILL.md)' },
      { dir: 'test-first', from: 'library skill test-first (skills/test-first/SKILL.md)' },
    ]);
    expect(clash?.problem).toBe(
      "the fixture's .claude/skills/test-first/SKILL.md and library skill test-first (skills/test-first/SKILL.md) are both installed as $CODEX_HOME/skills/test-first (Codex lists skills by bare name, one directory each)",
    );
    expect(clash?.fix).toMatch(/^rename one of them/);
  });
});

describe('a library with two skills of one name on --engine codex', async () => {
  const skip = await codexSkipReason('the codex skill-clash refusal');
  it.skipIf(skip !== undefined)(
    'is refused at load: one line, exit 2, no results directory',
    async () => {
      const root = makeTempDir();
      const library = path.join(root, 'library');
      cpSync(path.join(repoRoot, 'skills-under-test', 'devflow'), library, { recursive: true });
      const renamed = path.join(library, 'skills', 'debugging', 'SKILL.md');
      writeFileSync(
        renamed,
        readFileSync(renamed, 'utf8').replace(/^name: debugging$/m, 'name: test-first'),
      );
      const campaign = path.join(root, 'clash.campaign.json');
      writeFileSync(
        campaign,
        JSON.stringify({
          id: 'clash',
          title: 'two skills of one name',
          arms: [
            {
              name: 'green',
              role: 'green',
              label: 'renamed',
              library: { source: library },
              layout: 'default',
            },
          ],
          scenarios: ['tests-later-pressure'],
          reps: 1,
          model: 'claude-sonnet-5-5',
          offlineModel: 'scripted:skill-trigger',
          backend: 'claude-code',
        }),
      );
      const out = path.join(root, 'out');
      const run = await runCli(['run', campaign, '--engine', 'codex', '--out', out], {
        timeoutMs: 120_000,
      });
      expect(run.exitCode, run.stderr).toBe(2);
      const lines = run.stderr
        .trim()
        .split('\n')
        .filter((line) => !line.includes('OFFLINE'));
      expect(lines).toEqual([
        'redgreen: arm green on engine codex: library skill test-first (skills/debugging/SKILL.md) and library skill test-first (skills/test-first/SKILL.md) are both installed as $CODEX_HOME/skills/test-first (Codex lists skills by bare name, one directory each); rename one of them (its front-matter name, or a project skill’s directory), or run this campaign on another engine',
      ]);
      expect(existsSync(out)).toBe(false);
    },
    120_000,
  );
});
