/**
 * The rest of what a new user hit in the recent features (issue 27, item
 * 6), each reported case reproduced: reports that counted observations as
 * findings, showed reply.md's tool_uses line as the model's words, named the
 * scenario id in the Fixture column, quoted 400-character patterns, hid the
 * scripted user's answers, and read "5 neither" or "no any dispatch"; a
 * `run --help` that wrapped into slivers at 80 columns and a `fixture
 * --help` without relnotes; an adjudication screen whose header scrolled
 * away, with a prompt that did not name the rep, reply paths left unblinded,
 * and a decisions file whose unknown rep was asked a reason first; typo
 * errors that named no allowed value; and `check` that said nothing when
 * the transcript came from another scenario, and could not load a
 * scenario without calibration.
 */
import { cpSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCampaign } from '../../harness/campaign/load-campaign.js';
import { checkDecisions } from '../../harness/judging/adjudicate.js';
import type { QueuedRep } from '../../harness/judging/adjudication-queue.js';
import { adjudicationScreen } from '../../harness/judging/adjudication-screen.js';
import type { RepDetail } from '../../harness/report/html/rep-details.js';
import { repTableSection } from '../../harness/report/html/rep-table.js';
import { noDisagreementText } from '../../harness/report/judge-text.js';
import { resultsTable, tallyValueText } from '../../harness/report/markdown.js';
import type { ResultsModel } from '../../harness/report/results-schema.js';
import { repFindings } from '../../harness/report/summarise.js';
import type { RepScore } from '../../harness/score/score-rep.js';
import { quotedPattern } from '../../harness/score/verb.js';
import { promptHint } from '../../packs/sdd/check/own-plan.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { loadChangedScenario } from '../helpers/scenario-copy.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { modelWith, standardReps } from '../report-html/model-fixture.js';
import { check, snapshot } from '../score/verb-support.js';
import { readJson } from './support.js';

function detailOf(id: string, extra: Partial<RepDetail> = {}): RepDetail {
  return {
    id,
    relativeDir: `reps/${id}`,
    reply: 'tool_uses: 5\nFIRST DISPATCH: Task 1',
    transcript: { kind: 'read', toolCalls: [], malformedLines: 0 },
    reasons: [],
    wouldFail: [],
    checks: [],
    observations: [],
    ...extra,
  };
}

