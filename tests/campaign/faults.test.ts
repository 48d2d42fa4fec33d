import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { readJson, repLines, runOneRep } from './support.js';

/** One rep (red/s1-rep1), with faults in the scripted model server. */
async function oneRep(
  extra: readonly string[],
): Promise<{ out: string; exitCode: number | undefined; stdout: string; stderr: string }> {
  const { out, run } = await runOneRep('1/4', extra);
  return { out, exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr };
}

interface Meta {
  status: { kind: string; stage?: string; reason?: string };
}

describe('redgreen run: infrastructure faults make reps indeterminate, never fail', () => {
  it('429s then success: the engine retries and the rep is scored normally', async () => {
    const run = await oneRep(['--model', 'scripted:structural', '--fault', '429x2:retry-after=0']);
    expect(run.exitCode, run.stderr).toBe(0);
    const [rep] = repLines(run.out);
    expect(rep?.status).toBe('completed');
    expect(rep?.verdict).toBe('pass');
    // The faults really happened: the engine recorded its retries.
    const transcript = readFileSync(path.join(run.out, rep?.dir ?? '', 'transcript.jsonl'), 'utf8');
    expect(transcript.match(/"subtype":"api_retry"/g)).toHaveLength(2);
  });

  it('a 529 storm exhausts the retries: indeterminate at the api stage, and gate cannot decide', async () => {
    const run = await oneRep(['--fault', '529x*']);
    expect(run.exitCode).toBe(0);
    const [rep] = repLines(run.out);
    expect(rep?.verdict).toBe('indeterminate');
    const meta = readJson<Meta>(path.join(run.out, rep?.dir ?? '', 'meta.json'));
    expect(meta.status).toMatchObject({ kind: 'indeterminate', stage: 'api' });
    const gate = await runCli(['gate', run.out]);
    expect(gate.exitCode).toBe(2);
    expect(gate.stdout).toMatch(
      /UNDECIDED indeterminate reps at most 20% of those recorded: 1\/1 indeterminate/,
    );
  });

  it('a connection dropped mid-stream is retried by the engine', async () => {
    const run = await oneRep(['--model', 'scripted:structural', '--fault', 'drop@2']);
    expect(run.exitCode, run.stderr).toBe(0);
    const [rep] = repLines(run.out);
    expect(rep).toMatchObject({ status: 'completed', verdict: 'pass' });
    const transcript = readFileSync(path.join(run.out, rep?.dir ?? '', 'transcript.jsonl'), 'utf8');
    expect(transcript).toMatch(/"subtype":"api_retry"/);
  });

  it('a hung turn hits the session timeout: indeterminate at the timeout stage', async () => {
    const run = await oneRep(['--fault', 'delay=60000ms', '--session-timeout', '4']);
    const [rep] = repLines(run.out);
    expect(rep?.verdict).toBe('indeterminate');
    const meta = readJson<Meta>(path.join(run.out, rep?.dir ?? '', 'meta.json'));
    expect(meta.status).toMatchObject({ kind: 'indeterminate', stage: 'timeout' });
  });

  it('--retry-indeterminate reruns only the indeterminate rep and keeps the earlier attempt', async () => {
    // The first attempt's three requests (one try and two engine retries) get 529; the retry gets through.
    const run = await oneRep([
      '--model',
      'scripted:structural',
      '--fault',
      '529x3',
      '--retry-indeterminate',
      '1',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const lines = repLines(run.out);
    expect(lines.map((line) => [line.attempt, line.verdict])).toEqual([
      [1, 'indeterminate'],
      [2, 'pass'],
    ]);
    // Each attempt keeps its own directory; the ledger's newest line names the rep's current one.
    expect(lines.map((line) => line.dir)).toEqual([
      'reps/red/s1-rep1',
      'reps/red/s1-rep1.attempt2',
    ]);
    expect(
      readJson<{ attempt: number }>(path.join(run.out, 'reps/red/s1-rep1/meta.json')).attempt,
    ).toBe(1);
    expect(
      readJson<{ attempt: number }>(path.join(run.out, 'reps/red/s1-rep1.attempt2/meta.json'))
        .attempt,
    ).toBe(2);
  });

  it('a failing rep is never retried', async () => {
    const run = await oneRep(['--retry-indeterminate', '2']);
    expect(repLines(run.out).map((line) => line.verdict)).toEqual(['fail']);
  });

  it('the messages backend retries 429s through the SDK and records the same shapes', async () => {
    const run = await oneRep([
      '--backend',
      'messages',
      '--model',
      'scripted:structural',
      '--fault',
      '429x2:retry-after=0',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const [rep] = repLines(run.out);
    expect(rep).toMatchObject({ status: 'completed', verdict: 'pass' });
    const meta = readJson<{ backend: string; toolUses: number; engine: string }>(
      path.join(run.out, rep?.dir ?? '', 'meta.json'),
    );
    expect(meta.backend).toBe('messages');
    expect(meta.toolUses).toBeGreaterThanOrEqual(2);
  });

  it('the messages backend turns a 529 storm into an indeterminate rep', async () => {
    const run = await oneRep(['--backend', 'messages', '--fault', '529x*']);
    const [rep] = repLines(run.out);
    expect(rep?.verdict).toBe('indeterminate');
    expect(readJson<Meta>(path.join(run.out, rep?.dir ?? '', 'meta.json')).status.stage).toBe(
      'api',
    );
  });
});
