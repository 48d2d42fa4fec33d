/**
 * The command a stopped run prints must work when pasted where it was run.
 * Installed as a project's dependency, redgreen is not on PATH: it runs as
 * `npx redgreen` (node_modules/.bin/redgreen), and the hint says so.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { cleanEnv, cliPath, repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, repLines } from './support.js';

/** A project with redgreen installed as npm would: node_modules/redgreen and its bin link. */
function projectWithRedgreen(): string {
  const project = path.join(makeTempDir(), 'project');
  mkdirSync(path.join(project, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(
    path.join(project, 'package.json'),
    '{"name":"uses-redgreen","version":"1.0.0","private":true}\n',
  );
  symlinkSync(repoRoot, path.join(project, 'node_modules', 'redgreen'));
  symlinkSync(
    '../redgreen/dist/harness/cli.js',
    path.join(project, 'node_modules', '.bin', 'redgreen'),
  );
  // npm makes a bin executable when it installs it.
  chmodSync(cliPath, 0o755);
  return project;
}

describe('the resume command a stopped run prints', () => {
  it('under npx (node_modules/.bin/redgreen) is `npx redgreen run --resume <dir>`, and pasted it finishes the run', async () => {
    const project = projectWithRedgreen();
    const env = cleanEnv({ HOME: path.join(project, 'home') });
    const child = execa(
      process.execPath,
      [
        path.join(project, 'node_modules', '.bin', 'redgreen'),
        'run',
        path.join(repoRoot, defaultCampaign),
        '--reps',
        '1',
        '--concurrency',
        '1',
        '--fault',
        'delay=300ms',
        '--out',
        'out',
        '--json',
      ],
      { cwd: project, env, extendEnv: false, reject: false },
    );
    let interrupted = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      if (!interrupted && chunk.toString().includes('"type":"rep-start"')) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const stopped = await child;
    expect(stopped.exitCode, String(stopped.stderr)).toBe(1);
    const hint = /to finish the run: (.*)$/m.exec(String(stopped.stderr))?.[1];
    expect(hint).toBe('npx redgreen run --resume out');

    const pasted = await execa('sh', ['-c', hint ?? 'false'], {
      cwd: project,
      env,
      extendEnv: false,
      reject: false,
      timeout: 240_000,
    });
    expect(pasted.exitCode, String(pasted.stderr)).toBe(0);
    expect(repLines(path.join(project, 'out'))).toHaveLength(4);
  });
});