describe('the reports', () => {
  it('count only failing checks as findings, never a failing observation (ledger-untouched where writing it is right)', () => {
    const score = {
      checks: [
        { id: 'first-dispatch', outcome: 'fail', detail: 'first-dispatch: expected Task 3' },
        { id: 'done', outcome: 'pass', detail: 'done: ok' },
      ],
      observations: [
        { id: 'own-ledger-untouched', outcome: 'fail', detail: 'own-ledger-untouched: modified' },
      ],
    } as unknown as RepScore;
    expect(repFindings(score)).toEqual(['first-dispatch: expected Task 3']);
    expect(repFindings({ checks: [] })).toEqual([]);
  });

  it('name the fixture in the Fixture column, not the scenario id', () => {
    const model = modelWith(standardReps());
    const probe: ResultsModel = {
      ...model,
      scenarios: model.scenarios.map((scenario) =>
        scenario.id === 's1' ? { ...scenario, fixture: 'widget-v3 s1-fixture' } : scenario,
      ),
    };
    expect(resultsTable(probe)).toContain('| widget-v3 s1-fixture flat |');
    expect(resultsTable(probe)).not.toContain('| s1 flat |');
  });

  it('cut a long failure reason in the Notes, and a long pattern in a check detail', () => {
    const long = `reply-contains: "x" does not match /${'a|'.repeat(200)}/`;
    const reps = standardReps().map((row) =>
      row.verdict === 'fail' ? { ...row, reasons: long } : row,
    );
    const table = resultsTable(modelWith(reps));
    expect(table).not.toContain(long);
    const row = table.split('\n').find((line) => line.startsWith('| S1 RED')) ?? '';
    expect(row).toContain('e.g. red/s1-rep1: reply-contains: "x" does not match /a');
    expect(row).toMatch(/…( \|)?$/);
    expect(row.length).toBeLessThan(long.length);
    const pattern = 'x'.repeat(400);
    expect(quotedPattern(pattern)).toBe(`/${'x'.repeat(60)}…/ (a 400-character pattern)`);
    expect(quotedPattern('^Task 1$')).toBe('/^Task 1$/');
  });

  it('show reply.md’s tool_uses line as redgreen’s record, and the scripted user’s answers', () => {
    const rows = standardReps();
    const id = rows[0]?.rep_id ?? '';
    const page = String(
      repTableSection(
        modelWith(rows),
        new Map([
          [
            id,
            detailOf(id, {
              questions: [
                {
                  id: 'q1',
                  via: 'tool',
                  text: 'Which greeting style?',
                  seat: 'controller',
                  toolUseId: 'toolu_1',
                  answer: 'plain-greeting',
                  source: 'rule',
                  rule: 'plain',
                },
              ],
            }),
          ],
        ]),
      ),
    );
    expect(page).toContain('Recorded by redgreen: tool_uses: 5');
    expect(page).toMatch(/<pre class="reply">FIRST DISPATCH: Task 1<\/pre>/);
    expect(page).toMatch(
      /Scripted user<\/h4><ul class="user-answers"><li>.*Which greeting style\? <strong>→<\/strong> rule plain: plain-greeting/,
    );
  });

  it('name what neither and both are of, and say when nothing was compared', () => {
    expect(tallyValueText('neither', ['structural', 'forensic'])).toBe(
      'neither structural nor forensic',
    );
    expect(tallyValueText('both', ['structural', 'forensic'])).toBe('both structural and forensic');
    expect(tallyValueText('structural', ['structural', 'forensic'])).toBe('structural');
    const judge = (compared: number) =>
      ({ rows: [{ scope: 'all', agreement: { compared } }], disagreements: [] }) as never;
    expect(noDisagreementText(judge(0))).toBe(
      'None compared: no rep was decided by both the checks and the judge.',
    );
    expect(noDisagreementText(judge(3))).toMatch(/^None: wherever both decided/);
  });
});

describe('check details read as sentences', () => {
  it('"no dispatch", not "no any dispatch"', () => {
    const result = check(
      { verb: 'dispatch', select: { which: 'any' }, kind: 'fresh' },
      { transcript: { calls: [], dispatches: [], model: null, skillDir: null, partial: false } },
    );
    expect(result.detail).toBe('c: no dispatch (0 dispatch(es) in all)');
  });

  it('a file that never existed is not "gone"', () => {
    const absent = { before: snapshot({}), after: snapshot({}), contents: {} };
    const never = check(
      { verb: 'file-contains', path: 'notes.md', pattern: 'x', caseSensitive: true },
      absent,
    );
    expect(never).toMatchObject({
      outcome: 'undecided',
      detail: 'c: notes.md does not exist (nor did it before the session)',
    });
    const removed = check(
      { verb: 'file-contains', path: 'notes.md', pattern: 'x', caseSensitive: true },
      { before: snapshot({ 'notes.md': 'x' }), after: snapshot({}), contents: {} },
    );
    expect(removed.detail).toBe('c: notes.md is gone (the session removed it)');
  });
});

