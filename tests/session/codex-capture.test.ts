/**
 * The codex backend's two readings of what the engine did, as pure
 * functions (the real engine runs them in tests/session/codex-both.test.ts):
 *
 * - the first-dispatch capture: the `--json` line that ends the session (the
 *   root thread's first spawn or send, not a shell step, not a spawned
 *   thread's), and the dispatch recorded from the rollout's call with the
 *   capture's refusal, where the claude-code capture records its own;
 * - the skill load: a whole `cat` of an installed SKILL.md is a `Skill` call
 *   keeping the command Codex ran; a grep, an `ls`, a ranged read, a
 *   compound command or a SKILL.md outside the installed skills is not.
 */
import { describe, expect, it } from 'vitest';
import { spawnModelOf } from '../../harness/model-server/responses/codex-tools.js';
import { dispatchesOf } from '../../harness/score/dispatches.js';
import { DISPATCH_REFUSAL } from '../../harness/score/refusals.js';
import { skillInvocations } from '../../harness/score/skill-invocations.js';
import type { ToolCall } from '../../harness/score/tool-call.js';
import type { SessionTranscript } from '../../harness/score/transcripts/session-transcript.js';
import { capturedFromRollout, DispatchWatch } from '../../harness/session/codex-capture.js';
import { asSkillLoad, installedSkillRead } from '../../harness/session/codex-skill-loads.js';
import { stopProblem } from '../../harness/session/session-tool-table.js';

const ROOT = '019a0000-0000-7000-8000-000000000001';
const CHILD = '019a0000-0000-7000-8000-000000000002';
const line = (value: unknown): string => JSON.stringify(value);
const collab = (type: string, tool: string, sender: string): string =>
  line({
    type,
    item: {
      id: 'item_3',
      type: 'collab_tool_call',
      tool,
      sender_thread_id: sender,
      receiver_thread_ids: [CHILD],
      prompt: 'Implement Task 1',
    },
  });

describe('DispatchWatch: where a codex first-dispatch session ends', () => {
  it('ends at the root thread’s first spawn, and only once', () => {
    const watch = new DispatchWatch();
    expect(watch.read(line({ type: 'thread.started', thread_id: ROOT }))).toBe(false);
    expect(watch.read(line({ type: 'turn.started' }))).toBe(false);
    expect(
      watch.read(
        line({
          type: 'item.completed',
          item: { type: 'command_execution', command: "/bin/bash -lc 'ls'", exit_code: 0 },
        }),
      ),
    ).toBe(false);
    expect(watch.read('not json')).toBe(false);
    expect(watch.read(collab('item.started', 'spawn_agent', ROOT))).toBe(true);
    expect(watch.seen).toEqual({
      itemId: 'item_3',
      tool: 'spawn_agent',
      prompt: 'Implement Task 1',
      receivers: [CHILD],
    });
    expect(watch.read(collab('item.completed', 'spawn_agent', ROOT))).toBe(false);
  });

  it('a wait, a close, or a spawned thread’s step is no dispatch of the controller', () => {
    const watch = new DispatchWatch();
    watch.read(line({ type: 'thread.started', thread_id: ROOT }));
    expect(watch.read(collab('item.started', 'wait', ROOT))).toBe(false);
    expect(watch.read(collab('item.started', 'close_agent', ROOT))).toBe(false);
    expect(watch.read(collab('item.started', 'spawn_agent', CHILD))).toBe(false);
    expect(watch.seen).toBeUndefined();
    expect(watch.read(collab('item.started', 'send_input', ROOT))).toBe(true);
  });
});

function transcriptOf(calls: ToolCall[]): SessionTranscript {
  return {
    format: 'codex-rollout',
    files: ['rollout-root.jsonl'],
    toolCalls: calls,
    reply: undefined,
    model: 'scripted:skill-reader',
    models: ['scripted:skill-reader'],
    prompt: 'Continue',
    malformed: [],
    ending: { kind: 'indeterminate', stage: 'engine', reason: 'the rollout ends mid-turn' },
    controllerRecorded: true,
    seats: [
      {
        dispatch: 'call_spawn',
        agentId: CHILD,
        tool: 'Agent',
        subagentType: null,
        model: null,
        modelUsed: null,
        description: null,
        resumes: [],
        toolCalls: 0,
        source: 'recorded',
      },
    ],
    questions: undefined,
  };
}

