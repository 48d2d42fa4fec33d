import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AtifIndex } from '../../harness/export/atif-index.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import {
  atifProblems,
  generateRun,
  jsonFilesUnder,
  readJson,
  roundTripProblems,
} from './support.js';

/** `redgreen export --atif` as a user runs it: the compiled CLI as a subprocess. */
let root = '';
let run = '';

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-export-cli-'));
  run = path.join(root, 'run');
  await generateRun(run, 'messages');
}, 240_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

/** A private copy of the run, so a test can change or write into it. */
function copyOfRun(): string {
  const copy = path.join(makeTempDir('redgreen-export-copy-'), 'run');
  cpSync(run, copy, { recursive: true });
  return copy;
}

describe('redgreen export --atif', () => {
  it('writes <results-dir>/atif/<arm>/<scenario>-rep<N>.json and index.json by default', async () => {
    const results = copyOfRun();
    const result = await runCli(['export', '--atif', results]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^wrote 1 ATIF v1\.4 trajectory to .*atif/);

    const out = path.join(results, 'atif');
    const index = readJson<AtifIndex>(path.join(out, 'index.json'));
    expect(index.schema_version).toBe('ATIF-v1.4');
    expect(index.results_dir).toBe('..');
    expect(index.trajectories).toHaveLength(1);
    const entry = index.trajectories[0];
    if (entry === undefined) throw new Error('empty index');
    expect(entry.file).toBe(`${entry.arm}/${entry.scenario}-rep${entry.rep}.json`);
    const trajectory = readJson(path.join(out, entry.file));
    expect(atifProblems(trajectory)).toEqual([]);
    const repDir = path.join(results, 'reps', entry.arm, `${entry.scenario}-rep${entry.rep}`);
    expect(roundTripProblems(readJson(path.join(out, entry.file)), repDir)).toEqual([]);
  });

  it('writes where --out says, and nothing into the results directory', async () => {
    const results = copyOfRun();
    const out = path.join(makeTempDir('redgreen-export-out-'), 'nested', 'atif');
    const result = await runCli(['export', '--atif', results, '--out', out]);
    expect(result.exitCode).toBe(0);
    expect(existsSync(path.join(results, 'atif'))).toBe(false);
    const files = jsonFilesUnder(out).map((file) => path.relative(out, file));
    expect(files).toContain('index.json');
    expect(files).toHaveLength(2);
    // No temp files left behind by the atomic writes.
    expect(jsonFilesUnder(out).every((file) => !path.basename(file).startsWith('.'))).toBe(true);
  });

  it('documents --atif and --out in its help', async () => {
    const result = await runCli(['export', '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('--atif <results-dir>');
    expect(result.stdout).toContain('--out <dir>');
    expect(result.stdout).toContain('ATIF v1.4');
  });
});

describe('redgreen export: bad input exits 2 with one line and writes nothing', () => {
  function expectOneLineError(result: { exitCode: number | undefined; stderr: string }): void {
    expect(result.exitCode).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^(redgreen: |error: )/);
    expect(lines.filter((text) => !text.startsWith('(run with --help'))).toHaveLength(1);
  }

  it('a directory that is not a results directory', async () => {
    const notResults = makeTempDir('redgreen-not-results-');
    const result = await runCli(['export', '--atif', notResults]);
    expectOneLineError(result);
    expect(result.stderr).toContain(notResults);
    expect(result.stderr).toContain('not a redgreen results directory');
    expect(existsSync(path.join(notResults, 'atif'))).toBe(false);
  });

  it('a path that does not exist', async () => {
    const missing = path.join(makeTempDir('redgreen-missing-'), 'no-such-run');
    const result = await runCli(['export', '--atif', missing]);
    expectOneLineError(result);
    expect(existsSync(missing)).toBe(false);
  });

  it('no --atif', async () => {
    const result = await runCli(['export']);
    expectOneLineError(result);
    expect(result.stderr).toContain('--atif');
  });

  it('--out naming a file', async () => {
    const results = copyOfRun();
    const file = path.join(makeTempDir('redgreen-export-file-'), 'taken');
    writeFileSync(file, 'not a directory\n');
    const result = await runCli(['export', '--atif', results, '--out', file]);
    expectOneLineError(result);
    expect(result.stderr).toContain('--out');
  });

  /** Every file under a directory with its bytes, to prove a refused export changed nothing. */
  function contentsOf(dir: string): Record<string, string> {
    const out: Record<string, string> = {};
    const walk = (current: string): void => {
      for (const entry of readdirSync(current, { withFileTypes: true })) {
        const full = path.join(current, entry.name);
        if (entry.isDirectory()) walk(full);
        else out[path.relative(dir, full)] = readFileSync(full, 'utf8');
      }
    };
    walk(dir);
    return out;
  }

  it('--out naming a non-empty directory: refused, nothing written into it', async () => {
    const results = copyOfRun();
    const out = makeTempDir('redgreen-export-taken-');
    writeFileSync(path.join(out, 'mine.txt'), 'a file the user already has\n');
    const before = contentsOf(out);
    const result = await runCli(['export', '--atif', results, '--out', out]);
    expectOneLineError(result);
    expect(result.stderr).toContain('--out');
    expect(result.stderr).toContain('not empty');
    expect(contentsOf(out)).toEqual(before);
  });

  it('--out inside the results directory, non-empty: refused, the results directory unchanged', async () => {
    const results = copyOfRun();
    const before = contentsOf(results);
    const result = await runCli(['export', '--atif', results, '--out', path.join(results, 'reps')]);
    expectOneLineError(result);
    expect(contentsOf(results)).toEqual(before);
  });

  it('a second export to the default directory: refused, the first export kept as it is', async () => {
    const results = copyOfRun();
    const first = await runCli(['export', '--atif', results]);
    expect(first.exitCode).toBe(0);
    const before = contentsOf(results);
    const second = await runCli(['export', '--atif', results]);
    expectOneLineError(second);
    expect(second.stderr).toContain(path.join(results, 'atif'));
    expect(contentsOf(results)).toEqual(before);
  });

  it('--out naming an existing empty directory is fine', async () => {
    const results = copyOfRun();
    const out = makeTempDir('redgreen-export-empty-');
    const result = await runCli(['export', '--atif', results, '--out', out]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(existsSync(path.join(out, 'index.json'))).toBe(true);
  });

  it('a rep whose transcript is gone: nothing is written, not even the other reps', async () => {
    const results = copyOfRun();
    const repDir = jsonFilesUnder(path.join(results, 'reps'))
      .find((file) => path.basename(file) === 'meta.json')
      ?.replace(/meta\.json$/, '');
    if (repDir === undefined) throw new Error('no rep in the run');
    rmSync(path.join(repDir, 'transcript.jsonl'));
    const result = await runCli(['export', '--atif', results]);
    expectOneLineError(result);
    expect(result.stderr).toContain('transcript.jsonl');
    expect(existsSync(path.join(results, 'atif'))).toBe(false);
  });
});
