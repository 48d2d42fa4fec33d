/**
 * A skill's own evals end to end, offline, through the real CLI: the shipped
 * plain-notes skill committed at its released text in a git repository, its
 * new text in the working tree. `evals lint` shows what each case became
 * (and its --json shape); `run --evals` runs old against new, judged, with
 * gates, benchmark.json and a grading.json per rep; named reach with the
 * no-skill arm; a trigger set where a planted improvement passes the trigger
 * gates and a planted description regression fails them; a campaign file
 * naming eval files; bad combinations refused before anything is written.
 */
import { execFileSync } from 'node:child_process';
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
import { importEvals } from '../../harness/evals/import-evals.js';
import { evalsLintJson } from '../../harness/evals/lint-report.js';
import { type RunFlags, resolveRunRequest } from '../../harness/run/run-request.js';
import { cleanEnv, repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const shipped = path.join(repoRoot, 'skills-under-test');
const gitEnv = {
  PATH: process.env.PATH ?? '',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: '/nonexistent',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-C', cwd, '-c', 'user.name=Test', '-c', 'user.email=t@example.org', ...args],
    { env: gitEnv },
  );

/**
 * A repository with plain-notes committed as released, and its new text in the
 * working tree; `regressed` plants the reverse (the new text committed, the
 * released one in the working tree).
 */
function skillRepo(
  root = makeTempDir('redgreen-evals-repo-'),
  regressed = false,
): { root: string; skill: string } {
  const skill = path.join(root, 'skills', 'plain-notes');
  const released = path.join(shipped, 'plain-notes-released', 'SKILL.md');
  const current = path.join(shipped, 'plain-notes', 'SKILL.md');
  cpSync(path.join(shipped, 'plain-notes'), skill, { recursive: true });
  cpSync(regressed ? current : released, path.join(skill, 'SKILL.md'));
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'plain-notes as released');
  cpSync(regressed ? released : current, path.join(skill, 'SKILL.md'));
  return { root, skill };
}

