/**
 * A campaign run by an ordinary user. CI runs as root, where file modes
 * never get in the way; so the test drops to an unprivileged uid (nobody)
 * with setpriv, in a directory that user owns (running a readable copy of
 * the checkout when that user cannot read this one). The run must record and
 * report every rep, leave no temporary directory behind, and leave a results
 * directory its owner can delete (the read-only skill copies included).
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath, repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, repLines } from './support.js';

const NOBODY = 65534;

/** What a run reads from the checkout: the built CLI, its dependencies, data files beside the sources (harness/), the campaign's files. */
const RUN_NEEDS = [
  'package.json',
  'dist',
  'node_modules',
  'harness',
  'scenarios',
  'skills-under-test',
  'fixtures',
  'packs',
];

/**
 * How to run a command as an unprivileged user here, or why it cannot be
 * done. `copy` is set when that user cannot read this checkout (one under a
 * 0700 home, say): the tests then run a copy of what a run needs.
 */
function unprivileged(): { prefix: string[]; copy: boolean } | { skip: string } {
  const uid = process.getuid?.();
  if (uid === undefined) return { skip: 'no POSIX user ids on this platform' };
  if (uid !== 0) return { prefix: [], copy: false };
  const drop = ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'];
  const probe = spawnSync(drop[0] ?? 'setpriv', [...drop.slice(1), 'true'], { stdio: 'ignore' });
  if (probe.error !== undefined) return { skip: 'setpriv is not installed (util-linux)' };
  if (probe.status !== 0) return { skip: 'this root cannot drop privileges (no CAP_SETUID)' };
  return { prefix: drop, copy: !readableAsUser(drop, cliPath) };
}

function readableAsUser(prefix: readonly string[], file: string): boolean {
  if (prefix.length === 0) return true;
  const [command = '', ...args] = [...prefix, 'test', '-r', file];
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/**
 * A copy of what a run needs in a temp dir every user can read: hard links
 * where the file system allows (instant, and the files stay root's), else a
 * plain copy opened to everyone. Throws when even that stays unreadable.
 */
function readableCopy(prefix: readonly string[]): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-checkout-'));
  chmodSync(root, 0o755);
  const linked = spawnSync(
    'cp',
    ['-al', ...RUN_NEEDS.map((entry) => path.join(repoRoot, entry)), root],
    {
      stdio: 'ignore',
    },
  );
  const copiedCli = path.join(root, 'dist/harness/cli.js');
  if (linked.status !== 0 || !readableAsUser(prefix, copiedCli)) {
    for (const entry of RUN_NEEDS) {
      rmSync(path.join(root, entry), { recursive: true, force: true });
      cpSync(path.join(repoRoot, entry), path.join(root, entry), { recursive: true });
    }
    spawnSync('chmod', ['-R', 'a+rX', root], { stdio: 'ignore' });
  }
  if (!readableAsUser(prefix, copiedCli)) {
    throw new Error(
      `uid ${NOBODY} cannot read a copy of this checkout in ${root}: is ${os.tmpdir()} open to every user?`,
    );
  }
  return root;
}

const how = unprivileged();
if ('skip' in how) console.log(`skipping the unprivileged-user test: ${how.skip}`);

/** The checkout the unprivileged user runs: this one, or a readable copy (made in beforeAll). */
let checkout = repoRoot;
beforeAll(() => {
  if ('copy' in how && how.copy) checkout = readableCopy(how.prefix);
});
afterAll(() => {
  if (checkout !== repoRoot) rmSync(checkout, { recursive: true, force: true });
});
const cli = (): string => path.join(checkout, 'dist/harness/cli.js');

/** A home, a TMPDIR and a place for results owned by the unprivileged user, and a way to run as them. */
function userSpace() {
  const prefix = 'prefix' in how ? how.prefix : [];
  const base = makeTempDir();
  const home = path.join(base, 'home');
  const tmp = path.join(base, 'tmp');
  const out = path.join(base, 'out');
  mkdirSync(home);
  mkdirSync(tmp);
  if (prefix.length > 0) for (const dir of [base, home, tmp]) chownSync(dir, NOBODY, NOBODY);
  const asUser = (argv: readonly string[], env: Record<string, string> = {}) => {
    const [file = '', ...args] = [...prefix, ...argv];
    return spawnSync(file, args, {
      cwd: checkout,
      encoding: 'utf8',
      timeout: 240_000,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        TMPDIR: tmp,
        LANG: 'C',
        ...env,
      },
    });
  };
  return { base, home, tmp, out, asUser };
}

describe.skipIf('skip' in how)('a campaign run by an unprivileged user', () => {
  it('records and reports every rep, leaks no temp dir, and leaves results its owner can delete', () => {
    const { tmp, out, asUser } = userSpace();

    const run = asUser([
      process.execPath,
      cli(),
      'run',
      defaultCampaign,
      '--reps',
      '1',
      '--out',
      out,
    ]);
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).not.toContain('not recorded');
    expect(repLines(out)).toHaveLength(4);
    expect(existsSync(path.join(out, 'results.md')), output).toBe(true);
    expect(existsSync(path.join(out, '.redgreen.lock'))).toBe(false);
    expect(readdirSync(tmp).filter((entry) => entry.startsWith('redgreen-'))).toEqual([]);

    const remove = asUser(['rm', '-rf', out]);
    expect(remove.status, remove.stderr).toBe(0);
    expect(existsSync(out)).toBe(false);
  });

  it('with --keep-workdirs prints where it kept them, and its owner can delete them', () => {
    const { tmp, out, asUser } = userSpace();
    const run = asUser([
      process.execPath,
      cli(),
      'run',
      defaultCampaign,
      '--reps',
      '1',
      '--shard',
      '1/4',
      '--keep-workdirs',
      '--out',
      out,
    ]);
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    const kept = readdirSync(tmp).filter((entry) => entry.startsWith('redgreen-run-'));
    expect(kept, output).toHaveLength(1);
    const keptDir = path.join(tmp, kept[0] ?? '');
    expect(output).toContain(keptDir);
    const remove = asUser(['rm', '-rf', keptDir]);
    expect(remove.status, remove.stderr).toBe(0);
    expect(existsSync(keptDir)).toBe(false);
  });

  it('with a TMPDIR it cannot write gets one line naming TMPDIR, exit 2, and nothing is created', () => {
    const { home, out, asUser } = userSpace();
    const run = asUser(
      [process.execPath, cli(), 'run', defaultCampaign, '--reps', '1', '--out', out],
      { TMPDIR: '/root' },
    );
    expect(run.status, run.stderr).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^redgreen: TMPDIR/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(home)).toEqual([]);
  });
});
