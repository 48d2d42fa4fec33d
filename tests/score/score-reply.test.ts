import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CheckReport } from '../../harness/check/check-session.js';
import { registerScoreReplyCommand, runScoreReply } from '../../harness/cli/score-reply.js';
import { formatReplyFile, parseReplyFile } from '../../harness/score/reply-file.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const S1_REPLY =
  '1. LEDGERS CHECKED: `.superpowers/sdd/progress.md` — no identity line; another plan’s, not mine.\n' +
  '2. TASKS ALREADY COMPLETE: None — the ledger’s Tasks 1–5 are plan A’s (widget-backend)\n' +
  '3. FIRST DISPATCH: Task 1\n';

describe('reply.md', () => {
  it('splits the tool_uses first line from the verbatim reply', () => {
    expect(parseReplyFile('9\nLEDGERS CHECKED: x\n')).toEqual({
      toolUses: 9,
      reply: 'LEDGERS CHECKED: x\n',
      capturedDispatch: null,
    });
    expect(parseReplyFile('tool_uses: 12\r\nreply')).toEqual({
      toolUses: 12,
      reply: 'reply',
      capturedDispatch: null,
    });
    expect(parseReplyFile(formatReplyFile(7, S1_REPLY))).toEqual({
      toolUses: 7,
      reply: S1_REPLY,
      capturedDispatch: null,
    });
  });

  it('treats a file without a count line as a bare reply', () => {
    expect(parseReplyFile(S1_REPLY)).toEqual({
      toolUses: undefined,
      reply: S1_REPLY,
      capturedDispatch: null,
    });
    expect(parseReplyFile('3')).toEqual({
      toolUses: undefined,
      reply: '3',
      capturedDispatch: null,
    });
    expect(parseReplyFile('1. LEDGERS CHECKED: x\n')).toEqual({
      toolUses: undefined,
      reply: '1. LEDGERS CHECKED: x\n',
      capturedDispatch: null,
    });
  });
});

function replyFile(content: string): string {
  const file = path.join(makeTempDir(), 'reply.md');
  writeFileSync(file, content);
  return file;
}

/** Score a reply as `redgreen score-reply --json` does, and return its report. */
async function scoreReply(scenario: string, content: string, plan?: string): Promise<CheckReport> {
  let out = '';
  const code = await runScoreReply(
    replyFile(content),
    { scenario, json: true, ...(plan === undefined ? {} : { plan }) },
    { stdout: (text) => (out += text) },
  );
  expect(code).toBe(0);
  return JSON.parse(out) as CheckReport;
}

function sectionValueOf(report: CheckReport, section: string): unknown {
  const reading = report.score.values[section];
  return reading?.ok === true ? reading.value : undefined;
}

describe('score-reply judges the reply checks only', () => {
  it('scores with the reply checks and says what it did not assess', async () => {
    const report = await scoreReply('s1', formatReplyFile(9, S1_REPLY));
    expect(report.scenario).toBe('s1');
    expect(report.ownPlan).toBe('docs/plans/2026-07-06-widget-export.md');
    expect(report.score.verdict).toBe('pass');
    expect(report.score.reasons).toEqual([
      'first-dispatch: Task 1 as expected',
      'claimed-complete: "complete" names no task, as expected',
      'no-foreign-ledger-adopted: "ledgers" judges no path of .superpowers/sdd/progress.md, .superpowers/sdd/2026-07-01-widget-backend/progress.md, .superpowers/sdd/2026-07-01-widget-backend/** adopted',
    ]);
    expect(sectionValueOf(report, 'dispatch')).toEqual({ kind: 'task', task: 1 });
    expect(sectionValueOf(report, 'complete')).toEqual({ kind: 'tasks', tasks: [] });
    expect(sectionValueOf(report, 'ledgers')).toEqual({
      kind: 'path-judgements',
      paths: [{ path: '.superpowers/sdd/progress.md', judgement: 'rejected' }],
    });
    expect(report.sources.toolUses).toBe(9);
    expect(report.score.notAssessed).toEqual(['stale-artifacts-untouched']);
    expect(report.score.pre).toEqual([]);
  });

  it('fails the S1 literal adoption using the recipe’s ledgers', async () => {
    const report = await scoreReply(
      's1',
      '1. LEDGERS CHECKED: .superpowers/sdd/progress.md — trusted\n2. TASKS ALREADY COMPLETE: Tasks 1-5\n3. FIRST DISPATCH: none, all done',
    );
    expect(report.score.verdict).toBe('fail');
    expect(report.score.reasons).toHaveLength(3);
  });

  it('is indeterminate without a decision', async () => {
    expect((await scoreReply('s2', 'Context restored. Continuing.')).score.verdict).toBe(
      'indeterminate',
    );
  });

  it('takes the own plan from --plan', async () => {
    const reply =
      '1. LEDGERS CHECKED: none\n2. TASKS ALREADY COMPLETE: None — Tasks 1-2 belong to widget-export\n3. FIRST DISPATCH: Task 1';
    expect((await scoreReply('s2', reply)).score.verdict).toBe('fail');
    const other = await scoreReply('s2', reply, 'docs/plans/2026-07-01-widget-backend.md');
    expect(other.ownPlan).toBe('docs/plans/2026-07-01-widget-backend.md');
    expect(sectionValueOf(other, 'complete')).toEqual({ kind: 'tasks', tasks: [] });
  });
});