const env = cleanEnv();
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('redgreen evals lint', () => {
  it('shows what each case and expectation became, as text and as one JSON object', async () => {
    const { skill } = skillRepo();
    const text = await runCli(['evals', 'lint', skill], { env });
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /e3 CHECK: `notes\/todo\.txt` contains "-- filed away in the notes folder"/,
    );
    expect(text.stdout).toMatch(/e2 JUDGE: The note is signed as filed away/);
    expect(text.stdout).toMatch(
      /file evals\/files\/agenda\.md: found in the skill directory; copied to the work tree as evals\/files\/agenda\.md/,
    );
    const report = JSON.parse(
      (await runCli(['evals', 'lint', skill, '--json'], { env })).stdout,
    ) as {
      schemaVersion: number;
      skill: { name: string };
      evals: {
        id: string;
        checks: { id: string; decidedBy: string; check: Record<string, unknown> }[];
        rubric: { id: string; text: string }[];
      }[];
      triggers: unknown[];
    };
    expect(report.schemaVersion).toBe(1);
    expect(report.skill.name).toBe('plain-notes');
    expect(report.evals.map((item) => item.id)).toEqual(['1', '2']);
    expect(
      report.evals[0]?.checks.map((check) => [check.id, check.decidedBy, check.check.verb]),
    ).toEqual([
      ['e1', 'check', 'file-exists'],
      ['e2', 'check', 'file-contains'],
      ['e3', 'check', 'file-contains'],
      ['e4', 'check', 'output-contains'],
    ]);
    expect(report.evals[1]?.rubric.map((item) => item.id)).toEqual(['e1', 'e2']);
    expect(report.triggers).toEqual([]);
    // A trigger set's lint (in-process: the same function the CLI prints).
    const triggerSet = await importEvals(path.join(skill, 'evals', 'trigger-evals.json'));
    expect(triggerSet.ok).toBe(true);
    if (!triggerSet.ok) return;
    const triggers = evalsLintJson(triggerSet.value) as { triggers: { shouldTrigger: boolean }[] };
    expect(triggers.triggers).toHaveLength(20);
    expect(triggers.triggers.filter((query) => query.shouldTrigger)).toHaveLength(10);
  });

  it('refuses a file whole: exit 2, one line naming the file and the field, nothing on stdout with --json', async () => {
    const { skill } = skillRepo();
    const file = path.join(skill, 'evals', 'evals.json');
    const evals = json(file);
    (evals.evals as Record<string, unknown>[])[1] = {
      id: 2,
      query_flow: ['hi', 'there'],
      expectations: ['x'],
    };
    writeFileSync(file, JSON.stringify(evals));
    const refused = await runCli(['evals', 'lint', skill, '--json'], { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain(
      `${file}: evals[1].query_flow: is a conversation of several user turns`,
    );
  });
});

describe('redgreen run --evals', () => {
  // One run shared by the tests of this block (makeTempDir's folders go after each test).
  const base = mkdtempSync(path.join(os.tmpdir(), 'redgreen-evals-run-'));
  const out = path.join(base, 'results');
  let run: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    const repo = skillRepo(path.join(base, 'repo'));
    run = await runCli(
      ['run', '--evals', repo.skill, '--backend', 'messages', '--out', out, '--quiet'],
      { env, timeoutMs: 240_000 },
    );
  }, 300_000);
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('runs old (HEAD) against new (the working tree), judged, and every gate holds', async () => {
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Gates: PASS/);
    expect(json(path.join(out, 'evals', 'campaign.json'))).toMatchObject({
      arms: [
        { name: 'old', role: 'red' },
        { name: 'new', role: 'green' },
      ],
      reps: 4,
    });
    const gate = await runCli(['gate', out, '--json'], { env });
    expect(gate.exitCode).toBe(0);
    const kinds = (
      JSON.parse(gate.stdout) as { gates: { kind: string; outcome: string }[] }
    ).gates.map((entry) => [entry.kind, entry.outcome]);
    expect(kinds).toEqual([
      ['no-scenario-regresses', 'holds'],
      ['max-disagreement-share', 'holds'],
      ['max-indeterminate-share', 'holds'],
    ]);
    // The judge decided the expectation no check could: the new text passes it, the old fails it.
    const score = (arm: string) =>
      json(path.join(out, 'reps', arm, 'eval-2-rep1', 'score.json')) as {
        verdict: string;
        checks: { id: string; outcome: string }[];
      };
    expect(score('new').verdict).toBe('pass');
    expect(score('old').checks.find((check) => check.id === 'e2')?.outcome).toBe('fail');
    expect(existsSync(path.join(out, 'reps', 'old', 'eval-2-rep1', 'judge.json'))).toBe(true);
  });

  it("writes benchmark.json and a grading.json per rep in skill-creator's shapes, and the evals tables", () => {
    const benchmark = json(path.join(out, 'benchmark.json')) as {
      metadata: {
        skill_name: string;
        runs_per_configuration: number;
        configurations: Record<string, string>;
      };
      runs: {
        eval_id: unknown;
        configuration: string;
        run_number: number;
        result: { pass_rate: number; passed: number; total: number };
      }[];
      run_summary: Record<
        string,
        { pass_rate: { mean: number; stddev: number; min: number; max: number } }
      > & { delta: { pass_rate: string } };
    };
    expect(benchmark.metadata).toMatchObject({
      skill_name: 'plain-notes',
      runs_per_configuration: 4,
      configurations: { with_skill: 'new', without_skill: 'old' },
    });
    expect(new Set(benchmark.runs.map((entry) => entry.configuration))).toEqual(
      new Set(['with_skill', 'without_skill']),
    );
    expect(
      benchmark.runs.find((entry) => entry.configuration === 'with_skill' && entry.eval_id === 1)
        ?.result,
    ).toMatchObject({ pass_rate: 1, passed: 4, total: 4 });
    expect(benchmark.run_summary.with_skill?.pass_rate).toEqual({
      mean: 1,
      stddev: 0,
      min: 1,
      max: 1,
    });
    expect(benchmark.run_summary.without_skill?.pass_rate.mean).toBeCloseTo(0.5);
    expect(benchmark.run_summary.delta.pass_rate).toBe('+0.50');
    const grading = json(path.join(out, 'reps', 'old', 'eval-1-rep1', 'grading.json')) as {
      expectations: { text: string; passed: boolean; evidence: string }[];
      summary: { passed: number; failed: number; total: number; pass_rate: number };
    };
    expect(grading.summary).toEqual({ passed: 2, failed: 2, total: 4, pass_rate: 0.5 });
    expect(grading.expectations[2]).toMatchObject({
      passed: false,
      text: '`notes/todo.txt` contains "-- filed away in the notes folder"',
    });
    const evals = readFileSync(path.join(out, 'evals.md'), 'utf8');
    expect(evals).toMatch(
      /\| eval-1 \| e1: `notes\/todo\.txt` exists \| check \| 4\/4 \| 4\/4 \| passes in every arm: does not discriminate \|/,
    );
    expect(evals).toMatch(
      /\| eval-2 \| e2: The note is signed as filed away \| judge \| 0\/4 \| 4\/4 \|/,
    );
    expect(readFileSync(path.join(out, 'results.md'), 'utf8')).toContain(
      "## The skill's own evals",
    );
  });

  it('reruns nothing on resume and rescores to the same verdicts', async () => {
    const resumed = await runCli(['run', '--resume', out, '--quiet'], { env, timeoutMs: 120_000 });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const rescored = await runCli(['score', out], { env });
    expect(rescored.exitCode, rescored.stderr).toBe(0);
    expect(rescored.stdout).not.toMatch(/verdict changed/i);
  });
});

