/**
 * Judging end to end through the real CLI, offline: `run --judge` judges reps
 * as they land, `judge` keeps current judgements and asks again with
 * --refresh or another model, every scripted judge through `judge`, the
 * reports carry the agreement tables and list disagreements first, and the
 * max-disagreement-share gate holds, fails closed as an instrument
 * disagreement, or cannot decide.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, repLines, runCampaignCli, writeCampaign } from '../campaign/support.js';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

interface JudgeFile {
  status: string;
  verdict: string;
  attempts: number;
  invalidAnswers: string[];
  model: { requested: string };
  items: { id: string; verdict: string; answered: string; quoteFound: boolean }[];
}

function judgeFiles(out: string): Map<string, JudgeFile> {
  return new Map(
    repLines(out).map((line) => [
      line.id ?? '',
      readJson<JudgeFile>(path.join(out, line.dir ?? '', 'judge.json')),
    ]),
  );
}

/** A results directory kept for every test of a describe block (makeTempDir's go after each test). */
function sharedOut(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'redgreen-judge-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'out');
}

/**
 * The default campaign at 3 reps per cell on the messages backend, gated on
 * disagreement, written under `under` (its scenarios must outlive the run:
 * judge and score read them where the run did).
 */
function judgedCampaign(share: number, under?: string): string {
  return writeCampaign(
    {
      reps: 3,
      backend: 'messages',
      gates: [
        { kind: 'min-pass-rate', arm: 'green', scenario: 's1', passes: 3, of: 3 },
        { kind: 'max-disagreement-share', share },
      ],
    },
    under,
  );
}

