/**
 * A command line redgreen cannot parse (an unknown option or command, a bad
 * or missing value, a missing or extra argument) gets what every other bad
 * input gets: one line on stderr, `redgreen: ` first, naming the input and
 * the fix, exit 2, nothing on stdout.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const cases: { args: string[]; names: RegExp; fix: RegExp }[] = [
  { args: ['run', '--reps', '0'], names: /--reps/, fix: /whole number from 1 to/ },
  { args: ['run', '--repz', '3'], names: /--repz/, fix: /did you mean --reps\?/i },
  { args: ['run', '--backend', 'mesages'], names: /mesages/, fix: /claude-code, messages/ },
  { args: ['gate'], names: /results-dir/, fix: /redgreen gate --help/ },
  { args: ['gate', 'a', 'b'], names: /too many arguments/, fix: /redgreen gate --help/ },
  { args: ['merge', 'a'], names: /--out/, fix: /redgreen merge --help/ },
  { args: ['run', '--out'], names: /--out/, fix: /redgreen run --help/ },
  { args: ['frobnicate'], names: /frobnicate/, fix: /redgreen --help/ },
];

describe('a command line that does not parse', () => {
  for (const { args, names, fix } of cases) {
    it(`redgreen ${args.join(' ')}: one line naming the input and the fix, exit 2`, async () => {
      const result = await runCli(args);
      expect(result.exitCode, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trim().split('\n');
      expect(lines, result.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^redgreen: /);
      expect(lines[0]).toMatch(names);
      expect(lines[0]).toMatch(fix);
    });
  }
});
