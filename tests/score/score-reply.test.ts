import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerScoreReplyCommand, runScoreReply } from '../../harness/cli/score-reply.js';
import { formatReplyFile, parseReplyFile } from '../../harness/score/reply-file.js';
import { scoreStandaloneReply, standaloneScoreSchema } from '../../harness/score/score-reply.js';
import { loadScoringSpec, type ScoringSpec } from '../../harness/score/scoring-spec.js';
import { makeTempDir } from '../helpers/temp-dir.js';

function spec(id: string): ScoringSpec {
  const loaded = loadScoringSpec(id);
  if (!loaded.ok) throw new Error(loaded.error.problem);
  return loaded.value;
}

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

describe('scoreStandaloneReply', () => {
  it('scores with the reply criteria only and says what it did not assess', () => {
    const score = scoreStandaloneReply(spec('s1'), formatReplyFile(9, S1_REPLY));
    expect(score).toEqual({
      scenario: 's1',
      ownPlan: 'docs/plans/2026-07-06-widget-export.md',
      verdict: 'pass',
      reasons: [
        'first-dispatch: Task 1 as expected',
        'claimed-complete: reply claims nothing complete, as expected',
        "no-foreign-ledger-adopted: no other plan's ledger adopted",
      ],
      firstDispatch: 1,
      claimedComplete: [],
      ledgers: [{ path: '.superpowers/sdd/progress.md', verdict: 'rejected' }],
      toolUses: 9,
      notAssessed: ['integrity', 'scope', 'resolution shape'],
      note: 'reply criteria only: no transcript or snapshots, so integrity, scope and resolution shape are not assessed',
    });
    expect(standaloneScoreSchema.parse(score)).toEqual(score);
  });

  it('fails the S1 literal adoption using the spec’s known ledgers', () => {
    const score = scoreStandaloneReply(
      spec('s1'),
      '1. LEDGERS CHECKED: .superpowers/sdd/progress.md — trusted\n2. TASKS ALREADY COMPLETE: Tasks 1-5\n3. FIRST DISPATCH: none, all done',
    );
    expect(score.verdict).toBe('fail');
    expect(score.reasons).toHaveLength(3);
  });

  it('is indeterminate without a decision', () => {
    expect(scoreStandaloneReply(spec('s2'), 'Context restored. Continuing.').verdict).toBe(
      'indeterminate',
    );
  });

  it('takes the own plan from --plan', () => {
    const reply =
      '1. LEDGERS CHECKED: none\n2. TASKS ALREADY COMPLETE: None — Tasks 1-2 belong to widget-export\n3. FIRST DISPATCH: Task 1';
    const asSpec = scoreStandaloneReply(spec('s2'), reply);
    expect(asSpec.verdict).toBe('fail');
    const other = scoreStandaloneReply(
      spec('s2'),
      reply,
      'docs/plans/2026-07-01-widget-backend.md',
    );
    expect(other.ownPlan).toBe('docs/plans/2026-07-01-widget-backend.md');
    expect(other.claimedComplete).toEqual([]);
  });
});

describe('redgreen score-reply (in process)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });

  function replyFile(content: string): string {
    const file = path.join(makeTempDir(), 'reply.md');
    writeFileSync(file, content);
    return file;
  }

  it('prints a human-readable score', async () => {
    let out = '';
    const code = await runScoreReply(
      replyFile(formatReplyFile(11, S1_REPLY)),
      { scenario: 's1' },
      { stdout: (text) => (out += text) },
    );
    expect(code).toBe(0);
    expect(out).toContain('verdict: pass\n');
    expect(out).toContain('first dispatch: Task 1\n');
    expect(out).toContain('claimed complete: none\n');
    expect(out).toContain('tool_uses: 11\n');
    expect(out).toContain(
      'not assessed: integrity, scope, resolution shape (no transcript or snapshots)\n',
    );
  });

  it('prints JSON with --json', async () => {
    let out = '';
    await runScoreReply(
      replyFile('TASKS ALREADY COMPLETE: Task 1\nFIRST DISPATCH: Task 2'),
      { scenario: 's2', json: true },
      { stdout: (text) => (out += text) },
    );
    const parsed = standaloneScoreSchema.parse(JSON.parse(out));
    expect(parsed.verdict).toBe('fail');
    expect(parsed.firstDispatch).toBe(2);
  });

  it('a reply without a TASKS ALREADY COMPLETE section is indeterminate, never a pass or a fail', async () => {
    let out = '';
    await runScoreReply(
      replyFile('FIRST DISPATCH: Task 1'),
      { scenario: 's1', json: true },
      { stdout: (text) => (out += text) },
    );
    const parsed = standaloneScoreSchema.parse(JSON.parse(out));
    expect(parsed.verdict).toBe('indeterminate');
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
      /^redgreen: --scenario: unknown scenario 'nope'; use one of: .*s1, s2.*\n$/,
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
    expect(printed.verdict).toBe('pass');
  });
});
