/**
 * An `--out` that cannot be created — under /proc, inside an immutable
 * directory, below a regular file, through a dangling symlink — fails at
 * once for `run` (with or without --dry-run), `merge` and `export`: a
 * one-line error naming the path, exit 2, nothing created, no temp dir left.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, cleanEnv, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, sharedOneRep } from './support.js';

function canMakeImmutable(dir: string): boolean {
  return spawnSync('chattr', ['+i', dir], { stdio: 'ignore' }).status === 0;
}

interface BadOut {
  readonly name: string;
  /** Make the bad path inside `base`; return it and anything that must not change. */
  readonly make: (base: string) => { out: string; cleanup?: () => void } | { skip: string };
}

const badOuts: readonly BadOut[] = [
  { name: 'a path under /proc', make: () => ({ out: `/proc/redgreen-test-${process.pid}` }) },
  {
    name: 'a directory inside a regular file',
    make: (base) => {
      writeFileSync(path.join(base, 'a-file'), 'x');
      return { out: path.join(base, 'a-file', 'out') };
    },
  },
  {
    name: 'a dangling symlink',
    make: (base) => {
      symlinkSync(path.join(base, 'missing-target'), path.join(base, 'link'));
      return { out: path.join(base, 'link') };
    },
  },
  {
    name: 'a directory inside an immutable directory',
    make: (base) => {
      const locked = path.join(base, 'immutable');
      mkdirSync(locked);
      if (!canMakeImmutable(locked)) return { skip: 'chattr +i is not permitted here' };
      return {
        out: path.join(locked, 'out'),
        cleanup: () => spawnSync('chattr', ['-i', locked], { stdio: 'ignore' }),
      };
    },
  },
];

function expectOneLineRefusal(result: CliResult, out: string): void {
  expect(result.timedOut, 'the command hung').toBe(false);
  expect(result.exitCode, result.stderr).toBe(2);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^redgreen: /);
  expect(lines[0]).toContain(out);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe('an --out that cannot be created', () => {
  let shard: string;
  beforeAll(async () => {
    const { out, run } = await sharedOneRep('1/4');
    expect(run.exitCode, run.stderr).toBe(0);
    // Kept for every test of the file (test temp dirs go after each test).
    shard = path.join(mkdtempSync(path.join(os.tmpdir(), 'redgreen-shard-')), 'out');
    cpSync(out, shard, { recursive: true });
  });
  afterAll(() => rmSync(path.dirname(shard), { recursive: true, force: true }));

  for (const bad of badOuts) {
    it(`${bad.name}: run, run --dry-run, merge and export refuse it at once`, async (context) => {
      const base = makeTempDir();
      const made = bad.make(base);
      if ('skip' in made) {
        console.log(`skipping "${bad.name}": ${made.skip}`);
        context.skip();
        return;
      }
      try {
        await expectAllRefuse(made.out, base);
      } finally {
        made.cleanup?.();
      }
    });
  }

  async function expectAllRefuse(out: string, base: string): Promise<void> {
    const tmp = path.join(base, 'tmp');
    mkdirSync(tmp);
    const listing = () => readdirSync(base).sort();
    const before = listing();
    const env = cleanEnv({ TMPDIR: tmp });
    const commands: readonly (readonly string[])[] = [
      ['run', defaultCampaign, '--reps', '1', '--out', out],
      ['run', defaultCampaign, '--dry-run', '--out', out],
      ['merge', shard, '--out', out],
      ['export', '--atif', shard, '--out', out],
    ];
    for (const args of commands) {
      const result = await runCli(args, { env, timeoutMs: 60_000 });
      expectOneLineRefusal(result, out);
      expect(listing(), args.join(' ')).toEqual(before);
      expect(readdirSync(tmp), args.join(' ')).toEqual([]);
    }
    expect(existsSync(path.join(shard, 'atif'))).toBe(false);
    expect(readFileSync(path.join(shard, 'ledger.jsonl'), 'utf8')).toContain('"type":"rep"');
  }
});
