/**
 * First-dispatch capture on the `messages` backend: redgreen's own loop on
 * the real `@anthropic-ai/sdk`, against the real model server (scripted
 * policies) or a script brain. What the policy sent is read off the wire by
 * a recording proxy, independently of the backend.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedModelId, startModelServer } from '../../harness/model-server/index.js';
import {
  DISPATCH_REFUSAL,
  NOT_RUN_RESULT,
  QUESTION_REFUSAL,
} from '../../harness/session/dispatch-capture.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { widgetFixture } from '../model-server/support/fixture.js';
import {
  controllerToolUses,
  renderPrompt,
  runBackendSession,
  toolResults,
} from './support/run-session.js';
import { startScriptBrain } from './support/script-brain.js';
import { startWireRecorder, type WireRecorder } from './support/wire-recorder.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface LoggedRequest {
  readonly turn: number;
  readonly action: string;
  readonly messages: number;
}

/** The model server behind a wire recorder; `log()` closes the server and reads its request log. */
async function serveThroughRecorder(
  faults: Parameters<typeof startModelServer>[0]['faults'] = [],
): Promise<{ wire: WireRecorder; log: () => Promise<LoggedRequest[]> }> {
  const logFile = path.join(makeTempDir(), 'requests.jsonl');
  const server = await startModelServer({ policy: 'structural', logFile, faults });
  const wire = await startWireRecorder(server.baseUrl);
  closers.push(
    () => server.close(),
    () => wire.close(),
  );
  return {
    wire,
    log: async () => {
      await server.close();
      return readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as LoggedRequest);
    },
  };
}