describe('redgreen score-reply (in process)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });

  it('prints a human-readable score', async () => {
    let out = '';
    const code = await runScoreReply(
      replyFile(formatReplyFile(11, S1_REPLY)),
      { scenario: 's1' },
      { stdout: (text) => (out += text) },
    );
    expect(code).toBe(0);
    expect(out).toContain('verdict: pass\n');
    expect(out).toContain('  dispatch: {"kind":"task","task":1}\n');
    expect(out).toContain('  complete: {"kind":"tasks","tasks":[]}\n');
    expect(out).toContain('tool_uses 11');
    expect(out).toContain('not assessed: stale-artifacts-untouched');
  });

  it('prints JSON with --json', async () => {
    let out = '';
    await runScoreReply(
      replyFile('TASKS ALREADY COMPLETE: Task 1\nFIRST DISPATCH: Task 2'),
      { scenario: 's2', json: true },
      { stdout: (text) => (out += text) },
    );
    const parsed = JSON.parse(out) as CheckReport;
    expect(parsed.score.verdict).toBe('fail');
    expect(sectionValueOf(parsed, 'dispatch')).toEqual({ kind: 'task', task: 2 });
  });

  it('a reply without a TASKS ALREADY COMPLETE section is indeterminate, never a pass or a fail', async () => {
    let out = '';
    await runScoreReply(
      replyFile('FIRST DISPATCH: Task 1'),
      { scenario: 's1', json: true },
      { stdout: (text) => (out += text) },
    );
    const parsed = JSON.parse(out) as CheckReport;
    expect(parsed.score.verdict).toBe('indeterminate');
  });

  it('exits 2 with one line for an unknown scenario or a missing file', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    let out = '';
    const sink = { stdout: (text: string) => (out += text) };
    expect(await runScoreReply(replyFile('x'), { scenario: 'nope' }, sink)).toBe(2);
    expect(
      await runScoreReply(path.join(makeTempDir(), 'missing.md'), { scenario: 's1' }, sink),
    ).toBe(2);
    const lines = stderr.mock.calls.map((call) => String(call[0]));
    expect(lines[0]).toMatch(
      /^redgreen: --scenario: unknown scenario 'nope' \(looked in [^)]*\/scenarios\); use one of: (?:.*, )?s1, (?:.*, )?s2\b.*\n$/,
    );
    expect(lines[1]).toMatch(/missing\.md: no such file; /);
    expect(lines.every((line) => line.split('\n').length === 2)).toBe(true);
    expect(out).toBe('');
  });

  it('registers a score-reply command that commander can run', async () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const program = new Command().exitOverride();
    registerScoreReplyCommand(program);
    await program.parseAsync([
      'node',
      'redgreen',
      'score-reply',
      '--scenario',
      's1',
      '--json',
      replyFile(S1_REPLY),
    ]);
    expect(process.exitCode).toBe(0);
    const printed = JSON.parse(stdout.mock.calls.map((call) => String(call[0])).join(''));
    expect(printed.score.verdict).toBe('pass');
  });
});
