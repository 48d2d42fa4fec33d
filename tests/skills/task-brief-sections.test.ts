/**
 * How task-brief cuts a task out of a plan, for both skills (their extraction
 * code is the same; only the default output directory differs, so these run
 * with an explicit OUTFILE).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseBriefLine, ScriptSandbox, type SkillName } from './script-sandbox.js';

const plan = [
  '# Plan',
  '',
  '## Task 1: Fenced headings are content',
  '',
  '```md',
  '## Task 2: not a heading, inside a fence',
  '```',
  '',
  '### Step detail',
  'kept: a deeper heading belongs to the task',
  '',
  '## Task 10: Ten',
  'ten',
  '',
  '## Task 2: The real task 2',
  'two',
  '',
  '## Notes',
  'not part of any task',
  '',
  '# Appendix',
  '',
  '### Task 3: a level-3 task heading',
  'three',
  '',
  '#### Task 3 detail',
  'still task 3',
  '',
  '### Afterword',
  'not task 3',
  '',
].join('\n');

const skills: readonly SkillName[] = ['sdd-released', 'sdd-plan-scoped'];

describe.each(skills)('%s task-brief', (skill) => {
  let box: ScriptSandbox;

  beforeEach(async () => {
    box = await ScriptSandbox.create(skill);
    writeFileSync(path.join(box.repo, 'plan.md'), plan);
  });

  afterEach(() => box.dispose());

  async function brief(n: string): Promise<{ text: string; lines: number | undefined }> {
    const out = path.join(box.root, `brief-${n}.md`);
    const result = await box.run('task-brief', ['plan.md', n, out]);
    expect(result.exitCode).toBe(0);
    return { text: readFileSync(out, 'utf8'), lines: parseBriefLine(result.stdout)?.lines };
  }

  it('keeps fenced and deeper headings and stops at the next heading of its level', async () => {
    const task1 = await brief('1');
    expect(task1.text).toBe(
      [
        '## Task 1: Fenced headings are content',
        '',
        '```md',
        '## Task 2: not a heading, inside a fence',
        '```',
        '',
        '### Step detail',
        'kept: a deeper heading belongs to the task',
        '',
      ].join('\n'),
    );
    expect(task1.lines).toBe(8);
  });

  it('does not take Task 10 for Task 1, nor a fenced Task 2 for the real one', async () => {
    expect((await brief('2')).text).toBe('## Task 2: The real task 2\ntwo\n');
    expect((await brief('10')).text).toBe('## Task 10: Ten\nten\n');
    expect((await brief('010')).text).toBe('## Task 10: Ten\nten\n');
  });

  it('accepts ### Task N headings and ends them at the next ### heading', async () => {
    expect((await brief('3')).text).toBe(
      '### Task 3: a level-3 task heading\nthree\n\n#### Task 3 detail\nstill task 3\n',
    );
  });

  it('finds a task in a plan saved with CRLF line endings', async () => {
    writeFileSync(path.join(box.repo, 'plan.md'), '# Plan\r\n\r\n## Task 1\r\nbody\r\n');
    expect((await brief('1')).text).toBe('## Task 1\r\nbody\r\n');
  });

  it('exits 3 for a task number the plan does not have, and writes nothing', async () => {
    const out = path.join(box.root, 'brief-4.md');
    const result = await box.run('task-brief', ['plan.md', '4', out]);
    expect(result.exitCode).toBe(3);
    expect(existsSync(out)).toBe(false);
  });
});