describe('stop: first-dispatch on the messages backend', () => {
  it('captures the policy’s Agent dispatch exactly as sent, refuses it, and makes no further request', async () => {
    const { wire, log } = await serveThroughRecorder();
    const repo = await widgetFixture('s1', 'scoped');
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'first-dispatch',
      baseUrl: wire.baseUrl,
      model: scriptedModelId('structural'),
      prompt: await renderPrompt('compaction-resume-continue', repo),
      fixtureRepo: repo,
    });

    expect(run.outcome.status).toEqual({ kind: 'completed' });
    expect(run.outcome.stopReason).toBe('first-dispatch');
    const sent = wire.exchanges.at(-1)?.toolUses ?? [];
    expect(sent.map((use) => use.name)).toEqual(['Agent']);
    expect(run.outcome.capturedDispatch).toEqual({
      toolUseId: sent[0]?.id,
      tool: 'Agent',
      input: sent[0]?.input,
    });
    expect(run.outcome.capturedDispatch?.input).toMatchObject({
      description: 'Implement Task 1: Export data model',
      subagent_type: 'general-purpose',
    });
    expect(run.outcome.finalReply).toBeNull();

    // The session offered the subagent tools, and the dispatch was its last request.
    expect(wire.exchanges[0]?.requestBody.tools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Agent' }),
        expect.objectContaining({ name: 'SendMessage' }),
      ]),
    );
    const requests = await log();
    expect(requests.map((entry) => entry.turn)).toEqual(requests.map((_, index) => index + 1));
    expect(requests.at(-1)?.action).toBe('tool_use:Agent');
    expect(requests).toHaveLength(wire.exchanges.length);

    // The transcript holds the dispatch as received and the refusal answering it.
    const uses = controllerToolUses(run.transcript);
    expect(uses.at(-1)).toEqual(sent[0]);
    expect(toolResults(run.transcript).get(sent[0]?.id ?? '')).toEqual({
      text: DISPATCH_REFUSAL,
      isError: true,
    });
    expect(run.transcript.at(-1)).toMatchObject({
      type: 'result',
      subtype: 'success',
      stop_reason: 'first-dispatch',
    });
  });

  it('a session that replies without dispatching is completed with its reply', async () => {
    const { wire, log } = await serveThroughRecorder();
    const repo = await widgetFixture('s1', 'scoped');
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'first-dispatch',
      baseUrl: wire.baseUrl,
      model: scriptedModelId('structural'),
      prompt: await renderPrompt('compaction-resume', repo),
      fixtureRepo: repo,
    });
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    expect(run.outcome.capturedDispatch).toBeNull();
    expect(run.outcome.stopReason).toBe('end_turn');
    expect(run.outcome.finalReply).toContain('3. FIRST DISPATCH: Task 1 (Export data model).');
    expect((await log()).at(-1)?.action).toBe('text');
  });

  it('under stop: report the Agent call is refused with an error result and the session goes on', async () => {
    const { wire } = await serveThroughRecorder();
    const repo = await widgetFixture('s1', 'scoped');
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'report',
      baseUrl: wire.baseUrl,
      model: scriptedModelId('structural'),
      prompt: await renderPrompt('compaction-resume-continue', repo),
      fixtureRepo: repo,
    });
    const offered = ((wire.exchanges[0]?.requestBody.tools ?? []) as { name: string }[]).map(
      (tool) => tool.name,
    );
    expect(offered).toEqual(['Bash', 'Read', 'Glob', 'Grep', 'Agent']);
    const dispatch = controllerToolUses(run.transcript).find((use) => use.name === 'Agent');
    expect(dispatch).toBeDefined();
    expect(toolResults(run.transcript).get(dispatch?.id ?? '')).toEqual({
      text: DISPATCH_REFUSAL,
      isError: true,
    });
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    expect(run.outcome.capturedDispatch).toBeNull();
    expect(run.outcome.finalReply).toContain('3. FIRST DISPATCH: Task 1 (Export data model).');
    expect(wire.exchanges.at(-1)?.toolUses).toEqual([]);
  });

  it('runs the calls before the dispatch in its turn, not those after; Task counts as Agent', async () => {
    const repo = await widgetFixture('s1', 'scoped');
    const task = {
      description: 'Implement Task 2',
      prompt: 'Implement Task 2 (JSON export).',
      subagent_type: 'general-purpose',
    };
    const brain = await startScriptBrain([
      [
        { type: 'text', text: 'Dispatching the next task.' },
        bash('toolu_before', 'touch before-dispatch'),
        { type: 'tool_use', id: 'toolu_task', name: 'Task', input: task },
        {
          type: 'tool_use',
          id: 'toolu_send',
          name: 'SendMessage',
          input: { to: 'x', message: 'y' },
        },
        bash('toolu_after', 'touch after-dispatch'),
      ],
    ]);
    closers.push(() => brain.close());
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'first-dispatch',
      baseUrl: brain.baseUrl,
      model: 'scripted:script',
      prompt: 'Continue.',
      fixtureRepo: repo,
    });
    expect(run.outcome.capturedDispatch).toEqual({
      toolUseId: 'toolu_task',
      tool: 'Task',
      input: task,
    });
    expect(run.outcome.finalReply).toBe('Dispatching the next task.');
    expect(existsSync(path.join(repo, 'before-dispatch'))).toBe(true);
    expect(existsSync(path.join(repo, 'after-dispatch'))).toBe(false);
    const results = toolResults(run.transcript);
    expect(results.get('toolu_before')?.isError).toBe(false);
    expect(results.get('toolu_task')).toEqual({ text: DISPATCH_REFUSAL, isError: true });
    expect(results.get('toolu_send')).toEqual({ text: NOT_RUN_RESULT, isError: true });
    expect(results.get('toolu_after')).toEqual({ text: NOT_RUN_RESULT, isError: true });
    expect(brain.requests).toHaveLength(1);
  });

  it('captures a SendMessage (a resume) as the first dispatch; an invalid dispatch is not one', async () => {
    const repo = await widgetFixture('s1', 'scoped');
    const resume = { to: 'implementer-task-3', message: 'Continue Task 3 where you stopped.' };
    const brain = await startScriptBrain([
      [{ type: 'tool_use', id: 'toolu_bad', name: 'Agent', input: { description: 'no prompt' } }],
      [{ type: 'tool_use', id: 'toolu_resume', name: 'SendMessage', input: resume }],
    ]);
    closers.push(() => brain.close());
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'first-dispatch',
      baseUrl: brain.baseUrl,
      model: 'scripted:script',
      prompt: 'Continue.',
      fixtureRepo: repo,
    });
    expect(toolResults(run.transcript).get('toolu_bad')).toEqual({
      text: expect.stringMatching(/^InputValidationError: Agent prompt/),
      isError: true,
    });
    expect(run.outcome.capturedDispatch).toEqual({
      toolUseId: 'toolu_resume',
      tool: 'SendMessage',
      input: resume,
    });
    expect(brain.requests).toHaveLength(2);
  });

  it('captures a question to the human (AskUserQuestion) like a dispatch: recorded, refused, last request', async () => {
    const repo = await widgetFixture('s1', 'scoped');
    const question = {
      questions: [
        {
          question: 'Which governs, the 40 of the constraints or the 30 of Task 2?',
          header: 'Banner',
          options: [
            { label: '40', description: 'the Global Constraints' },
            { label: '30', description: "Task 2's text" },
          ],
          multiSelect: false,
        },
      ],
    };
    const brain = await startScriptBrain([
      [{ type: 'tool_use', id: 'toolu_badq', name: 'AskUserQuestion', input: { questions: [] } }],
      [
        { type: 'text', text: 'The plan contradicts itself.' },
        { type: 'tool_use', id: 'toolu_q', name: 'AskUserQuestion', input: question },
        bash('toolu_after', 'touch after'),
      ],
    ]);
    closers.push(() => brain.close());
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'first-dispatch',
      baseUrl: brain.baseUrl,
      model: 'scripted:script',
      prompt: 'Continue.',
      fixtureRepo: repo,
    });
    expect(brain.requests[0]?.tools).toEqual(expect.arrayContaining(['AskUserQuestion']));
    const results = toolResults(run.transcript);
    // An input the schema refuses is no question: it gets a validation error, as on the engine.
    expect(results.get('toolu_badq')).toEqual({
      text: expect.stringMatching(/^InputValidationError: AskUserQuestion questions/),
      isError: true,
    });
    expect(run.outcome.capturedDispatch).toEqual({
      toolUseId: 'toolu_q',
      tool: 'AskUserQuestion',
      input: question,
    });
    expect(run.outcome.stopReason).toBe('first-dispatch');
    expect(results.get('toolu_q')).toEqual({ text: QUESTION_REFUSAL, isError: true });
    expect(results.get('toolu_after')).toEqual({ text: NOT_RUN_RESULT, isError: true });
    expect(existsSync(path.join(repo, 'after'))).toBe(false);
    expect(brain.requests).toHaveLength(2);
  });

  it('under stop: report the question tool is not offered (as on the engine, headless)', async () => {
    const repo = await widgetFixture('s1', 'scoped');
    const brain = await startScriptBrain([[{ type: 'text', text: 'done' }]]);
    closers.push(() => brain.close());
    await runBackendSession({
      backend: 'messages',
      stop: 'report',
      baseUrl: brain.baseUrl,
      model: 'scripted:script',
      prompt: 'Continue.',
      fixtureRepo: repo,
    });
    expect(brain.requests[0]?.tools).not.toContain('AskUserQuestion');
    expect(brain.requests[0]?.tools).toContain('Agent');
  });

  it('a session that hits the turn limit first is indeterminate, with nothing captured', async () => {
    const { wire } = await serveThroughRecorder();
    const repo = await widgetFixture('s1', 'scoped');
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'first-dispatch',
      baseUrl: wire.baseUrl,
      model: scriptedModelId('structural'),
      prompt: await renderPrompt('compaction-resume-continue', repo),
      fixtureRepo: repo,
      limits: { maxTurns: 2 },
    });
    expect(run.outcome.status).toMatchObject({ kind: 'indeterminate', stage: 'limit' });
    expect(run.outcome.capturedDispatch).toBeNull();
  });

  it('a session that times out first is indeterminate, with nothing captured', async () => {
    const { wire } = await serveThroughRecorder([
      { kind: 'delay', minMs: 3000, maxMs: 3000, turn: 2 },
    ]);
    const repo = await widgetFixture('s1', 'scoped');
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'first-dispatch',
      baseUrl: wire.baseUrl,
      model: scriptedModelId('structural'),
      prompt: await renderPrompt('compaction-resume-continue', repo),
      fixtureRepo: repo,
      limits: { sessionTimeoutSeconds: 1 },
    });
    expect(run.outcome.status).toMatchObject({ kind: 'indeterminate', stage: 'timeout' });
    expect(run.outcome.capturedDispatch).toBeNull();
  });

  it('an aborted session stays aborted', async () => {
    const { wire } = await serveThroughRecorder([
      { kind: 'delay', minMs: 3000, maxMs: 3000, turn: 2 },
    ]);
    const repo = await widgetFixture('s1', 'scoped');
    const abort = new AbortController();
    // Abort once the first turn is answered: the second is held back by the delay.
    const watch = setInterval(() => {
      if (wire.exchanges.length > 0) abort.abort();
    }, 20);
    try {
      const run = await runBackendSession({
        backend: 'messages',
        stop: 'first-dispatch',
        baseUrl: wire.baseUrl,
        model: scriptedModelId('structural'),
        prompt: await renderPrompt('compaction-resume-continue', repo),
        fixtureRepo: repo,
        signal: abort.signal,
      });
      expect(run.outcome.status).toMatchObject({ kind: 'indeterminate', stage: 'aborted' });
      expect(run.outcome.capturedDispatch).toBeNull();
    } finally {
      clearInterval(watch);
    }
  });
});

function bash(id: string, command: string) {
  return { type: 'tool_use', id, name: 'Bash', input: { command } } as const;
}
