/**
 * readSessionTranscript on the three formats, each produced for real:
 * - Claude Code stream-json from the real `claude -p --output-format
 *   stream-json --verbose` against the model server (generated here; also a
 *   recording of the same run, tests/score/fixtures/claude-code-stream-json.jsonl,
 *   made with structural on an S1-scoped fixture, the continue prompt and
 *   Bash,Read,Glob,Grep,Agent, kept for machines without the engine): the
 *   controller dispatches an Agent whose subagent reads its brief;
 * - redgreen's own transcript.jsonl, from the messages backend;
 * - ATIF v1.4 from `redgreen export --atif` of a `redgreen run`;
 * and on inputs in no format read.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedModelId, startModelServer } from '../../harness/model-server/index.js';
import { parseReplyFile } from '../../harness/score/reply-file.js';
import { isInsideSubagent } from '../../harness/score/tool-call.js';
import { readTranscript } from '../../harness/score/transcripts/claude-messages.js';
import {
  readSessionTranscript,
  type SessionTranscript,
} from '../../harness/score/transcripts/read-transcript.js';
import { readTranscriptInputs } from '../../harness/score/transcripts/transcript-input.js';
import {
  firstDispatchCampaign,
  repLines,
  runCampaignCli,
  sharedOneRep,
} from '../campaign/support.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { claudeCodeUnavailable, runClaudeCode } from '../model-server/support/claude-code.js';
import { widgetFixture } from '../model-server/support/fixture.js';
import { renderPrompt, runBackendSession } from '../session/support/run-session.js';

const recordedStreamJson = path.join(
  repoRoot,
  'tests/score/fixtures/claude-code-stream-json.jsonl',
);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function read(text: string, source?: string): SessionTranscript {
  const result = readSessionTranscript(text, source);
  if (!result.ok) throw new Error(`${result.error.input}: ${result.error.problem}`);
  return result.value;
}

/** What structural does in S1-scoped under the continue prompt with Agent offered. */
function expectDispatchingController(transcript: SessionTranscript): void {
  expect(transcript.format).toBe('claude-code-stream-json');
  const controller = transcript.toolCalls.filter((call) => !isInsideSubagent(call));
  expect(controller.map((call) => call.name)).toEqual([
    'Read',
    'Bash',
    'Read',
    'Read',
    'Bash',
    'Agent',
  ]);
  const agent = controller.at(-1);
  expect(agent?.input).toMatchObject({ description: 'Implement Task 1: Export data model' });
  const inside = transcript.toolCalls.filter(isInsideSubagent);
  expect(inside.map((call) => [call.name, call.parentToolUseId])).toEqual([['Read', agent?.id]]);
  expect(String((inside[0]?.input as { file_path?: string } | undefined)?.file_path)).toMatch(
    /task-1-brief\.md$/,
  );
  expect(transcript.reply).toContain('3. FIRST DISPATCH: Task 1 (Export data model).');
  expect(transcript.model).toBe('scripted:structural');
  expect(transcript.malformed).toEqual([]);
}

describe('Claude Code stream-json', () => {
  it('reads the recorded real run: controller calls, the Agent dispatch, the subagent’s call under it', () => {
    expectDispatchingController(read(readFileSync(recordedStreamJson, 'utf8')));
  });

  it.skipIf(claudeCodeUnavailable() !== undefined)(
    'reads what the real claude -p --output-format stream-json --verbose prints now',
    async () => {
      const server = await startModelServer({ policy: 'structural' });
      closers.push(() => server.close());
      const repo = await widgetFixture('s1', 'scoped');
      const run = await runClaudeCode({
        baseUrl: server.baseUrl,
        cwd: repo,
        home: makeTempDir('redgreen-sj-home-'),
        prompt: await renderPrompt('compaction-resume-continue', repo),
        model: scriptedModelId('structural'),
        tools: 'Bash,Read,Glob,Grep,Agent',
      });
      expect(run.exitCode, run.stderr).toBe(0);
      const file = path.join(makeTempDir(), 'stream.jsonl');
      writeFileSync(file, run.stdout);
      const result = await readTranscriptInputs([file]);
      if (!result.ok) throw new Error(result.error.problem);
      expectDispatchingController(result.value);
    },
  );
});

describe("redgreen's own transcript.jsonl", () => {
  it('reads a messages-backend transcript, dispatch and refusal included', async () => {
    const server = await startModelServer({ policy: 'structural' });
    closers.push(() => server.close());
    const repo = await widgetFixture('s1', 'scoped');
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'report',
      baseUrl: server.baseUrl,
      model: scriptedModelId('structural'),
      prompt: await renderPrompt('compaction-resume-continue', repo),
      fixtureRepo: repo,
    });
    const text = run.transcript.map((line) => JSON.stringify(line)).join('\n');
    const transcript = read(text);
    expect(transcript.format).toBe('redgreen');
    expect(transcript.toolCalls.map((call) => call.name)).toEqual([
      'Read',
      'Bash',
      'Read',
      'Read',
      'Bash',
      'Agent',
    ]);
    expect(transcript.toolCalls.at(-1)).toMatchObject({
      isError: true,
      output: 'Subagent dispatch is not available in this session.',
      parentToolUseId: null,
    });
    expect(transcript.reply).toBe(run.outcome.finalReply);
  });
});

