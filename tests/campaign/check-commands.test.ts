/**
 * A rep-time check command (`command-succeeds npm test`) runs in an
 * environment the work tree cannot change: a session that breaks the
 * project's code and then plants a project `.npmrc` (`script-shell=/bin/true`,
 * or `node-options` that end node at once) or a fake `node` where npm puts it
 * first on a script's PATH (`node_modules/.bin/`) must still see the suite
 * fail. Planted negatives: run the way a session's own command runs, each
 * plant makes the broken suite "pass".
 */
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCheckCommands } from '../../harness/run/rep-evidence.js';
import {
  detectSandbox,
  runConfined,
  type Sandbox,
  whileHandedOver,
} from '../../harness/sandbox/sandbox.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await detectSandbox();
});

/** A node project whose one test fails (the session broke the code). */
function brokenProject(): string {
  const repo = path.join(makeTempDir('redgreen-check-commands-'), 'repo');
  mkdirSync(path.join(repo, 'test'), { recursive: true });
  writeFileSync(
    path.join(repo, 'package.json'),
    `${JSON.stringify({ name: 'broken', private: true, scripts: { test: 'node --test' } })}\n`,
  );
  writeFileSync(
    path.join(repo, 'test', 'sum.test.js'),
    "const test = require('node:test');\nconst assert = require('node:assert');\ntest('sum', () => assert.equal(1 + 1, 3));\n",
  );
  return repo;
}

const plants: Record<
  string,
  { files: Record<string, string>; links?: Record<string, string>; planted: string[] }
> = {
  '.npmrc script-shell=/bin/true': {
    files: { '.npmrc': 'script-shell=/bin/true\n' },
    planted: ['.npmrc'],
  },
  '.npmrc node-options ending node at once': {
    files: {
      '.npmrc': 'node-options=--require ./pass.cjs\n',
      'pass.cjs': 'process.exit(0);\n',
    },
    planted: ['.npmrc', 'pass.cjs'],
  },
  'a fake node in node_modules/.bin': {
    files: { 'node_modules/.bin/node': '#!/bin/sh\nexit 0\n' },
    planted: ['node_modules/.bin/node'],
  },
  'node_modules a symlink to a directory whose .bin holds a fake node': {
    files: { 'vendor/.bin/node': '#!/bin/sh\nexit 0\n' },
    links: { node_modules: 'vendor' },
    planted: ['node_modules', 'vendor/.bin/node'],
  },
  'node_modules/.bin a symlink to a directory holding a fake node': {
    files: { 'tools/node': '#!/bin/sh\nexit 0\n' },
    links: { 'node_modules/.bin': '../tools' },
    planted: ['node_modules/.bin', 'tools/node'],
  },
};

function plant(
  repo: string,
  files: Record<string, string>,
  links: Record<string, string> = {},
): void {
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(repo, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    chmodSync(file, 0o755);
  }
  for (const [name, target] of Object.entries(links)) {
    mkdirSync(path.dirname(path.join(repo, name)), { recursive: true });
    symlinkSync(target, path.join(repo, name));
  }
}

/** How `npm test` ended as a check; a failure must be the suite's own (its one test failing). */
async function checkExit(repo: string, planted: readonly string[]): Promise<number | null> {
  const [outcome] = await runCheckCommands(
    sandbox,
    'post',
    [{ command: 'npm test', timeoutSeconds: 60 }],
    { repoDir: repo, readOnlyDirs: [], home: path.join(path.dirname(repo), 'home'), planted },
  );
  if (outcome?.exitCode !== 0) expect(outcome?.output).toMatch(/^# fail 1$/m);
  return outcome?.exitCode ?? null;
}

/** `npm test` run the way a session's own Bash command runs. */
async function sessionExit(repo: string): Promise<number | null> {
  const result = await whileHandedOver(sandbox, [repo], () =>
    runConfined(sandbox, {
      argv: ['bash', '-c', 'npm test'],
      fixtureDir: repo,
      readOnlyDirs: [],
      fallbackHome: path.dirname(repo),
      timeoutMs: 60_000,
      maxOutputBytes: 16_000,
    }),
  );
  return result.exitCode;
}

describe('check commands the work tree cannot subvert', () => {
  it('the broken suite fails as a check, and passes once mended (the check can pass)', async () => {
    const repo = brokenProject();
    expect(await checkExit(repo, [])).not.toBe(0);
    const test = path.join(repo, 'test', 'sum.test.js');
    writeFileSync(test, readFileSync(test, 'utf8').replace('1 + 1, 3', '1 + 1, 2'));
    expect(await checkExit(repo, ['test/sum.test.js'])).toBe(0);
  });

  for (const [name, { files, links, planted }] of Object.entries(plants)) {
    it(`${name}: the check still fails; run as a session runs it, the plant makes it pass`, async () => {
      const repo = brokenProject();
      plant(repo, files, links);
      expect(await sessionExit(repo)).toBe(0);
      expect(await checkExit(repo, planted)).not.toBe(0);
    });
  }
});