describe('run --evals --reach named with the no-skill arm', () => {
  it('names the skill in the prompt of the skill arms only, compares all three, and fails the gate on a planted regression', async () => {
    // The released text is the better one here: the working tree loses its rules.
    const { skill } = skillRepo(undefined, true);
    const out = path.join(makeTempDir('redgreen-evals-named-'), 'r');
    const run = await runCli(
      [
        'run',
        '--evals',
        skill,
        '--reach',
        'named',
        '--eval-arms',
        'without,old,new',
        '--reps',
        '4',
        '--only',
        'scenario=eval-1',
        '--backend',
        'messages',
        '--out',
        out,
        '--quiet',
        '--gate',
      ],
      { env, timeoutMs: 120_000 },
    );
    // --gate: the exit code CI reads; old (RED) passes every rep, new none.
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^Gates: FAIL .*\(1 gate\(s\) failed: no scenario regresses/m);
    const { gates } = json(path.join(out, 'results.json')) as {
      gates: { exitCode: number; results: { kind: string; outcome: string; figure: string }[] };
    };
    expect(gates.exitCode).toBe(1);
    expect(gates.results[0]).toMatchObject({ kind: 'no-scenario-regresses', outcome: 'fails' });
    expect(gates.results[0]?.figure).toMatch(/EVAL-1 \(RED 4\/4, GREEN 0\/4; p = /);
    const prompt = (arm: string) =>
      readFileSync(path.join(out, 'reps', arm, 'eval-1-rep1', 'prompt.md'), 'utf8');
    expect(prompt('new')).toMatch(
      /^The skill for this task is in \/.*: read .*\/SKILL\.md first and follow it\.\n\nSave a note for me/,
    );
    expect(prompt('without')).toBe(
      'Save a note for me: create `notes/todo.txt` containing `buy milk`.\n',
    );
    const verdict = (arm: string) =>
      (json(path.join(out, 'reps', arm, 'eval-1-rep1', 'score.json')) as { verdict: string })
        .verdict;
    expect([verdict('without'), verdict('old'), verdict('new')]).toEqual(['fail', 'pass', 'fail']);
    expect(existsSync(path.join(out, 'benchmark.json'))).toBe(true);
    expect(
      (
        json(path.join(out, 'benchmark-without.json')) as {
          metadata: { configurations: Record<string, string> };
        }
      ).metadata.configurations,
    ).toEqual({ with_skill: 'new', without_skill: 'without' });
  });
});

describe('run --triggers', () => {
  /** Queries of the shipped set, by index: 0 and 9 the old description catches, 1 only the new one; 10 neither should. */
  function smallSet(root: string, picks: readonly number[]): string {
    const all = JSON.parse(
      readFileSync(path.join(shipped, 'plain-notes', 'evals', 'trigger-evals.json'), 'utf8'),
    ) as unknown[];
    const file = path.join(root, 'triggers.json');
    writeFileSync(file, JSON.stringify(picks.map((index) => all[index])));
    return file;
  }
  const gateOf = async (out: string) => {
    const gate = await runCli(['gate', out, '--json'], { env });
    return {
      exitCode: gate.exitCode,
      gates: (JSON.parse(gate.stdout) as { gates: { kind: string; outcome: string }[] }).gates.map(
        (entry) => [entry.kind, entry.outcome],
      ),
    };
  };

  it('passes the trigger gates on a planted improvement, with precision, recall and F1 and the changed queries', async () => {
    const { root, skill } = skillRepo();
    const out = path.join(root, 'improved');
    const run = await runCli(
      [
        'run',
        '--triggers',
        smallSet(root, [0, 1, 9, 10]),
        '--skill',
        skill,
        '--reps',
        '2',
        '--backend',
        'messages',
        '--out',
        out,
        '--quiet',
      ],
      { env, timeoutMs: 120_000 },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await gateOf(out)).toEqual({
      exitCode: 0,
      gates: [
        ['trigger-recall-no-regression', 'holds'],
        ['trigger-precision-no-regression', 'holds'],
        ['max-indeterminate-share', 'holds'],
      ],
    });
    const evals = readFileSync(path.join(out, 'evals.md'), 'utf8');
    expect(evals).toMatch(
      /\| all queries \| old \| 4\/4 = 100% \(95% CI \d+%–100%\) \| 4\/6 = 67%/,
    );
    expect(evals).toMatch(
      /\| all queries \| new \| 6\/6 = 100% .* \| 6\/6 = 100% .* \| 1\.00 \| 6\/0\/0\/2 \|/,
    );
    expect(evals).toMatch(
      /\| q-02 \| Jot down a reminder to call Ana at five \| yes \| all \| 0\/2 \| 2\/2 \|/,
    );
  });

  it('probes through the real engine: the query the new description covers loads the skill with its Skill tool, first', async () => {
    const { root, skill } = skillRepo();
    const out = path.join(root, 'engine');
    const run = await runCli(
      [
        'run',
        '--triggers',
        smallSet(root, [1, 10]),
        '--skill',
        skill,
        '--reps',
        '1',
        '--backend',
        'claude-code',
        '--out',
        out,
        '--quiet',
      ],
      { env, timeoutMs: 180_000 },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const outcome = (arm: string, query: string) => {
      const dir = path.join(out, 'reps', arm, `${query}-rep1`);
      const score = json(path.join(dir, 'score.json')) as {
        verdict: string;
        checks: { id: string; outcome: string; observed?: string }[];
      };
      return [score.verdict, score.checks[0]?.id, score.checks[0]?.observed];
    };
    expect(outcome('new', 'q-01')).toEqual(['pass', 'triggers', 'tool']);
    expect(outcome('old', 'q-01')).toEqual(['fail', 'triggers', 'none']);
    expect(outcome('new', 'q-02')).toEqual(['pass', 'stays-out', 'none']);
    // The engine advertised the skill among the library's and the session's one call was its Skill tool.
    const lines = readFileSync(
      path.join(out, 'reps', 'new', 'q-01-rep1', 'transcript.jsonl'),
      'utf8',
    )
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const init = lines.find((line) => line.type === 'system') as {
      tools: string[];
      skills: string[];
    };
    expect(init.tools).toContain('Skill');
    expect(init.skills).toContain('skills:plain-notes');
    const calls = lines.flatMap((line) =>
      line.type === 'assistant'
        ? (
            (line.message as { content: { type: string; name?: string; input?: unknown }[] })
              .content ?? []
          ).filter((block) => block.type === 'tool_use')
        : [],
    );
    expect(calls.map((call) => [call.name, call.input])).toEqual([
      ['Skill', { skill: 'skills:plain-notes' }],
    ]);
  });

  it('fails the recall gate on a planted description regression', async () => {
    const { root, skill } = skillRepo();
    const text = readFileSync(path.join(skill, 'SKILL.md'), 'utf8').replace(
      /^description: .*$/m,
      'description: Use when the user asks to archive old documents',
    );
    writeFileSync(path.join(skill, 'SKILL.md'), text);
    const out = path.join(root, 'regressed');
    const run = await runCli(
      [
        'run',
        '--triggers',
        smallSet(root, [0, 9]),
        '--skill',
        skill,
        '--reps',
        '2',
        '--backend',
        'messages',
        '--out',
        out,
        '--quiet',
      ],
      { env, timeoutMs: 120_000 },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const gate = await gateOf(out);
    expect(gate.exitCode).toBe(1);
    expect(gate.gates[0]).toEqual(['trigger-recall-no-regression', 'fails']);
  });

  it('holds out a fixed share with --split, gating only it (dry run: nothing is written)', async () => {
    const { root, skill } = skillRepo();
    const out = path.join(root, 'split');
    const dry = await runCli(
      [
        'run',
        '--triggers',
        path.join(skill, 'evals', 'trigger-evals.json'),
        '--skill',
        skill,
        '--split',
        '0.6',
        '--dry-run',
        '--out',
        out,
      ],
      { env },
    );
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/cell Q-20 NEW/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(path.dirname(out)).filter((name) => name.includes('partial'))).toEqual([]);
  });
});

describe('a campaign file naming eval files, and what is refused', () => {
  it('expands into a campaign with the file’s own settings (dry run)', async () => {
    const { root, skill } = skillRepo();
    const campaign = path.join(root, 'notes.campaign.json');
    writeFileSync(
      campaign,
      JSON.stringify({
        id: 'notes-evals',
        title: 'plain-notes, its own evals and trigger set',
        evals: {
          skills: [
            {
              skill: path.relative(root, skill),
              triggers: path.relative(root, path.join(skill, 'evals', 'trigger-evals.json')),
            },
          ],
          split: 0.6,
        },
        reps: 3,
        gates: [{ kind: 'max-indeterminate-share', share: 0.1 }],
      }),
    );
    const dry = await runCli(['run', campaign, '--dry-run'], { env, cwd: root });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/cell EVAL-1 OLD/);
    expect(dry.stdout).toMatch(/cell Q-01 NEW/);
    expect(existsSync(path.join(root, 'results'))).toBe(false);
  });

  it('refuses --evals with a campaign file, an evals option alone, and an eval file that is refused; nothing is created', async () => {
    const { root, skill } = skillRepo();
    const out = path.join(root, 'never');
    // The flag refusals are the run request's (in-process); the refused file goes through the CLI.
    const cases: [RunFlags, RegExp][] = [
      [{ campaign: 'scenarios/s1', evals: { evals: [skill] }, out }, /^--evals$/],
      [{ evals: { reach: 'named' }, out }, /^--reach$/],
      [
        { evals: { triggers: path.join(skill, 'evals', 'trigger-evals.json') }, out },
        /^--triggers$/,
      ],
    ];
    const problems: string[] = [];
    for (const [flags, input] of cases) {
      const refused = await resolveRunRequest(flags, root, env, new Date(0));
      expect(refused.ok).toBe(false);
      if (refused.ok) continue;
      expect(refused.error.input).toMatch(input);
      problems.push(refused.error.problem);
      expect(existsSync(out)).toBe(false);
    }
    expect(problems[0]).toMatch(/^runs a skill's own evals instead of a campaign file/);
    expect(problems[1]).toMatch(/^applies to a skill's own evals/);
    expect(problems[2]).toMatch(/^needs the skill/);
    const refused = await runCli(['run', '--evals', path.join(root, 'nowhere'), '--out', out], {
      env,
      cwd: root,
    });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/nowhere: is not a directory/);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  });
});