describe('capturedFromRollout: the dispatch recorded as the claude-code capture records it', () => {
  const ls: ToolCall = {
    id: 'call_ls',
    name: 'Bash',
    input: { cmd: 'ls', command: 'ls' },
    parentToolUseId: null,
    output: 'a.txt',
    recordedAs: 'exec_command',
  };
  const spawn: ToolCall = {
    id: 'call_spawn',
    name: 'Agent',
    input: { message: 'Implement Task 1', prompt: 'Implement Task 1', model: 'scripted:x@opus' },
    parentToolUseId: null,
    output: '{"agent_id":"019a…","nickname":"Ampere"}',
    recordedAs: 'multi_agent_v1.spawn_agent',
  };
  const streamed = {
    itemId: 'item_3',
    tool: 'spawn_agent',
    prompt: 'Implement Task 1',
    receivers: [CHILD],
  };

  it('takes the rollout’s call (its full input), refuses it with the fixed result, drops the unserved seat', () => {
    const { captured, transcript } = capturedFromRollout(transcriptOf([ls, spawn]), streamed);
    expect(captured).toEqual({ toolUseId: 'call_spawn', tool: 'Agent', input: spawn.input });
    expect(transcript.toolCalls.map((call) => [call.name, call.output, call.isError])).toEqual([
      ['Bash', 'a.txt', undefined],
      ['Agent', DISPATCH_REFUSAL, true],
    ]);
    expect(transcript.seats).toEqual([]);
    // The dispatch verb's reading finds it as the first dispatch.
    expect(dispatchesOf(transcript.toolCalls).map((dispatch) => dispatch.prompt)).toEqual([
      'Implement Task 1',
    ]);
  });

  it('falls back to the stream’s item when the rollout holds no dispatch call', () => {
    const { captured, transcript } = capturedFromRollout(transcriptOf([ls]), {
      ...streamed,
      tool: 'send_input',
    });
    expect(captured.tool).toBe('SendMessage');
    expect(captured.input).toMatchObject({ to: CHILD, message: 'Implement Task 1' });
    expect(transcript.toolCalls.at(-1)?.output).toBe(DISPATCH_REFUSAL);
    // A resume refused by the capture still counts as the decision.
    expect(dispatchesOf(transcript.toolCalls)).toHaveLength(1);
  });
});

