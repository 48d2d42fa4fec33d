/**
 * First-dispatch capture on the `claude-code` backend: the real Claude Code
 * engine (2.1.332, through the Agent SDK) against the real model server or a
 * script brain. A recording proxy reads what the brain sent off the wire; the
 * server's request log shows which requests the engine made. Skipped, with
 * the reason printed, where the engine is not installed.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ModelServerOptions,
  scriptedModelId,
  startModelServer,
} from '../../harness/model-server/index.js';
import {
  DISPATCH_REFUSAL,
  NOT_RUN_RESULT,
  QUESTION_REFUSAL,
} from '../../harness/session/dispatch-capture.js';
import { askUserQuestionToolDefinition } from '../../harness/session/tools/dispatch-tools.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { widgetFixture } from '../model-server/support/fixture.js';
import {
  controllerToolUses,
  engineUnavailable,
  renderPrompt,
  runBackendSession,
  toolResults,
} from './support/run-session.js';
import { startScriptBrain } from './support/script-brain.js';
import { startWireRecorder, type WireRecorder } from './support/wire-recorder.js';

const unavailable = engineUnavailable();
if (unavailable !== undefined) process.stdout.write(`engine tests skipped: ${unavailable}\n`);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface LoggedRequest {
  readonly path: string;
  readonly turn: number;
  readonly action: string;
}

async function serveThroughRecorder(
  faults: ModelServerOptions['faults'] = [],
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

/** The text of a request's first user message: the session's prompt (a subagent's differs). */
function firstUserText(body: Record<string, unknown>): string {
  const first = (body.messages as { role: string; content: unknown }[]).find(
    (message) => message.role === 'user',
  );
  const content = first?.content;
  if (typeof content === 'string') return content;
  return (content as { type: string; text?: string }[])
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

describe.skipIf(unavailable !== undefined)(
  'stop: first-dispatch on the claude-code backend',
  () => {
    it('captures the Agent dispatch exactly as the policy sent it; no subagent request, no request after it', async () => {
      const { wire, log } = await serveThroughRecorder();
      const repo = await widgetFixture('s1', 'scoped');
      const prompt = await renderPrompt('compaction-resume-continue', repo);
      const run = await runBackendSession({
        backend: 'claude-code',
        stop: 'first-dispatch',
        baseUrl: wire.baseUrl,
        model: scriptedModelId('structural'),
        prompt,
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
      expect(run.outcome.capturedDispatch?.input).toEqual({
        description: 'Implement Task 1: Export data model',
        prompt: expect.stringContaining('Implement Task 1 (Export data model) of the plan'),
        subagent_type: 'general-purpose',
      });

      // The engine offered Agent and SendMessage; every request was the controller's, one per
      // turn, and the one answered with the dispatch was the last.
      const offered = ((wire.exchanges[0]?.requestBody.tools ?? []) as { name: string }[]).map(
        (tool) => tool.name,
      );
      expect(offered).toEqual(expect.arrayContaining(['Agent', 'SendMessage']));
      expect(
        wire.exchanges.every((exchange) => firstUserText(exchange.requestBody).includes(prompt)),
      ).toBe(true);
      const requests = await log();
      expect(requests.map((entry) => entry.turn)).toEqual(requests.map((_, index) => index + 1));
      expect(requests.at(-1)?.action).toBe('tool_use:Agent');
      expect(requests).toHaveLength(wire.exchanges.length);

      // The transcript: the dispatch as received, the refusal answering it, the hook's stop.
      const dispatch = controllerToolUses(run.transcript).at(-1);
      expect(dispatch).toEqual(sent[0]);
      const refusal = toolResults(run.transcript).get(sent[0]?.id ?? '');
      expect(refusal?.isError).toBe(true);
      expect(refusal?.text).toContain(DISPATCH_REFUSAL);
      expect(run.transcript.at(-1)).toMatchObject({
        type: 'result',
        terminal_reason: 'hook_stopped',
      });
      expect(run.transcript.some((line) => line.parent_tool_use_id != null)).toBe(false);
    });

    it('a session that replies without dispatching is completed with its reply; its calls all ran', async () => {
      const { wire, log } = await serveThroughRecorder();
      const repo = await widgetFixture('s1', 'scoped');
      const run = await runBackendSession({
        backend: 'claude-code',
        stop: 'first-dispatch',
        baseUrl: wire.baseUrl,
        model: scriptedModelId('structural'),
        prompt: await renderPrompt('compaction-resume', repo),
        fixtureRepo: repo,
      });
      expect(run.outcome.status).toEqual({ kind: 'completed' });
      expect(run.outcome.capturedDispatch).toBeNull();
      expect(run.outcome.finalReply).toContain('3. FIRST DISPATCH: Task 1 (Export data model).');
      // The hook let every call through: each has its tool's own result, none was denied.
      const results = toolResults(run.transcript);
      const uses = controllerToolUses(run.transcript);
      expect(uses.length).toBeGreaterThanOrEqual(4);
      expect(uses.every((use) => results.has(use.id))).toBe(true);
      expect([...results.values()].some((result) => /hook|Not run/.test(result.text))).toBe(false);
      expect(run.transcript.at(-1)).toMatchObject({ type: 'result', permission_denials: [] });
      expect((await log()).at(-1)?.action).toBe('text');
    });

    it('captures a SendMessage as the model sent it, with its turn’s text; later calls of the turn do not run', async () => {
      const repo = await widgetFixture('s1', 'scoped');
      const resume = { to: 'implementer-task-3', message: 'Continue Task 3 where you stopped.' };
      const brain = await startScriptBrain([
        [
          { type: 'text', text: 'Resuming the implementer of Task 3.' },
          {
            type: 'tool_use',
            id: 'toolu_before',
            name: 'Bash',
            input: { command: 'touch before' },
          },
          { type: 'tool_use', id: 'toolu_resume', name: 'SendMessage', input: resume },
          {
            type: 'tool_use',
            id: 'toolu_task',
            name: 'Task',
            input: {
              description: 'Implement Task 4',
              prompt: 'Task 4',
              subagent_type: 'general-purpose',
            },
          },
          { type: 'tool_use', id: 'toolu_after', name: 'Bash', input: { command: 'touch after' } },
        ],
      ]);
      closers.push(() => brain.close());
      const run = await runBackendSession({
        backend: 'claude-code',
        stop: 'first-dispatch',
        baseUrl: brain.baseUrl,
        model: 'scripted:script',
        prompt: 'Continue.',
        fixtureRepo: repo,
      });
      // The engine hands its hook an enriched SendMessage input; the capture is the model's own.
      expect(run.outcome.capturedDispatch).toEqual({
        toolUseId: 'toolu_resume',
        tool: 'SendMessage',
        input: resume,
      });
      expect(run.outcome.status).toEqual({ kind: 'completed' });
      expect(run.outcome.finalReply).toBe('Resuming the implementer of Task 3.');
      expect(existsSync(path.join(repo, 'before'))).toBe(true);
      expect(existsSync(path.join(repo, 'after'))).toBe(false);
      const results = toolResults(run.transcript);
      expect(results.get('toolu_resume')).toMatchObject({ isError: true });
      expect(results.get('toolu_resume')?.text).toContain(DISPATCH_REFUSAL);
      expect(results.get('toolu_task')?.text).toContain(NOT_RUN_RESULT);
      expect(results.get('toolu_after')?.text).toContain(NOT_RUN_RESULT);
      expect(brain.requests).toHaveLength(1);
    });

    it('captures a question to the human (AskUserQuestion) as sent; the messages backend offers the engine’s schema', async () => {
      const repo = await widgetFixture('s1', 'scoped');
      const question = {
        questions: [
          {
            question: 'Which governs: 40 or 30?',
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
        [
          { type: 'text', text: 'Which governs?' },
          { type: 'tool_use', id: 'toolu_q', name: 'AskUserQuestion', input: question },
          { type: 'tool_use', id: 'toolu_after', name: 'Bash', input: { command: 'touch after' } },
        ],
      ]);
      const wire = await startWireRecorder(brain.baseUrl);
      closers.push(
        () => brain.close(),
        () => wire.close(),
      );
      const run = await runBackendSession({
        backend: 'claude-code',
        stop: 'first-dispatch',
        baseUrl: wire.baseUrl,
        model: 'scripted:script',
        prompt: 'Continue.',
        fixtureRepo: repo,
      });
      expect(run.outcome.capturedDispatch).toEqual({
        toolUseId: 'toolu_q',
        tool: 'AskUserQuestion',
        input: question,
      });
      expect(run.outcome.stopReason).toBe('first-dispatch');
      expect(run.outcome.finalReply).toBe('Which governs?');
      const results = toolResults(run.transcript);
      expect(results.get('toolu_q')?.text).toContain(QUESTION_REFUSAL);
      expect(results.get('toolu_after')?.text).toContain(NOT_RUN_RESULT);
      expect(existsSync(path.join(repo, 'after'))).toBe(false);
      expect(brain.requests).toHaveLength(1);

      // The engine offers it headless (a permission prompt tool is named); the messages
      // backend's definition has the same properties, types, bounds and required fields.
      const offered = (wire.exchanges[0]?.requestBody.tools ?? []) as {
        name: string;
        input_schema: unknown;
      }[];
      const engineSchema = offered.find((tool) => tool.name === 'AskUserQuestion')?.input_schema;
      expect(engineSchema).toBeDefined();
      expect(schemaShape(askUserQuestionToolDefinition.input_schema)).toEqual(
        schemaShape(engineSchema),
      );
    });

    it('under stop: report the engine does not offer the question tool', async () => {
      const repo = await widgetFixture('s1', 'scoped');
      const brain = await startScriptBrain([[{ type: 'text', text: 'done' }]]);
      closers.push(() => brain.close());
      await runBackendSession({
        backend: 'claude-code',
        stop: 'report',
        baseUrl: brain.baseUrl,
        model: 'scripted:script',
        prompt: 'Continue.',
        fixtureRepo: repo,
      });
      expect(brain.requests[0]?.tools).not.toContain('AskUserQuestion');
      expect(brain.requests[0]?.tools).toContain('Agent');
    });

    it('under stop: report nothing is captured: the subagent runs, and every controller turn counts', async () => {
      const { wire } = await serveThroughRecorder();
      const repo = await widgetFixture('s1', 'scoped');
      const run = await runBackendSession({
        backend: 'claude-code',
        stop: 'report',
        baseUrl: wire.baseUrl,
        model: scriptedModelId('structural'),
        prompt: await renderPrompt('compaction-resume-continue', repo),
        fixtureRepo: repo,
      });
      expect(run.outcome.status).toEqual({ kind: 'completed' });
      expect(run.outcome.capturedDispatch).toBeNull();
      const dispatch = controllerToolUses(run.transcript).find((use) => use.name === 'Agent');
      // The implementer stand-in ran inside the subagent and read its brief.
      const inside = run.transcript.filter((line) => line.parent_tool_use_id === dispatch?.id);
      expect(JSON.stringify(inside)).toContain('task-1-brief.md');
      // The subagent's end gives the controller one more turn and a second result message,
      // which counts only that turn: the session's turns are the results' turns together.
      const results = run.transcript.filter((line) => line.type === 'result');
      const resultTurns = results.map((line) => Number(line.num_turns));
      expect(resultTurns).toHaveLength(2);
      expect(run.outcome.turns).toBe((resultTurns[0] ?? 0) + (resultTurns[1] ?? 0));
      expect(run.outcome.turns).toBeGreaterThan(resultTurns[1] ?? 0);
    });

    it('a session that hits the turn limit first is indeterminate, with nothing captured', async () => {
      const { wire } = await serveThroughRecorder();
      const repo = await widgetFixture('s1', 'scoped');
      const run = await runBackendSession({
        backend: 'claude-code',
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

    it('an aborted session stays aborted', async () => {
      const { wire } = await serveThroughRecorder([
        { kind: 'delay', minMs: 20_000, maxMs: 20_000, turn: 2 },
      ]);
      const repo = await widgetFixture('s1', 'scoped');
      const abort = new AbortController();
      const watch = setInterval(() => {
        if (wire.exchanges.length > 0) abort.abort();
      }, 50);
      try {
        const run = await runBackendSession({
          backend: 'claude-code',
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
  },
);

/** A JSON schema without its prose: descriptions, defaults and annotations removed, keys sorted. */
function schemaShape(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(schemaShape);
  if (schema === null || typeof schema !== 'object') return schema;
  const ignored = new Set(['description', 'default', '$schema', 'propertyNames']);
  return Object.fromEntries(
    Object.entries(schema as Record<string, unknown>)
      .filter(([key]) => !ignored.has(key))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, value]) => [key, key === 'required' ? value : schemaShape(value)]),
  );
}
