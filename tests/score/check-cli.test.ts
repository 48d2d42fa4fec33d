/**
 * `redgreen check <scenario>` scores one session that ran elsewhere, from a
 * Claude Code stream-json transcript (the real engine run headless against
 * the local model server), from one of redgreen's own transcript.jsonl, and
 * from an ATIF v1.4 trajectory (`redgreen export --atif`). Checks whose
 * evidence is missing are reported as not assessed and leave a passing
 * session indeterminate, never passed; with the repository and its layout
 * every S1 check is assessed.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../harness/check/check-session.js';
import {
  type ModelServer,
  scriptedModelId,
  startModelServer,
} from '../../harness/model-server/index.js';
import { repLines, sharedOneRep } from '../campaign/support.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { claudeCodeUnavailable, runClaudeCode } from '../model-server/support/claude-code.js';
import { widgetFixture } from '../model-server/support/fixture.js';
import { campaignPrompt } from '../model-server/support/prompt.js';

async function check(args: readonly string[]): Promise<CheckReport> {
  const run = await runCli(['check', ...args, '--json']);
  expect(run.stderr).toBe('');
  expect(run.exitCode).toBe(0);
  return JSON.parse(run.stdout) as CheckReport;
}

function outcomes(report: CheckReport): Record<string, string> {
  return Object.fromEntries(
    report.score.checks.map((check) => [
      check.id,
      check.notAssessed === true ? 'not assessed' : check.outcome,
    ]),
  );
}

const unavailable = claudeCodeUnavailable();
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.skipIf(unavailable !== undefined)('a Claude Code stream-json transcript', () => {
  it('is read from content; with the repository and its layout every S1 check is assessed and passes', async () => {
    server = await startModelServer({ policy: 'structural' });
    const repo = await widgetFixture('s1', 'scoped');
    const skill = path.join(makeTempDir(), 'subagent-driven-development');
    cpSync(path.join(repoRoot, 'skills-under-test/sdd-plan-scoped'), skill, { recursive: true });
    const run = await runClaudeCode({
      baseUrl: server.baseUrl,
      cwd: repo,
      home: makeTempDir('redgreen-check-home-'),
      prompt: campaignPrompt(repo, skill),
      model: scriptedModelId('structural'),
    });
    expect(run.exitCode).toBe(0);
    const stream = path.join(makeTempDir(), 'session.jsonl');
    writeFileSync(stream, `${run.messages.map((message) => JSON.stringify(message)).join('\n')}\n`);

    const transcriptOnly = await check(['s1', '--transcript', stream]);
    expect(transcriptOnly.sources.transcript?.format).toBe('claude-code-stream-json');
    expect(transcriptOnly.sources.reply).toBe('transcript');
    expect(outcomes(transcriptOnly)).toEqual({
      'first-dispatch': 'pass',
      'claimed-complete': 'pass',
      'no-foreign-ledger-adopted': 'pass',
      'stale-artifacts-untouched': 'not assessed',
    });
    // The unassessed file check could still fail the session, so it is not a pass.
    expect(transcriptOnly.score.verdict).toBe('indeterminate');
    expect(transcriptOnly.score.notAssessed).toEqual(['stale-artifacts-untouched']);
    expect(transcriptOnly.score.observations.find((o) => o.id === 'resolution')?.observed).toBe(
      'structural',
    );

    const full = await check(['s1', '--transcript', stream, '--repo', repo, '--layout', 'scoped']);
    expect(outcomes(full)['stale-artifacts-untouched']).toBe('pass');
    expect(full.score.verdict).toBe('pass');

    // Planted negative: the same session with a stale ledger touched afterwards fails.
    writeFileSync(path.join(repo, '.superpowers/sdd/progress.md'), 'rewritten\n');
    const touched = await check([
      's1',
      '--transcript',
      stream,
      '--repo',
      repo,
      '--layout',
      'scoped',
    ]);
    expect(touched.score.verdict).toBe('fail');
    expect(touched.score.reasons[0]).toMatch(
      /^stale-artifacts-untouched: \.superpowers\/sdd\/progress\.md was modified/,
    );
  });
});

describe("redgreen's own transcript.jsonl and an ATIF v1.4 export", () => {
  // One run for every test here, kept until the last of them (makeTempDir cleans after each test).
  const kept = mkdtempSync(path.join(os.tmpdir(), 'redgreen-check-run-'));
  afterAll(() => rmSync(kept, { recursive: true, force: true }));
  let out = '';
  let repDir = '';
  beforeAll(async () => {
    const one = await sharedOneRep('1/4');
    expect(one.run.exitCode, one.run.stderr).toBe(0);
    out = path.join(kept, 'out');
    cpSync(one.out, out, { recursive: true });
    repDir = path.join(out, repLines(out)[0]?.dir ?? '');
    const exported = await runCli(['export', '--atif', out]);
    expect(exported.exitCode, exported.stderr).toBe(0);
  });

  it('scores a rep’s transcript.jsonl as the run did (red/s1 fails on its reply)', async () => {
    const report = await check(['s1', '--transcript', path.join(repDir, 'transcript.jsonl')]);
    expect(report.sources.transcript?.toolCalls).toBeGreaterThan(0);
    expect(report.score.verdict).toBe('fail');
    const recorded = JSON.parse(
      readFileSync(path.join(repDir, 'score.json'), 'utf8'),
    ) as CheckReport['score'];
    expect(report.score.values).toEqual(recorded.values);
    expect(report.score.reasons).toEqual(recorded.reasons);
  });

  it('scores the same session from its ATIF trajectory, tool calls and reply included', async () => {
    const atifDir = path.join(out, 'atif', 'red');
    const [file] = readdirSync(atifDir).filter((name) => name.endsWith('.json'));
    const report = await check(['s1', '--transcript', path.join(atifDir, file ?? '')]);
    expect(report.sources.transcript?.format).toBe('atif-1.4');
    expect(report.sources.transcript?.toolCalls).toBeGreaterThan(0);
    expect(report.sources.reply).toBe('transcript');
    expect(report.score.verdict).toBe('fail');
    expect(report.score.checks.filter((c) => c.outcome === 'fail').map((c) => c.id)).toEqual([
      'first-dispatch',
      'claimed-complete',
      'no-foreign-ledger-adopted',
    ]);
  });

  it('takes the reply from --reply over the transcript’s, and needs one of them', async () => {
    const reply = path.join(makeTempDir(), 'reply.md');
    writeFileSync(
      reply,
      '1. LEDGERS CHECKED: none\n2. TASKS ALREADY COMPLETE: None\n3. FIRST DISPATCH: Task 1\n',
    );
    const report = await check([
      's1',
      '--transcript',
      path.join(repDir, 'transcript.jsonl'),
      '--reply',
      reply,
    ]);
    expect(report.sources.reply).toBe('file');
    expect(report.score.checks.find((c) => c.id === 'first-dispatch')?.outcome).toBe('pass');
    const neither = await runCli(['check', 's1']);
    expect(neither.exitCode).toBe(2);
    expect(neither.stderr).toMatch(
      /needs a transcript or a reply; pass --transcript <file> and\/or --reply <file>/,
    );
  });

  it('reads the transcript from stdin with -, and refuses stdin for both files', async () => {
    const transcript = readFileSync(path.join(repDir, 'transcript.jsonl'), 'utf8');
    const piped = await runCli(['check', 's1', '--transcript', '-', '--json'], {
      input: transcript,
    });
    expect(piped.exitCode, piped.stderr).toBe(0);
    const fromFile = await check(['s1', '--transcript', path.join(repDir, 'transcript.jsonl')]);
    expect((JSON.parse(piped.stdout) as CheckReport).score).toEqual(fromFile.score);
    const both = await runCli(['check', 's1', '--transcript', '-', '--reply', '-'], {
      input: transcript,
    });
    expect(both.exitCode).toBe(2);
    expect(both.stderr.trim().split('\n')).toHaveLength(1);
    expect(both.stderr).toMatch(/both read stdin; read at most one of them from stdin/);
  });

  it('refuses a file that is no transcript, with one line and exit 2', async () => {
    const junk = path.join(makeTempDir(), 'junk.txt');
    writeFileSync(junk, 'not a transcript\n');
    const run = await runCli(['check', 's1', '--transcript', junk]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /junk\.txt: is not JSON lines or a JSON document, so it is no transcript; give a transcript in one of these formats: Claude Code stream-json/,
    );
  });

  it('skips an unreadable line of a transcript, scores the rest as the run did, and says so', async () => {
    const damaged = path.join(makeTempDir(), 'transcript.jsonl');
    writeFileSync(
      damaged,
      `${readFileSync(path.join(repDir, 'transcript.jsonl'), 'utf8')}{"type": "assistant", torn\n`,
    );
    const report = await check(['s1', '--transcript', damaged]);
    expect(report.sources.transcript?.malformedLines).toBe(1);
    const whole = await check(['s1', '--transcript', path.join(repDir, 'transcript.jsonl')]);
    expect(whole.sources.transcript?.malformedLines).toBe(0);
    expect(report.score.reasons).toEqual(whole.score.reasons);
    const text = await runCli(['check', 's1', '--transcript', damaged]);
    expect(text.stdout).toContain('1 unreadable line(s) skipped');
  });

  it('prints a readable report by default, and documents itself', async () => {
    const run = await runCli([
      'check',
      's1',
      '--transcript',
      path.join(repDir, 'transcript.jsonl'),
    ]);
    expect(run.stdout).toMatch(/^verdict: fail\n/);
    expect(run.stdout).toContain('n/a   stale-artifacts-untouched: not assessed');
    const help = await runCli(['check', '--help']);
    for (const flag of [
      '--transcript <file>',
      '--reply <file>',
      '--repo <dir>',
      '--layout <name>',
      '--json',
    ]) {
      expect(help.stdout).toContain(flag);
    }
  });
});
