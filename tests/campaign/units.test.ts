import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { costUsd, pricingTable } from '../../harness/estimate/pricing.js';
import {
  appendRepLine,
  createJournal,
  type JournalRepLine,
  readJournal,
} from '../../harness/results/rep-journal.js';
import { progressReporter } from '../../harness/run/progress.js';
import { parseShard, scheduleReps, shardOf } from '../../harness/schedule/schedule.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const identity = 'a'.repeat(64);

function line(id: string, attempt: number, verdict: JournalRepLine['verdict']): JournalRepLine {
  const [arm = '', rest = ''] = id.split('/');
  const [scenario = '', rep = '1'] = rest.split('-rep');
  return {
    type: 'rep',
    id,
    arm,
    scenario,
    rep: Number(rep),
    attempt,
    status: verdict === 'indeterminate' ? 'indeterminate' : 'completed',
    verdict,
    toolUses: 3,
    dir: `reps/${id}${attempt === 1 ? '' : `.attempt${attempt}`}`,
  };
}

describe('ledger.jsonl', () => {
  it('keeps the newest attempt of each rep and ignores a trailing partial line a crash left', async () => {
    const file = path.join(makeTempDir(), 'ledger.jsonl');
    await createJournal(file, { type: 'campaign', identity, campaign: 'c', harness: '0.1.0' });
    await appendRepLine(file, line('red/s1-rep1', 1, 'indeterminate'));
    await appendRepLine(file, line('red/s1-rep1', 2, 'pass'));
    await appendRepLine(file, line('green/s1-rep1', 1, 'fail'));
    appendFileSync(file, '{"type":"rep","id":"green/s2-re');
    const read = await readJournal(file);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.header.identity).toBe(identity);
    expect(read.value.reps.get('red/s1-rep1')?.verdict).toBe('pass');
    expect(read.value.reps.size).toBe(2);
    expect(read.value.lines).toHaveLength(3);
  });

  it('reports a corrupt line in the middle instead of guessing', async () => {
    const file = path.join(makeTempDir(), 'ledger.jsonl');
    await createJournal(file, { type: 'campaign', identity, campaign: 'c', harness: '0.1.0' });
    appendFileSync(file, 'not json\n');
    await appendRepLine(file, line('red/s1-rep1', 1, 'pass'));
    const read = await readJournal(file);
    expect(read).toMatchObject({ ok: false, error: { kind: 'corrupt', line: 2 } });
  });

  it('keeps a record on one line even when a value contains a newline', async () => {
    const file = path.join(makeTempDir(), 'ledger.jsonl');
    writeFileSync(file, '');
    await expect(
      appendRepLine(file, { ...line('red/s1-rep1', 1, 'pass'), id: 'red/s1-rep1\nb' }),
    ).resolves.toBeUndefined();
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(2);
  });

  it('refuses a line whose dir is not where the layout puts its rep (a results directory is untrusted)', async () => {
    const file = path.join(makeTempDir(), 'ledger.jsonl');
    await createJournal(file, { type: 'campaign', identity, campaign: 'c', harness: '0.1.0' });
    for (const dir of ['../../elsewhere', 'reps/green/s1-rep1', 'reps/red/s1-rep1.attempt2']) {
      appendFileSync(file, `${JSON.stringify({ ...line('red/s1-rep1', 1, 'pass'), dir })}\n`);
      const read = await readJournal(file);
      expect(read, dir).toMatchObject({ ok: false, error: { kind: 'corrupt', line: 2 } });
      await createJournal(file, { type: 'campaign', identity, campaign: 'c', harness: '0.1.0' });
    }
  });
});

describe('the plan', () => {
  it('interleaves cells: rep 1 of every cell before rep 2 of any', () => {
    const plan = scheduleReps(['red', 'green'], ['s1', 's2'], 2).map((rep) => rep.id);
    expect(plan).toEqual([
      'red/s1-rep1',
      'green/s1-rep1',
      'red/s2-rep1',
      'green/s2-rep1',
      'red/s1-rep2',
      'green/s1-rep2',
      'red/s2-rep2',
      'green/s2-rep2',
    ]);
  });

  it('shards are disjoint, cover the plan, and reject nonsense', () => {
    const plan = scheduleReps(['red', 'green'], ['s1', 's2'], 5);
    const slices = [1, 2, 3].map((index) =>
      shardOf(plan, { index, count: 3 }).map((rep) => rep.id),
    );
    expect(slices.flat().sort()).toEqual(plan.map((rep) => rep.id).sort());
    expect(new Set(slices.flat()).size).toBe(plan.length);
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', 'x', '1/0', '1-3']) expect(parseShard(bad)).toBeUndefined();
  });
});

describe('pricing', () => {
  it('prices a known model from the dated table and refuses to invent a price', () => {
    const usage = {
      input: 1_000_000,
      output: 1_000_000,
      cacheWrite: 1_000_000,
      cacheRead: 1_000_000,
    };
    const price = pricingTable().models['claude-sonnet-5-5'];
    expect(price).toEqual({ input: 2, output: 10 });
    expect(costUsd('claude-sonnet-5-5', usage)).toBeCloseTo(2 + 10 + 2 * 1.25 + 2 * 0.1, 10);
    expect(costUsd('scripted:skill-reader', usage)).toBeNull();
    expect(costUsd('claude-sonnet-5-5', null)).toBeNull();
    expect(pricingTable().asOf).toMatch(/^\d{4}-\d{2}/);
  });
});

