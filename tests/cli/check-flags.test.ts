/** A pack's flags on the check commands: declared on the command, turned into the check request. */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  addCheckFlags,
  checkFlags,
  registerCheckFlags,
  requestFromCheckFlags,
} from '../../harness/cli/check-flags.js';

describe('check flags a pack adds', () => {
  it("the sdd pack's --plan is installed and sets the request's own plan", () => {
    expect(checkFlags().map((flag) => flag.flags)).toContain('--plan <path>');
    const command = addCheckFlags(new Command('check').exitOverride());
    command.parse(['--plan', 'docs/plans/x.md'], { from: 'user' });
    expect(requestFromCheckFlags(command.opts())).toEqual({ plan: 'docs/plans/x.md' });
  });

  it('sets nothing when the flag is not given', () => {
    expect(requestFromCheckFlags({ json: true })).toEqual({});
  });

  it('refuses a flag not of the form --name <value>, and a second pack adding the same flag', () => {
    const toRequest = () => ({});
    expect(() => registerCheckFlags([{ flags: '-p', description: 'x', toRequest }])).toThrow(
      /not of the form --name <value>/,
    );
    expect(() =>
      registerCheckFlags([{ flags: '--plan <path>', description: 'x', toRequest }]),
    ).toThrow(/two packs add the check flag --plan <path>/);
  });

  it('refuses a flag the command already has', () => {
    const command = new Command('check').option('--plan <path>', 'core');
    expect(() => addCheckFlags(command)).toThrow(/already an option of check/);
  });
});