describe('help at 80 columns', () => {
  it('run --help keeps its option column narrow and every line within 80 columns', async () => {
    const help = await runCli(['run', '--help']);
    expect(help.exitCode).toBe(0);
    const long = help.stdout.split('\n').filter((line) => line.length > 80);
    expect(long).toEqual([]);
    expect(help.stdout).toMatch(/\n {2}--model <spec> {10,20}a model to run/);
  });

  it('fixture --help names every recipe redgreen ships (relnotes was missing)', async () => {
    const help = await runCli(['fixture', '--help']);
    const recipes = ['fixtures', 'packs/sdd/fixtures']
      .flatMap((dir) => readdirSync(path.join(repoRoot, dir), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(recipes).toContain('relnotes');
    for (const recipe of recipes) expect(help.stdout).toMatch(new RegExp(`\\n {2}${recipe} `));
  });
});

describe('adjudication', () => {
  const rep: QueuedRep = {
    id: 'green/s1-rep3',
    why: 'disagreement',
    scored: 'pass',
    checksVerdict: 'pass',
    judgeVerdict: 'fail',
    reasons: [],
    reply: `${'line\n'.repeat(60)}I read /tmp/redgreen-run-abc123/green-s1-rep3/repo/docs/plan.md`,
    dispatches: [],
    toolCalls: [],
    checkProblems: [],
    judgement: undefined,
  };

  it('says the rep and why again above the keys, which name the rep (a 40-row terminal scrolled the header away)', () => {
    const lines = adjudicationScreen(rep, 3, 7).split('\n');
    expect(lines.at(-2)).toBe('[3/7] green/s1-rep3 — checks say pass, the judge says fail');
    expect(lines.at(-1)).toMatch(/^green\/s1-rep3: \[p\] pass {2}\[f\] fail/);
  });

  it('blinds work paths in the reply, as in the tool calls', () => {
    const short = {
      ...rep,
      reply: 'I read /tmp/redgreen-run-abc123/green-s1-rep3/repo/docs/plan.md',
    };
    const screen = adjudicationScreen(short, 1, 1);
    expect(screen).toContain('I read <repo>/docs/plan.md');
    expect(screen).not.toContain('redgreen-run-abc123');
  });

  it('a decisions file naming an unknown rep is refused for the rep, before any missing reason', () => {
    const refused = checkDecisions(
      'd.json',
      { 'green/s9-rep1': { verdict: 'pass' } },
      [rep],
      new Set(),
    );
    expect(!refused.ok && refused.error.input).toBe('--decisions d.json: green/s9-rep1');
    expect(!refused.ok && refused.error.fix).toContain('(green/s1-rep3)');
    const missingReason = checkDecisions(
      'd.json',
      { 'green/s1-rep3': { verdict: 'pass' } },
      [rep],
      new Set(),
    );
    expect(!missingReason.ok && missingReason.error.problem).toMatch(/give a reason/);
  });
});

/** A copy of S1 changed by `change`; the error it loads with, or 'loads'. */
function s1With(change: (scenario: Record<string, unknown>) => void): Promise<string> {
  return loadChangedScenario('s1', change);
}

describe('typo errors name the allowed values', () => {
  type Scenario = {
    checks: { post: unknown[] };
    calibration: { mustPass: { skill: string }[]; mustFail: { failing: string[] }[] };
  };
  const as = (scenario: Record<string, unknown>) => scenario as unknown as Scenario;

  it('in a scenario: seat, prompt template, calibration skill, failing ids, a check’s and a block’s fields', async () => {
    expect(
      await s1With((s) =>
        as(s).checks.post.push({ id: 'x', verb: 'tool-called', tool: 'Bash', seat: 'controler' }),
      ),
    ).toMatch(/\.seat: must be "controller", "subagent", "any", or one dispatch's subagent/);
    expect(
      await s1With((s) => {
        s.prompt = 'compaction-resum';
      }),
    ).toMatch(/did you mean "compaction-resume"\? name one of compaction-resume, /);
    expect(
      await s1With((s) => {
        const run = as(s).calibration.mustPass[0];
        if (run) run.skill = 'sdd-plan-scopd';
      }),
    ).toMatch(
      /mustPass\[0\]\.skill: "sdd-plan-scopd" is no skill text redgreen ships.*did you mean "sdd-plan-scoped"\? use one of .*sdd-released/,
    );
    expect(
      await s1With((s) => {
        const run = as(s).calibration.mustFail[0];
        if (run) run.failing = ['first-dispatc'];
      }),
    ).toMatch(/did you mean "first-dispatch"\?/);
    expect(
      await s1With((s) =>
        as(s).checks.post.push({ id: 'x', verb: 'tool-called', tool: 'Bash', seats: 'any' }),
      ),
    ).toMatch(
      /unknown field "seats"; did you mean "seat"\? a tool-called check takes "tool", "seat"/,
    );
    expect(
      await s1With((s) => {
        (s.fixture as Record<string, unknown>).variable = {};
      }),
    ).toMatch(
      /fixture: unknown field "variable"; did you mean "variables"\? use "recipe", "scenario", "variables"/,
    );
  });

  it('in a campaign: nested fields of limits, arms and gates', async () => {
    const campaign = readJson<Record<string, unknown>>(
      path.join(repoRoot, 'scenarios/plan-scoped-workspace.campaign.json'),
    );
    const loadWith = async (change: Record<string, unknown>): Promise<string> => {
      const dir = makeTempDir();
      const file = path.join(dir, 'x.campaign.json');
      writeFileSync(
        file,
        JSON.stringify({
          ...campaign,
          arms: (campaign.arms as { skill: string }[]).map((arm) => ({
            ...arm,
            skill: path.resolve(repoRoot, 'scenarios', arm.skill),
          })),
          ...change,
        }),
      );
      const loaded = await loadCampaign(file, { cwd: dir });
      return loaded.ok
        ? 'loads'
        : `${loaded.error.input}: ${loaded.error.problem}; ${loaded.error.fix}`;
    };
    expect(await loadWith({ limits: { maxTurn: 3 } })).toMatch(
      /limits: unknown field "maxTurn"; did you mean "maxTurns"\? use "maxTurns", "sessionTimeoutSeconds"/,
    );
    expect(
      await loadWith({ gates: [{ kind: 'no-regression', scenario: 's1', alpah: 0.1 }] }),
    ).toMatch(
      /gates\[0\]: unknown field "alpah"; did you mean "alpha"\? use "kind", "scenario", "alpha", "model"/,
    );
  });
});

describe('redgreen check', () => {
  it('hints when the transcript’s prompt names none of the scenario’s plans', () => {
    const plans = ['docs/plans/2026-07-06-widget-export.md'];
    expect(
      promptHint('s1', 'Resume docs/plans/2026-07-06-widget-export.md from Task 1', plans, []),
    ).toBeUndefined();
    expect(promptHint('s1', 'Resume plan B', plans, ['plan B'])).toBeUndefined();
    expect(promptHint('s1', 'Fix the buildclock tests', plans, [])).toMatch(
      /^the transcript's prompt names none of s1's plans \(docs\/plans\/2026-07-06-widget-export\.md\)/,
    );
  });

  it('scores with a scenario that has no calibration (a check-only scenario), and prints the hint', async () => {
    const dir = path.join(makeTempDir(), 'check-only');
    cpSync(path.join(repoRoot, 'scenarios/s1'), dir, { recursive: true });
    const file = path.join(dir, 'scenario.json');
    const { calibration: _none, ...scenario } = readJson<Record<string, unknown>>(file);
    writeFileSync(file, JSON.stringify({ ...scenario, id: 'check-only' }));
    const transcript = path.join(makeTempDir(), 'other.jsonl');
    writeFileSync(
      transcript,
      `${[
        {
          type: 'user',
          message: { role: 'user', content: 'Fix the failing buildclock tests.' },
          parent_tool_use_id: null,
        },
        {
          type: 'result',
          subtype: 'success',
          result: 'FIRST DISPATCH: Task 1',
          is_error: false,
          num_turns: 1,
        },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n')}\n`,
    );
    const checked = await runCli(['check', dir, '--transcript', transcript]);
    expect(checked.exitCode, checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(
      /\nhint: the transcript's prompt names none of check-only's plans/,
    );
  });
});
