/**
 * A pack's flags on the check commands: declared on the command, turned into
 * the check request; one given for a scenario that does not name its pack is
 * refused.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  addCheckFlags,
  checkFlags,
  registerCheckFlags,
  requestFromCheckFlags,
} from '../../harness/cli/check-flags.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

describe('check flags a pack adds', () => {
  it("the sdd pack's --plan is installed and sets the request's own plan", () => {
    expect(checkFlags().map((flag) => flag.flags)).toContain('--plan <path>');
    const command = addCheckFlags(new Command('check').exitOverride());
    command.parse(['--plan', 'docs/plans/x.md'], { from: 'user' });
    expect(requestFromCheckFlags(command.opts())).toEqual({
      plan: 'docs/plans/x.md',
      packFlags: [{ input: '--plan docs/plans/x.md', pack: 'sdd' }],
    });
  });

  it('sets nothing when the flag is not given', () => {
    expect(requestFromCheckFlags({ json: true })).toEqual({});
  });

  it('refuses a flag not of the form --name <value>, and a second pack adding the same flag', () => {
    const toRequest = () => ({});
    expect(() =>
      registerCheckFlags('probe', [{ flags: '-p', description: 'x', toRequest }]),
    ).toThrow(/not of the form --name <value>/);
    expect(() =>
      registerCheckFlags('probe', [{ flags: '--plan <path>', description: 'x', toRequest }]),
    ).toThrow(/two packs add the check flag --plan <path>/);
  });

  it('refuses a flag the command already has', () => {
    const command = new Command('check').option('--plan <path>', 'core');
    expect(() => addCheckFlags(command)).toThrow(/already an option of check/);
  });
});

describe("a pack's flag for a scenario that does not name the pack", () => {
  const replyFile = (): string => {
    const file = path.join(makeTempDir(), 'reply.md');
    writeFileSync(file, 'Wrote CHANGELOG.md.\n');
    return file;
  };

  it.each([
    ['check', (reply: string) => ['check', 'release-notes-from-history', '--reply', reply]],
    [
      'score-reply',
      (reply: string) => ['score-reply', '--scenario', 'release-notes-from-history', reply],
    ],
  ] as const)(
    'is refused by %s in one line naming the flag and the pack to add (exit 2)',
    async (_, argsFor) => {
      const args = argsFor(replyFile());
      const refused = await runCli([...args, '--plan', 'docs/plans/x.md']);
      expect(refused.exitCode).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(refused.stderr).toContain('--plan docs/plans/x.md');
      expect(refused.stderr).toContain('which scenario release-notes-from-history does not name');
      expect(refused.stderr).toContain('add "sdd" to the scenario\'s "packs"');
      // Planted: the same command without the flag is checked.
      const checked = await runCli(args);
      expect(checked.stderr).toBe('');
      expect(checked.exitCode).toBe(0);
    },
  );
});
