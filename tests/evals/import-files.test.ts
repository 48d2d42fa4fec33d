/**
 * Where an eval's input files are found and where they go: the skill
 * directory, the eval file's folder, the nearest evals/ folder and the
 * repository root, in that order; a directory brings its files; the skill's
 * own SKILL.md is never copied; what exists nowhere, an absolute path, a
 * placeholder or a path out of the repository is a load error naming the
 * entry. Also where the skill and its eval file are found from each other.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importEvals } from '../../harness/evals/import-evals.js';
import { makeTempDir } from '../helpers/temp-dir.js';

function repo(files: Record<string, string>): string {
  const root = makeTempDir('redgreen-evals-files-');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  execFileSync('git', ['init', '-q', root], {
    env: { PATH: process.env.PATH ?? '', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
  return root;
}

const skill = (name: string) => `---\nname: ${name}\ndescription: d\n---\n# ${name}\n`;
const evalsWith = (files: unknown[], name = 'notes') =>
  JSON.stringify({ skill_name: name, evals: [{ id: 1, prompt: 'p', files, expectations: ['e'] }] });

describe('input files', () => {
  it('are found in the skill, the eval folder, the evals folder or the repository, in that order, and keep their path', async () => {
    const root = repo({
      'skills/notes/SKILL.md': skill('notes'),
      'skills/notes/evals/evals.json': evalsWith(['inputs/a.txt', 'b.txt', 'shared/c.txt', 'data']),
      'skills/notes/inputs/a.txt': 'a',
      'skills/notes/evals/b.txt': 'b',
      'shared/c.txt': 'c',
      'skills/notes/data/one.csv': '1',
      'skills/notes/data/deep/two.csv': '2',
    });
    const imported = await importEvals(path.join(root, 'skills/notes'));
    expect(imported.ok).toBe(true);
    if (!imported.ok || imported.value.kind !== 'evals') return;
    const files = imported.value.cases[0]?.files ?? [];
    expect(
      files.map((entry) => [entry.entry, entry.from, entry.files.map((file) => file.workPath)]),
    ).toEqual([
      ['inputs/a.txt', 'skill directory', ['inputs/a.txt']],
      ['b.txt', 'eval file folder', ['b.txt']],
      ['shared/c.txt', 'repository root', ['shared/c.txt']],
      ['data', 'skill directory', ['data/deep/two.csv', 'data/one.csv']],
    ]);
  });

  it("never copies the skill's own SKILL.md, and says so", async () => {
    const root = repo({ 'SKILL.md': skill('notes'), 'evals/evals.json': evalsWith(['SKILL.md']) });
    const imported = await importEvals(root);
    if (!imported.ok || imported.value.kind !== 'evals') throw new Error('not imported');
    const [entry] = imported.value.cases[0]?.files ?? [];
    expect(entry?.files).toEqual([]);
    expect(entry?.skipped).toMatch(/every arm brings its own version/);
  });

  it('never copies the eval file itself, named or inside a directory, so no session reads the expectations it is graded on', async () => {
    const root = repo({
      'SKILL.md': skill('notes'),
      'evals/evals.json': evalsWith(['evals/evals.json', 'evals']),
      'evals/files/in.md': 'input',
    });
    const imported = await importEvals(root);
    if (!imported.ok || imported.value.kind !== 'evals') throw new Error('not imported');
    const [named, folder] = imported.value.cases[0]?.files ?? [];
    expect(named?.files).toEqual([]);
    expect(named?.skipped).toMatch(/the eval file itself/);
    expect(folder?.files.map((file) => file.workPath)).toEqual(['evals/files/in.md']);
  });

  it('leave to the judge a file check an input already satisfies: it would pass without the behaviour', async () => {
    const root = repo({
      'SKILL.md': skill('notes'),
      'evals/evals.json': JSON.stringify({
        evals: [
          {
            id: 1,
            prompt: 'Edit `in.md` and write `out.md`.',
            files: ['in.md'],
            expectations: [
              '`in.md` exists',
              '`in.md` contains "hello"',
              '`in.md` contains "goodbye"',
              '`out.md` exists',
            ],
          },
        ],
      }),
      'in.md': 'hello world',
    });
    const imported = await importEvals(root);
    if (!imported.ok || imported.value.kind !== 'evals') throw new Error('not imported');
    const plans = imported.value.cases[0]?.compiled ?? [];
    expect(plans.map((plan) => [plan.decidedBy, plan.check.verb])).toEqual([
      ['judge', 'judged'],
      ['judge', 'judged'],
      ['check', 'file-contains'],
      ['check', 'file-exists'],
    ]);
    expect(plans[0]?.why).toMatch(/in\.md is one of the case's input files/);
  });

  it('refuse the whole file when an entry exists nowhere, naming it and the places looked in', async () => {
    const root = repo({
      'SKILL.md': skill('notes'),
      'evals/evals.json': evalsWith(['inputs/gone.txt']),
    });
    const imported = await importEvals(root);
    expect(imported.ok).toBe(false);
    if (imported.ok) return;
    expect(imported.error.input).toBe(`${path.join(root, 'evals/evals.json')}: evals[0].files[0]`);
    expect(imported.error.problem).toMatch(
      /^"inputs\/gone\.txt" does not exist: looked in the skill directory \(.*\), the eval file folder/,
    );
  });

  it('refuse absolute paths, placeholders, climbing out, and a link that leads out of the repository', async () => {
    for (const entry of ['/etc/hosts', '<your-file.pdf>', '~/Movies/demo.mp4', '../outside.txt']) {
      const root = repo({ 'SKILL.md': skill('notes'), 'evals/evals.json': evalsWith([entry]) });
      const imported = await importEvals(root);
      expect(imported.ok, entry).toBe(false);
    }
    const outside = makeTempDir('redgreen-outside-');
    writeFileSync(path.join(outside, 'secret.txt'), 's');
    const root = repo({ 'SKILL.md': skill('notes'), 'evals/evals.json': evalsWith(['link.txt']) });
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    const imported = await importEvals(root);
    expect(imported.ok).toBe(false);
    if (!imported.ok) expect(imported.error.problem).toMatch(/leads outside the repository/);
  });
});

describe('the skill and its eval file', () => {
  it('finds a root evals/ folder for a skill in a subfolder, and the skill by name from the file', async () => {
    const root = repo({
      'tool/SKILL.md': skill('tool'),
      'other/SKILL.md': skill('other'),
      'evals/evals.json': evalsWith([], 'tool'),
    });
    const fromSkill = await importEvals(path.join(root, 'tool'));
    expect(fromSkill.ok && fromSkill.value.file).toBe(path.join(root, 'evals/evals.json'));
    const fromFile = await importEvals(path.join(root, 'evals/evals.json'));
    expect(fromFile.ok && fromFile.value.skill.name).toBe('tool');
  });

  it('refuses when the skill cannot be told, or the folder has no eval file', async () => {
    const root = repo({
      'a/SKILL.md': skill('a'),
      'b/SKILL.md': skill('b'),
      'evals/evals.json': evalsWith([], 'c'),
    });
    const ambiguous = await importEvals(path.join(root, 'evals/evals.json'));
    expect(ambiguous.ok).toBe(false);
    if (!ambiguous.ok)
      expect(ambiguous.error.problem).toMatch(/no SKILL\.md under .* is named "c"/);
    const none = await importEvals(path.join(root, 'a'));
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.error.problem).toMatch(/has no evals\/evals\.json/);
    const notJson = repo({ 'SKILL.md': skill('x'), 'evals/evals.json': '{"evals": [,]}' });
    const broken = await importEvals(notJson);
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error.problem).toMatch(/is not valid JSON/);
  });
});