describe('a run judged as its reps land, then judged again', () => {
  const out = sharedOut();

  beforeAll(async () => {
    const run = await runCampaignCli([
      judgedCampaign(0.1, path.dirname(out)),
      '--judge',
      '--out',
      out,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain('green/s1-rep1: judge pass, checks pass: agree');
  });

  it('stores a judge.json per rep, judged by the scenario’s offline judge, in agreement with the checks', () => {
    const files = judgeFiles(out);
    expect(files.size).toBe(12);
    for (const [id, file] of files) {
      expect(file.status, id).toBe('judged');
      expect(file.model.requested).toBe('scripted:judge-agree');
      expect(file.items.every((item) => item.quoteFound)).toBe(true);
    }
    const markdown = readFileSync(path.join(out, 'results.md'), 'utf8');
    expect(markdown).toContain('## Agreement: checks vs judge');
    expect(markdown).toMatch(/\| ALL \| 12 \| 12 \| 12 \| 0 \(0\) \|/);
    expect(markdown).toContain('None: wherever both decided, the judge agreed with the checks.');
    const csv = readFileSync(path.join(out, 'results.csv'), 'utf8');
    expect(csv.split('\n')[0]).toContain(
      'fixture_head,judge_verdict,judge_answered,judge_checks_verdict,judge_agreement,judge_items,judge_model,judge_cost_usd,judge_adjudicated',
    );
    expect(csv).toMatch(/,fail,fail,agree,first-dispatch=fail; /);
  });

  it('the gate holds while checks and judge agree', async () => {
    const gate = await runCli(['gate', out]);
    expect(gate.exitCode, gate.stdout).toBe(0);
    expect(gate.stdout).toMatch(
      /HOLDS +checks and judge disagree on at most 10%.*: 0\/12 reps both decided disagree/,
    );
  });

  it('judge keeps current judgements and asks nothing', async () => {
    const before = readFileSync(path.join(out, 'reps/red/s1-rep1/judge.json'), 'utf8');
    const again = await runCli(['judge', out]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain('judged 0 rep(s) with scripted:judge-agree; 12 already current');
    expect(readFileSync(path.join(out, 'reps/red/s1-rep1/judge.json'), 'utf8')).toBe(before);
  });

  it('a judged scenario whose reps lost their judgements leaves the gate undecided, not holding', async () => {
    const s2 = repLines(out).filter((line) => (line.id ?? '').includes('/s2-'));
    expect(s2.length).toBe(6);
    const moved = s2.map((line) => path.join(out, line.dir ?? '', 'judge.json'));
    for (const file of moved) renameSync(file, `${file}.aside`);
    try {
      const gate = await runCli(['gate', out]);
      expect(gate.exitCode, gate.stdout).toBe(2);
      expect(gate.stdout).toContain('6 recorded rep(s) not judged yet');
    } finally {
      for (const file of moved) renameSync(`${file}.aside`, file);
    }
    expect((await runCli(['gate', out])).exitCode).toBe(0);
  });

  it('a contrarian judge: disagreements listed first with items and quotes, and the gate fails closed as an instrument disagreement', async () => {
    const judged = await runCli(['judge', out, '--model', 'scripted:judge-contrarian']);
    expect(judged.exitCode, judged.stderr).toBe(0);
    expect(judged.stdout).toContain(
      'judged 12 rep(s) with scripted:judge-contrarian; 0 already current',
    );
    const results = readJson<{
      judge: {
        disagreements: { rep_id: string; items: { quote: string; check_detail: string }[] }[];
      };
      reps: { rep_id: string; judge_agreement?: string }[];
    }>(path.join(out, 'results.json'));
    const disagreements = results.judge.disagreements;
    expect(disagreements.length).toBeGreaterThan(0);
    expect(
      results.reps.filter((row) => row.judge_agreement === 'disagree').map((row) => row.rep_id),
    ).toEqual(disagreements.map((row) => row.rep_id));
    const markdown = readFileSync(path.join(out, 'results.md'), 'utf8');
    const first = disagreements[0]?.rep_id ?? '';
    expect(markdown.indexOf('## Disagreements: checks vs judge')).toBeLessThan(
      markdown.indexOf('## Results'),
    );
    expect(markdown).toContain(`**${first}**: checks pass, judge fail — unresolved`);
    expect(markdown).toContain("| Item | Checks | Judge | Judge's quote | Judge's rationale |");
    expect(markdown).toContain('contradicts the check (a seeded contrarian rep)');
    const html = readFileSync(path.join(out, 'report.html'), 'utf8');
    expect(html.indexOf('id="disagreements"')).toBeGreaterThan(0);
    expect(html.indexOf('id="disagreements"')).toBeLessThan(html.indexOf('id="pass-rates"'));
    expect(html).toContain('id="agreement"');

    const gate = await runCli(['gate', out]);
    expect(gate.exitCode, gate.stdout).toBe(1);
    expect(gate.stdout).toMatch(/FAILS +checks and judge disagree on at most 10%/);
    expect(gate.stdout).toMatch(
      /Gates: FAIL \(instrument disagreement: \d+\/12 reps both decided disagree unresolved/,
    );
    expect(gate.stdout).not.toMatch(/gate\(s\) failed/);
    const json = await runCli(['gate', out, '--json']);
    expect(JSON.parse(json.stdout).why).toMatch(/^instrument disagreement: /);
  });

  it('adjudicating every disagreement from a decisions file settles the gate, and the reports say so', async () => {
    const results = readJson<{
      judge: { disagreements: { rep_id: string; checks_verdict: string }[] };
    }>(path.join(out, 'results.json'));
    const decisions = Object.fromEntries(
      results.judge.disagreements.map((row) => [
        row.rep_id,
        { verdict: row.checks_verdict, reason: 'read the reply: the checks are right' },
      ]),
    );
    const file = path.join(makeTempDir(), 'decisions.json');
    writeFileSync(file, JSON.stringify(decisions));
    const settled = await runCli(['adjudicate', out, '--decisions', file, '--by', 'Test Person']);
    expect(settled.exitCode, settled.stderr).toBe(0);
    expect(settled.stdout).toContain(`settled ${results.judge.disagreements.length} rep(s)`);
    const overrides = readJson<
      Record<string, { verdict: string; reason: string; by: string; at: string }>
    >(path.join(out, 'overrides.json'));
    expect(Object.keys(overrides).sort()).toEqual(Object.keys(decisions).sort());
    for (const entry of Object.values(overrides)) {
      expect(entry.by).toBe('Test Person');
      expect(entry.reason).toBe('read the reply: the checks are right');
      expect(entry.at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
    const gate = await runCli(['gate', out]);
    expect(gate.exitCode, gate.stdout).toBe(0);
    expect(gate.stdout).toMatch(
      /0\/12 reps both decided disagree unresolved \(0%, \d+ more settled by hand/,
    );
    expect(gate.stdout).toMatch(/verdict\(s\) adjudicated by hand/);
    const markdown = readFileSync(path.join(out, 'results.md'), 'utf8');
    expect(markdown).toMatch(/— adjudicated: pass \(read the reply: the checks are right\)/);
  });

  it('a judge that never decides leaves the gate undecided (exit 2)', async () => {
    const judged = await runCli(['judge', out, '--model', 'scripted:judge-unsure']);
    expect(judged.exitCode, judged.stderr).toBe(0);
    const gate = await runCli(['gate', out]);
    expect(gate.exitCode, gate.stdout).toBe(2);
    expect(gate.stdout).toContain(
      'no rep was decided by both checks and judge (12 judged: 12 unsure',
    );
  });
});

describe('every scripted judge through `redgreen judge`', () => {
  const out = sharedOut();

  beforeAll(async () => {
    const run = await runCampaignCli([
      writeCampaign({ reps: 1, backend: 'messages', gates: [] }, path.dirname(out)),
      '--out',
      out,
      '--quiet',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
  });

  it('without judging, there is no judge.json, no judge column value and no agreement section', () => {
    expect(existsSync(path.join(out, 'reps/red/s1-rep1/judge.json'))).toBe(false);
    expect(readFileSync(path.join(out, 'results.md'), 'utf8')).not.toContain('Agreement');
  });

  it.each([
    ['judge-agree', (file: JudgeFile) => file.items.every((item) => item.verdict !== 'unsure')],
    ['judge-unsure', (file: JudgeFile) => file.items.every((item) => item.verdict === 'unsure')],
    [
      'judge-misquote',
      (file: JudgeFile) =>
        file.items.every((item) => !item.quoteFound && item.verdict === 'unsure') &&
        file.items.some((item) => item.answered !== 'unsure'),
    ],
    [
      'judge-malformed',
      (file: JudgeFile) =>
        file.attempts === 2 && file.invalidAnswers.length === 2 && file.verdict === 'unsure',
    ],
    [
      'judge-flaky',
      (file: JudgeFile) =>
        file.attempts === 2 && file.invalidAnswers.length === 1 && file.verdict !== 'unsure',
    ],
    ['judge-contrarian', (file: JudgeFile) => file.status === 'judged'],
  ])('scripted:%s', async (policy, holds) => {
    const judged = await runCli(['judge', out, '--model', `scripted:${policy}`]);
    expect(judged.exitCode, judged.stderr).toBe(0);
    expect(judged.stdout).toContain(`judged 4 rep(s) with scripted:${policy}`);
    for (const [id, file] of judgeFiles(out)) {
      expect(file.model.requested, id).toBe(`scripted:${policy}`);
      expect(holds(file), `${id}: ${JSON.stringify(file)}`).toBe(true);
    }
  });

  it('refuses a judge that is not one, a live judge without a key, and a run without a judged scenario', async () => {
    const notJudge = await runCli(['judge', out, '--model', 'scripted:literal']);
    expect(notJudge.exitCode).toBe(2);
    expect(notJudge.stderr).toContain(
      '--model: "scripted:literal" is not a scripted judge; use one of scripted:judge-agree',
    );
    const live = await runCli(['judge', out, '--model', 'claude-sonnet-5-5']);
    expect(live.exitCode).toBe(2);
    expect(live.stderr).toContain('is a live model but ANTHROPIC_API_KEY is not set');

    // --max-cost with a live judge the price table does not know: refused, before any request.
    const keyed = { ANTHROPIC_API_KEY: 'sk-test-unused', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };
    const unpriced = await runCli(
      ['judge', out, '--model', 'claude-unpriced-judge', '--max-cost', '1'],
      { env: cleanEnv(keyed) },
    );
    expect(unpriced.exitCode, unpriced.stderr).toBe(2);
    expect(unpriced.stderr).toContain(
      '--max-cost 1: the judge "claude-unpriced-judge" has no price in harness/estimate/pricing.json',
    );
    const unpricedRunOut = path.join(makeTempDir(), 'out');
    const unpricedRun = await runCampaignCli(
      [
        writeCampaign({ reps: 1, backend: 'messages', gates: [] }),
        '--judge-model',
        'claude-unpriced-judge',
        '--max-cost',
        '1',
        '--out',
        unpricedRunOut,
      ],
      keyed,
    );
    expect(unpricedRun.exitCode, unpricedRun.stderr).toBe(2);
    expect(unpricedRun.stderr).toContain('the judge "claude-unpriced-judge" has no price');
    expect(existsSync(unpricedRunOut)).toBe(false);

    const campaign = writeCampaign({ reps: 1, backend: 'messages', gates: [] });
    for (const id of ['s1', 's2']) {
      const file = path.join(path.dirname(campaign), id, 'scenario.json');
      const { judge: _dropped, ...rest } = readJson<Record<string, unknown>>(file);
      writeFileSync(file, JSON.stringify(rest));
    }
    const unjudgedOut = path.join(makeTempDir(), 'out');
    const refused = await runCampaignCli([campaign, '--judge', '--out', unjudgedOut]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      '--judge: no scenario of the campaign (s1, s2) has a judge block',
    );
    expect(existsSync(unjudgedOut)).toBe(false);
    const run = await runCampaignCli([campaign, '--out', unjudgedOut, '--quiet']);
    expect(run.exitCode, run.stderr).toBe(0);
    const nothing = await runCli(['judge', unjudgedOut]);
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toContain('no scenario of this run (s1, s2) has a judge block');
  });

  it('a max-disagreement-share gate on a scenario without a judge block is refused when the campaign loads', async () => {
    const campaign = writeCampaign({
      reps: 1,
      backend: 'messages',
      gates: [{ kind: 'max-disagreement-share', share: 0.2, scenario: 's2' }],
    });
    const file = path.join(path.dirname(campaign), 's2', 'scenario.json');
    const { judge: _dropped, ...rest } = readJson<Record<string, unknown>>(file);
    writeFileSync(file, JSON.stringify(rest));
    const refused = await runCampaignCli([campaign, '--dry-run']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      'max-disagreement-share needs a judged scenario, and scenario "s2" has no judge block',
    );
  });

  it('a changed rubric makes judgements stale (score says so, judge asks again); a damaged judge.json is reported, then replaced', async () => {
    // The last test of this block: it changes the block's scenarios. Its run is judged here
    // by the scenarios' own offline judge (run --judge itself is the first block's).
    const campaign = path.join(path.dirname(out), 'scenarios', 'test.campaign.json');
    const judgedNow = await runCli(['judge', out, '--model', 'scripted:judge-agree']);
    expect(judgedNow.exitCode, judgedNow.stderr).toBe(0);
    expect(judgedNow.stdout).toContain('judged 4 rep(s) with scripted:judge-agree');

    const score = await runCli(['score', out]);
    expect(score.exitCode, score.stderr).toBe(0);
    expect(score.stdout).not.toContain('no longer fit');

    const file = path.join(path.dirname(campaign), 's1', 'scenario.json');
    const scenario = readJson<{ judge: { rubric: Record<string, string> } }>(file);
    scenario.judge.rubric['first-dispatch'] = 'The reply names Task 1 of plan B first.';
    writeFileSync(file, JSON.stringify(scenario));
    const rescored = await runCli(['score', out]);
    expect(rescored.exitCode, rescored.stderr).toBe(0);
    expect(rescored.stdout).toContain('2 judgement(s) no longer fit their rep');

    writeFileSync(path.join(out, 'reps/red/s2-rep1/judge.json'), '{ damaged');
    const report = await runCli(['report', out]);
    expect(report.exitCode, report.stderr).toBe(0);
    expect(readFileSync(path.join(out, 'results.md'), 'utf8')).toContain(
      '1 judge.json unreadable (red/s2-rep1)',
    );

    const judged = await runCli(['judge', out]);
    expect(judged.exitCode, judged.stderr).toBe(0);
    expect(judged.stdout).toContain('judged 3 rep(s) with scripted:judge-agree; 1 already current');
    const after = await runCli(['score', out]);
    expect(after.stdout).not.toContain('no longer fit');
  });
});