describe('progress output', () => {
  function collect(mode: 'tty' | 'plain' | 'json'): {
    text: () => string;
    sink: ReturnType<typeof progressReporter>;
  } {
    let text = '';
    const out = {
      write: (chunk: string) => {
        text += chunk;
        return true;
      },
    } as unknown as NodeJS.WritableStream;
    let clock = 0;
    const sink = progressReporter(mode, out, () => (clock += 1000));
    return { text: () => text, sink };
  }

  const start = {
    type: 'run-start',
    campaign: 'c',
    outDir: '/r',
    model: 'scripted:x',
    scripted: true,
    backend: 'claude-code',
    total: 4,
    alreadyDone: 0,
    toRun: 2,
    concurrency: 2,
  } as const;
  const done = {
    type: 'rep-done',
    id: 'red/s1-rep1',
    attempt: 1,
    verdict: 'fail',
    reason: 'first-dispatch: x',
    toolUses: 5,
    costUsd: 0.5,
    durationMs: 3000,
  } as const;

  it('plain mode prints one line per finished rep with its verdict and reason', () => {
    const { text, sink } = collect('plain');
    sink(start);
    sink(done);
    expect(text()).toContain('[1/2] red/s1-rep1: fail (first-dispatch: x), 5 tool_uses, 3s');
  });

  it('tty mode keeps a live status line with counts, ETA and cost', () => {
    const { text, sink } = collect('tty');
    sink(start);
    sink(done);
    expect(text()).toMatch(
      /\] 1\/2 {2}running 0 {2}pass 0 {2}fail 1 {2}indeterminate 0 {2}elapsed \d+s {2}eta \d+s {2}\$0\.50/,
    );
  });

  it('json mode writes every event as one JSON line', () => {
    const { text, sink } = collect('json');
    sink(start);
    sink(done);
    const events = text()
      .trim()
      .split('\n')
      .map((entry) => JSON.parse(entry) as { type: string });
    expect(events.map((event) => event.type)).toEqual(['run-start', 'rep-done']);
  });
});

describe('redgreen doctor', () => {
  it('reports the engine, the sandbox and whether a key is set, never the key', async () => {
    const result = await runCli(['doctor', '--json'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: makeTempDir(),
        ANTHROPIC_API_KEY: 'sk-ant-doctor-canary-123',
      },
    });
    expect(result.stdout).not.toContain('doctor-canary');
    const checks = (
      JSON.parse(result.stdout) as { checks: { name: string; ok: boolean; detail: string }[] }
    ).checks;
    const byName = Object.fromEntries(checks.map((check) => [check.name, check]));
    expect(byName['claude-code engine']?.detail).toMatch(/2\.1\.\d+/);
    expect(byName['codex engine']?.detail).toMatch(
      /^codex-cli 0\.169\.0 \(node_modules\/.+\/codex\)$/,
    );
    expect(byName.sandbox?.detail).toMatch(/bubblewrap/);
    expect(byName.socat).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^\/usr\/bin\/socat /),
    });
    expect(byName.ANTHROPIC_API_KEY?.detail).toMatch(/^set/);
    expect(result.exitCode).toBe(0);
  });
});

describe('crash recovery in a results directory', () => {
  it('a torn last ledger line is cut before the next append, so the ledger stays readable', async () => {
    const { repairJournalTail } = await import('../../harness/results/results-dir.js');
    const file = path.join(makeTempDir(), 'ledger.jsonl');
    await createJournal(file, { type: 'campaign', identity, campaign: 'c', harness: '0.1.0' });
    await appendRepLine(file, line('red/s1-rep1', 1, 'pass'));
    appendFileSync(file, '{"type":"rep","id":"green/s1-re');
    // Planted negative: appending onto the torn line corrupts the ledger.
    const broken = path.join(makeTempDir(), 'broken.jsonl');
    writeFileSync(broken, readFileSync(file));
    await appendRepLine(broken, line('green/s1-rep1', 1, 'fail'));
    expect((await readJournal(broken)).ok).toBe(false);

    await repairJournalTail(file);
    await appendRepLine(file, line('green/s1-rep1', 1, 'fail'));
    const read = await readJournal(file);
    expect(read.ok && [...read.value.reps.keys()]).toEqual(['red/s1-rep1', 'green/s1-rep1']);
  });

  it('shards never give one runner all of one arm, even with one rep', () => {
    const plan = scheduleReps(['red', 'green'], ['s1', 's2'], 1);
    for (const index of [1, 2]) {
      const arms = new Set(shardOf(plan, { index, count: 2 }).map((rep) => rep.arm));
      expect(arms, `shard ${index}/2`).toEqual(new Set(['red', 'green']));
    }
  });

  it('shards mix cells: no shard is a single arm on a single scenario', () => {
    const plan = scheduleReps(['red', 'green'], ['s1', 's2'], 5);
    for (const index of [1, 2, 3, 4]) {
      const cells = new Set(
        shardOf(plan, { index, count: 4 }).map((rep) => `${rep.arm}/${rep.scenario}`),
      );
      expect(cells.size, `shard ${index}/4`).toBeGreaterThanOrEqual(3);
    }
  });
});
