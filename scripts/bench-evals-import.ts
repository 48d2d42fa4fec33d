/**
 * Benchmark: importing skills' own eval files is reading and classifying
 * JSON. Generates N skills (default 1,000) in one temp git repository, each
 * with a SKILL.md and an evals/evals.json in one of the shapes authors write
 * (skill-creator's documented one, `assertions` objects with a machine type,
 * `must_have` / `must_not_have` regex lists, a top-level list with the small
 * `contains '…'` language) and the input file it names, then times
 * `importEvals` on every skill folder, the path `redgreen evals lint` and
 * `run --evals` take. Prints the figure; asserts nothing about time.
 *
 *   node dist/scripts/bench-evals-import.js [--files N] [--keep]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { importEvals } from '../harness/evals/import-evals.js';

function shapeOf(index: number, name: string): unknown {
  const file = `evals/files/input-${index}.md`;
  const prompt = `Read \`${file}\`, then write \`out/${index}.txt\` containing \`done ${index}\`.`;
  switch (index % 4) {
    case 0:
      return {
        skill_name: name,
        evals: [
          {
            id: 1,
            prompt,
            expected_output: 'The file is written and the reply says so.',
            files: [file],
            expectations: [
              `\`out/${index}.txt\` exists`,
              `\`out/${index}.txt\` contains "done ${index}"`,
              'The reply mentions "Saved."',
              'The note keeps the user’s wording',
            ],
          },
        ],
      };
    case 1:
      return {
        skill_name: name,
        version: '1.0',
        evals: [
          {
            id: 'case-a',
            eval_name: 'writes the file',
            prompt,
            files: [{ path: file, purpose: 'input' }],
            assertions: [
              { id: 'a1', text: 'Names the file', type: 'content_contains', pattern: 'done' },
              { id: 'a2', text: 'No error', type: 'behavior_not_contains', pattern: 'error' },
              { id: 'a3', text: 'The reply is polite', type: 'qualitative' },
            ],
          },
        ],
      };
    case 2:
      return {
        skill_name: name,
        evals: [
          {
            id: 0,
            prompt,
            files: [file],
            must_have: ['done \\d+', '^out/'],
            must_not_have: ['TODO'],
          },
        ],
      };
    default:
      return [
        {
          id: `q${index}`,
          prompt,
          files: [file],
          assertions: [`contains 'done ${index}'`, "does not contain 'FAILED'"],
        },
      ];
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const count = Number(args[args.indexOf('--files') + 1] ?? 1000) || 1000;
  const keep = args.includes('--keep');
  const root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-bench-evals-'));
  const skills: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const name = `skill-${index}`;
    const dir = path.join(root, 'skills', name);
    mkdirSync(path.join(dir, 'evals', 'files'), { recursive: true });
    writeFileSync(
      path.join(dir, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Use when the user asks for skill ${index}\n---\n\n# ${name}\n`,
    );
    writeFileSync(
      path.join(dir, 'evals', 'evals.json'),
      `${JSON.stringify(shapeOf(index, name), null, 2)}\n`,
    );
    writeFileSync(path.join(dir, 'evals', 'files', `input-${index}.md`), `input ${index}\n`);
    skills.push(dir);
  }
  execFileSync('git', ['init', '-q', root], {
    env: { PATH: process.env.PATH ?? '', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
  let cases = 0;
  let expectations = 0;
  const started = performance.now();
  for (const skill of skills) {
    const imported = await importEvals(skill);
    if (!imported.ok) {
      throw new Error(`${imported.error.input}: ${imported.error.problem}`);
    }
    if ('cases' in imported.value) {
      cases += imported.value.cases.length;
      expectations += imported.value.cases.reduce((sum, item) => sum + item.compiled.length, 0);
    }
  }
  const ms = performance.now() - started;
  process.stdout.write(
    `imported ${count} eval files (${cases} cases, ${expectations} expectations) in ${(ms / 1000).toFixed(2)} s (${(ms / count).toFixed(2)} ms a file)\n`,
  );
  if (keep) process.stdout.write(`kept: ${root}\n`);
  else rmSync(root, { recursive: true, force: true });
}

await main();