describe('ATIF v1.4 from redgreen export --atif', () => {
  async function exported(out: string): Promise<{ atif: string; repDir: string }> {
    const [line] = repLines(out);
    const exportRun = await runCli(['export', '--atif', out]);
    expect(exportRun.exitCode, exportRun.stderr).toBe(0);
    const [arm, rep] = (line?.id ?? '').split('/');
    return {
      atif: readFileSync(path.join(out, 'atif', arm ?? '', `${rep}.json`), 'utf8'),
      repDir: path.join(out, line?.dir ?? ''),
    };
  }

  it('reads the same tool calls, outputs and reply as the rep’s own transcript', async () => {
    const { out, run } = await sharedOneRep('2/4', ['--backend', 'messages']);
    expect(run.exitCode, run.stderr).toBe(0);
    const { atif, repDir } = await exported(out);
    const transcript = read(atif, 'green/s1-rep1.json');
    expect(transcript.format).toBe('atif-1.4');
    const own = readTranscript(readFileSync(path.join(repDir, 'transcript.jsonl'), 'utf8'));
    // ATIF has no error flag; redgreen's export lists failed calls in the step's extra.tool_errors.
    const errorsNamed = own.toolCalls.map(({ isError, ...call }) =>
      isError === true ? { ...call, isError } : call,
    );
    expect(transcript.toolCalls).toEqual(errorsNamed);
    const reply = parseReplyFile(readFileSync(path.join(repDir, 'reply.md'), 'utf8')).reply;
    expect(transcript.reply).toBe(reply);
    expect(transcript.model).toBe('scripted:skill-reader');
  });

  it('keeps a tool call named Agent as an Agent call', async () => {
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([
      firstDispatchCampaign(),
      '--backend',
      'messages',
      '--out',
      out,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const { atif, repDir } = await exported(out);
    const transcript = read(atif);
    const captured = parseReplyFile(
      readFileSync(path.join(repDir, 'reply.md'), 'utf8'),
    ).capturedDispatch;
    expect(transcript.toolCalls.at(-1)).toEqual({
      id: captured?.toolUseId,
      name: 'Agent',
      input: captured?.input,
      output: 'Subagent dispatch is not available in this session.',
      isError: true,
      parentToolUseId: null,
      // The model the step names (ATIF's step model_name), as every call now carries it.
      model: 'scripted:skill-reader',
    });
  });
});

describe('input in no format read', () => {
  it.each([
    ['', /is empty/],
    ['   \n\n', /is empty/],
    ['hello, this is a reply, not a transcript\n', /is not JSON lines or a JSON document/],
    ['{"not":"a message"}', /is in no transcript format redgreen reads/],
    ['[{"type":"assistant"}]', /is in no transcript format redgreen reads/],
    ['{"type":"stream_event"}\n{"type":"keep_alive"}\n', /is in no transcript format/],
    [
      '{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}}\n',
      /is in no transcript format/,
    ],
    [
      '{"schema_version":"ATIF-v1.2","session_id":"s","agent":{"name":"a","version":"1"},"steps":[]}',
      /is ATIF ATIF-v1\.2, which redgreen does not read/,
    ],
    [
      '{"schema_version":"ATIF-v1.4","session_id":"s","agent":{"name":"a","version":"1"},"steps":[{"step_id":1,"source":"agent","message":"","tool_calls":[{"tool_call_id":"t","arguments":{}}]}]}',
      /not a readable ATIF-v1\.4 trajectory \(steps\.0\.tool_calls\.0\.function_name/,
    ],
  ])('%j is an InputError naming the source and the formats tried', (text, problem) => {
    const result = readSessionTranscript(text, 'session.jsonl');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.input).toBe('session.jsonl');
    expect(result.error.problem).toMatch(problem);
    expect(`${result.error.problem} ${result.error.fix}`).toMatch(/stream-json|ATIF/);
  });

  it('names a file that cannot be read', async () => {
    const missing = path.join(makeTempDir(), 'nope.jsonl');
    const result = await readTranscriptInputs([missing]);
    expect(result.ok || result.error).toMatchObject({ input: missing, problem: 'no such file' });
  });

  it('reads a transcript with a torn last line, and lists the line', () => {
    const lines = readFileSync(recordedStreamJson, 'utf8').trimEnd().split('\n');
    const torn = [...lines.slice(0, 4), '{"type":"assistant","mess'].join('\n');
    const transcript = read(torn);
    expect(transcript.toolCalls.map((call) => call.name)).toEqual(['Read', 'Bash']);
    expect(transcript.malformed).toEqual([
      { line: 5, problem: expect.stringMatching(/^not JSON/) },
    ]);
  });
});