describe('a skill load on codex: a whole read of an installed SKILL.md', () => {
  const skills = '/x/private/codex-home/skills';
  const cwd = '/x/fixture';
  const bash = (command: string, extra: Record<string, unknown> = {}): ToolCall => ({
    id: 'call_1',
    name: 'Bash',
    input: { cmd: command, command, ...extra },
    parentToolUseId: null,
    output: '---\nname: test-first\n---\nWrite the test first.',
    recordedAs: 'exec_command',
  });

  it('is a Skill call, keeping the command Codex ran', () => {
    const loaded = asSkillLoad(bash(`cat -- '${skills}/test-first/SKILL.md'`), skills, cwd);
    expect(loaded).toMatchObject({
      name: 'Skill',
      input: { skill: 'test-first', command: `cat -- '${skills}/test-first/SKILL.md'` },
      recordedAs: 'exec_command',
      output: '---\nname: test-first\n---\nWrite the test first.',
    });
    expect(skillInvocations([loaded]).map((found) => [found.name, found.form])).toEqual([
      ['test-first', 'tool'],
    ]);
    expect(installedSkillRead(`cat -n ${skills}/test-first/SKILL.md`, skills, cwd)).toBe(
      'test-first',
    );
    expect(installedSkillRead(`cat ./test-first/../debugging/SKILL.md`, skills, skills)).toBe(
      'debugging',
    );
    // Relative to the call's workdir.
    expect(
      asSkillLoad(bash('cat brainstorm/SKILL.md', { workdir: skills }), skills, cwd).name,
    ).toBe('Skill');
  });

  it('a grep, an ls, a ranged read, a compound command or another SKILL.md is no load', () => {
    for (const command of [
      `grep -n test ${skills}/test-first/SKILL.md`,
      `ls ${skills}/test-first`,
      `ls ${skills}`,
      `head -5 ${skills}/test-first/SKILL.md`,
      `sed -n '1,20p' ${skills}/test-first/SKILL.md`,
      `cat ${skills}/test-first/SKILL.md | wc -l`,
      `cat ${skills}/test-first/SKILL.md > copy.md`,
      `cat ${skills}/test-first/SKILL.md ${skills}/debugging/SKILL.md`,
      `cat ${skills}/test-first/notes.md`,
      `cat ${skills}/test-first/SKILL.md.bak`,
      `cat ${cwd}/skills/test-first/SKILL.md`,
      `cat ${skills}/../skills-copy/test-first/SKILL.md`,
      // Roots Codex may list but where the arm installs nothing: bundled, repo and HOME skills.
      `cat -n ${skills}/.system/imagegen/SKILL.md`,
      `cat ${cwd}/.agents/skills/test-first/SKILL.md`,
      `cat .codex/skills/test-first/SKILL.md`,
      `cat /x/private/home/.agents/skills/test-first/SKILL.md`,
      `cat ${skills}/SKILL.md`,
      `cat ${skills}/test-first/sub/SKILL.md`,
      // Partial or diverted reads, and a cat beside another command.
      `cat ${skills}/test-first/SKILL.md | tee notes.md`,
      `cat ${skills}/test-first/SKILL.md | head -3`,
      `cat ${skills}/test-first/SKILL.md >> notes.md`,
      `cat ${skills}/test-first/SKILL.md 2>/dev/null`,
      `cat < ${skills}/test-first/SKILL.md`,
      `cat ${skills}/test-first/SKILL.md; rm -f notes.md`,
      `cat ${skills}/test-first/SKILL.md && echo done`,
      `tail -n +1 ${skills}/test-first/SKILL.md`,
      `cat`,
    ]) {
      const call = bash(command);
      expect(asSkillLoad(call, skills, cwd), command).toBe(call);
    }
  });
});

describe('stopProblem on codex: what a first-dispatch capture cannot stand for', () => {
  it('first-dispatch and a dispatch event stop run; other event stops and a scripted user are refused', () => {
    expect(stopProblem('codex', 'first-dispatch')).toBeUndefined();
    expect(stopProblem('codex', { at: { event: 'dispatch', seat: 'any' } })).toBeUndefined();
    expect(stopProblem('codex', { at: [{ event: 'skill', form: 'tool' }] })?.problem).toMatch(
      /other than a dispatch/,
    );
    expect(
      stopProblem('codex', { at: { event: 'dispatch', description: 'Task 1', seat: 'any' } }),
    ).toBeDefined();
    expect(stopProblem('codex', 'complete', true)?.problem).toMatch(/question tool/);
    expect(stopProblem('claude-code', { at: { event: 'write' } })).toBeUndefined();
  });
});

describe('spawnModelOf: a dispatch’s tier as Codex is asked for it', () => {
  it('is the session’s scripted id at that tier; none without a tier or on a live id', () => {
    expect(spawnModelOf('opus', 'scripted:skill-reader')).toBe('scripted:skill-reader@opus');
    expect(spawnModelOf('haiku', 'scripted:skill-reader@sonnet')).toBe(
      'scripted:skill-reader@haiku',
    );
    expect(spawnModelOf('scripted:other@opus', 'scripted:skill-reader')).toBe(
      'scripted:other@opus',
    );
    expect(spawnModelOf('', 'scripted:skill-reader')).toBeUndefined();
    expect(spawnModelOf('opus', 'gpt-5.5')).toBeUndefined();
    expect(spawnModelOf('opus', undefined)).toBeUndefined();
  });
});
