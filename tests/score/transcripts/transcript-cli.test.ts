/**
 * `redgreen transcript <file…> [--json]`, run as a user runs it: what it
 * read from a session log with its subagent's log (the JSON shape the README
 * documents), and the one-line outcome of each damaged copy: a line cut
 * mid-way and a garbage line are listed and the rest is read; an empty file,
 * a document cut short and a file in no format are refused with one line and
 * exit 2; an ATIF link to a FIFO or an absolute path leaves that seat's
 * calls unknown, names the link, and never hangs. And `redgreen check` on a
 * session log: a finished one is judged (a wrong reply fails; it was
 * indeterminate for want of a result line), an unfinished one is not.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../../../harness/check/check-session.js';
import type { TranscriptSummary } from '../../../harness/score/transcripts/transcript-summary.js';
import { runCli } from '../../helpers/cli.js';
import { makeTempDir } from '../../helpers/temp-dir.js';
import { jsonl, logLines, writeLines } from './support.js';

const main = logLines();
const sub = logLines('a2898e3');
const mainLog = [
  main.prompt('Explore the renderer, then report.'),
  main.call('m1', 'toolu_skill', 'Skill', { skill: 'superpowers:brainstorming' }),
  main.result('toolu_skill', 'Launching skill: superpowers:brainstorming', { success: true }),
  main.call('m2', 'toolu_agent', 'Agent', {
    description: 'Explore the renderer',
    prompt: 'Explore it.',
    subagent_type: 'Explore',
  }),
  main.result('toolu_agent', 'Report.', {
    agentId: 'a2898e3',
    agentType: 'Explore',
    totalToolUseCount: 1,
  }),
  main.text('m3', '  The renderer is duplicated.  '),
];
const subLog = [
  sub.prompt('Explore it.'),
  sub.call('s1', 'toolu_s1', 'Read', { file_path: '/p/skills/x/SKILL.md' }, 'claude-haiku-4-5'),
  sub.result('toolu_s1', '# x'),
  sub.text('s2', 'Report.', 'claude-haiku-4-5'),
];

describe('redgreen transcript', () => {
  it('--json: one object with what was read, of both logs given together', async () => {
    const dir = makeTempDir();
    const files = [
      writeLines(dir, 'session.jsonl', mainLog),
      writeLines(dir, 'agent-a2898e3.jsonl', subLog),
    ];
    const run = await runCli(['transcript', ...files, '--json']);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const summary = JSON.parse(run.stdout) as TranscriptSummary;
    expect(summary).toEqual({
      schemaVersion: 1,
      files,
      format: 'claude-code-session',
      complete: true,
      incomplete: null,
      models: ['claude-sonnet-4-6', 'claude-haiku-4-5'],
      toolCalls: { controller: 2, subagent: 1 },
      dispatches: [
        {
          index: 1,
          callId: 'toolu_agent',
          tool: 'Agent',
          kind: 'fresh',
          subagentType: 'Explore',
          model: null,
          description: 'Explore the renderer',
          agentId: 'a2898e3',
        },
      ],
      seats: [
        expect.objectContaining({
          seat: 'controller',
          toolCalls: 2,
          tools: { Skill: 1, Agent: 1 },
        }),
        expect.objectContaining({
          seat: 'subagent',
          dispatch: 'toolu_agent',
          agentId: 'a2898e3',
          agentType: 'Explore',
          model: 'claude-haiku-4-5',
          toolCalls: 1,
          tools: { Read: 1 },
          unknownWhy: null,
        }),
      ],
      skills: [
        expect.objectContaining({
          name: 'superpowers:brainstorming',
          bare: 'brainstorming',
          form: 'tool',
          seat: 'controller',
          position: 0,
        }),
        expect.objectContaining({
          name: 'x',
          form: 'read',
          seat: 'subagent',
          position: 2,
          dispatch: 'toolu_agent',
        }),
      ],
      reply: 'The renderer is duplicated.',
      unreadable: [],
    });
  });

  it('prints the same for a person; alone, the session log says its subagent’s calls are not in the files', async () => {
    const dir = makeTempDir();
    const run = await runCli(['transcript', writeLines(dir, 'session.jsonl', mainLog)]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('Claude Code session log (claude-code-session), complete');
    expect(run.stdout).toContain(
      'tool calls: controller 2, subagents unknown (not all in the files given)',
    );
    expect(run.stdout).toMatch(
      /subagent a2898e3 \(Explore\): calls unknown \(its calls are in subagents\/agent-a2898e3\.jsonl/,
    );
    expect(run.stdout).toContain('superpowers:brainstorming (tool, controller, call 1)');
  });

  it('lists a line cut mid-way and a garbage line, and reads the rest', async () => {
    const dir = makeTempDir();
    const text = jsonl([...mainLog.slice(0, 3), 'garbage, not JSON', ...mainLog.slice(3)]);
    const file = path.join(dir, 'session.jsonl');
    writeFileSync(file, text.slice(0, text.length - 40));
    const run = await runCli(['transcript', file, '--json']);
    expect(run.exitCode).toBe(0);
    const summary = JSON.parse(run.stdout) as TranscriptSummary;
    expect(summary.unreadable).toEqual([
      { file: null, line: 4, problem: expect.stringMatching(/^not JSON/) },
      { file: null, line: 7, problem: expect.stringMatching(/^not JSON/) },
    ]);
    expect(summary.toolCalls.controller).toBe(2);
    expect(summary.complete).toBe(false);
  });

  it.each([
    [
      'an empty file',
      '',
      /: is empty; give a session's transcript file\(s\) or its directory \(Claude Code stream-json/,
    ],
    [
      'an ATIF document cut short',
      '{\n  "schema_version": "ATIF-v1.7",\n  "steps": [\n',
      /: is not valid JSON \(.*\); a document cut short reads so; give a transcript/,
    ],
    [
      'lines of no format',
      '{"type":"assistant","message":{"content":[]}}\n',
      /: is in no transcript format redgreen reads; give a transcript in one of these formats: .*Codex CLI rollout, ATIF v1\.4-v1\.7$/,
    ],
  ])('refuses %s with one line and exit 2', async (_what, text, problem) => {
    const file = path.join(makeTempDir(), 'session.jsonl');
    writeFileSync(file, text);
    const run = await runCli(['transcript', file]);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr.trim()).toMatch(problem);
  });

  it('an ATIF link to a FIFO or an absolute path: that seat’s calls unknown, the link named, no hang', async () => {
    const dir = makeTempDir();
    execFileSync('mkfifo', [path.join(dir, 'pipe.json')]);
    const document = (link: string) => ({
      schema_version: 'ATIF-v1.4',
      session_id: 'main',
      agent: { name: 'harness' },
      steps: [
        { step_id: 1, source: 'user', message: 'Go.' },
        {
          step_id: 2,
          source: 'agent',
          message: '',
          tool_calls: [
            { tool_call_id: 'd1', function_name: 'Agent', arguments: { prompt: 'Go.' } },
          ],
          observation: {
            results: [
              {
                source_call_id: 'd1',
                content: 'done',
                subagent_trajectory_ref: [{ session_id: 'main/a', trajectory_path: link }],
              },
            ],
          },
        },
        { step_id: 3, source: 'agent', message: 'Done.' },
      ],
    });
    for (const [link, why] of [
      ['pipe.json', 'linked trajectory pipe.json is a FIFO, not a regular file'],
      ['/etc/hostname', 'linked trajectory /etc/hostname is an absolute path'],
    ] as const) {
      const file = path.join(dir, 'trajectory.json');
      writeFileSync(file, JSON.stringify(document(link)));
      const run = await runCli(['transcript', file], { timeoutMs: 20_000 });
      expect(run.timedOut).toBe(false);
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain(`subagent d1: calls unknown (${why}`);
      expect(run.stdout).toContain('tool calls: controller 1, subagents unknown');
    }
  });
});

describe('redgreen check on a Claude Code session log', () => {
  const wrongReply =
    '1. LEDGERS CHECKED: .superpowers/sdd/progress.md — my ledger, trusted\n2. TASKS ALREADY COMPLETE: Tasks 1-5\n3. FIRST DISPATCH: none\n';

  it('judges a finished log (the wrong reply fails), and says which seat’s calls it lacks', async () => {
    const dir = makeTempDir();
    const reply = path.join(dir, 'reply.md');
    writeFileSync(reply, wrongReply);
    const run = await runCli([
      'check',
      's1',
      '--transcript',
      writeLines(dir, 'session.jsonl', mainLog),
      '--reply',
      reply,
      '--json',
    ]);
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as CheckReport;
    expect(report.sources.transcript).toMatchObject({
      format: 'claude-code-session',
      toolCalls: 2,
      unknownSeats: ['toolu_agent'],
    });
    expect(report.score.runner).toEqual({ kind: 'completed' });
    expect(report.score.verdict).toBe('fail');
    // With its subagent's log given too, every seat's calls are there.
    const both = await runCli([
      'check',
      's1',
      '--transcript',
      path.join(dir, 'session.jsonl'),
      '--transcript',
      writeLines(dir, 'agent-a2898e3.jsonl', subLog),
      '--reply',
      reply,
      '--json',
    ]);
    expect((JSON.parse(both.stdout) as CheckReport).sources.transcript).toMatchObject({
      files: [path.join(dir, 'session.jsonl'), path.join(dir, 'agent-a2898e3.jsonl')],
      toolCalls: 3,
      unknownSeats: [],
    });
    // Planted: cut before its last turn's text, the same log did not finish.
    const cut = await runCli([
      'check',
      's1',
      '--transcript',
      writeLines(dir, 'cut.jsonl', mainLog.slice(0, -1)),
      '--reply',
      reply,
      '--json',
    ]);
    const unfinished = JSON.parse(cut.stdout) as CheckReport;
    expect(unfinished.score.verdict).toBe('indeterminate');
    expect(unfinished.score.reasons[0]).toMatch(/ends on a tool result with no reply after it/);
  });
});
