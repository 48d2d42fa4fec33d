/**
 * `redgreen scenario lint --backend codex`, through the CLI: a scenario the
 * codex run would refuse at load (an event stop other than a dispatch, a
 * scripted user, user turns, tools changes) is refused by lint the same
 * way, one line naming the file and the field, exit 2, before any fixture
 * is built; a scenario codex can run lints there (the real binary, skipped
 * with the reason printed where it or bubblewrap is absent).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';
import { codexSkipReason } from '../helpers/codex-skip.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const shipped = path.join(repoRoot, 'scenarios', 'tests-later-pressure');

/** A copy of the shipped scenario with `change` applied to its scenario.json. */
function variant(change: (config: Record<string, unknown>) => void): string {
  const dir = path.join(makeTempDir(), 'tests-later-pressure');
  cpSync(shipped, dir, { recursive: true });
  const file = path.join(dir, 'scenario.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  change(config);
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return dir;
}

describe('scenario lint --backend codex refuses what a codex run refuses', () => {
  const cases: [string, (config: Record<string, unknown>) => void, RegExp][] = [
    [
      'an event stop at a write',
      (config) => {
        config.stop = { at: { event: 'write' } };
      },
      /scenario\.json: stop: stop \{ "at": … \} captures a call other than a dispatch before it runs, which the codex backend cannot .*; use stop "first-dispatch".*, or lint with another --backend$/,
    ],
    [
      'a scripted user',
      (config) => {
        config.stop = 'complete';
        config.user = { answers: [{ id: 'a', pattern: 'x', answer: 'y' }] };
      },
      /scenario\.json: user: a scripted user answers the question tool, which the codex backend does not have .*; drop "user", or lint with another --backend$/,
    ],
    [
      'user turns',
      (config) => {
        config.stop = 'complete';
        config.user = { turns: [{ id: 'docs', say: 'and now the docs' }] };
      },
      /scenario\.json: user\.turns: the codex backend runs one prompt per session .*; drop the turns, or lint with another --backend$/,
    ],
    [
      'tools changes',
      (config) => {
        config.tools = { remove: ['Bash'] };
      },
      /scenario\.json: tools\.\w+: .*codex.*, or lint with another --backend$/,
    ],
  ];
  for (const [what, change, message] of cases) {
    it(`${what}: one line, exit 2, nothing run`, async () => {
      const dir = variant(change);
      const lint = await runCli(['scenario', 'lint', dir, '--backend', 'codex']);
      expect(lint.exitCode, lint.stderr).toBe(2);
      const lines = lint.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(lines[0]).toContain(path.join(dir, 'scenario.json'));
      expect(lint.stdout).toBe('');
    });
  }

  it('names codex among --backend’s choices', async () => {
    const help = await runCli(['scenario', 'lint', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/choices: "messages", "claude-code", "codex"/);
  });
});

describe('scenario lint --backend codex runs a scenario codex can run', async () => {
  const skip = await codexSkipReason('scenario lint on the real codex engine');
  it.skipIf(skip !== undefined)(
    'tests-later-pressure: every calibration lands as declared on codex',
    async () => {
      const lint = await runCli(['scenario', 'lint', shipped, '--backend', 'codex'], {
        timeoutMs: 240_000,
      });
      expect(lint.exitCode, `${lint.stdout}\n${lint.stderr}`).toBe(0);
      expect(lint.stdout).toContain('calibration on the codex backend, offline:');
      expect(
        lint.stdout.split('\n').filter((line) => /^\| calibration .*\| yes \|$/.test(line)),
      ).toHaveLength(4);
      expect(lint.stdout).toContain('lint: tests-later-pressure is sound');
    },
    240_000,
  );
});
