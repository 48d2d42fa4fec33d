/**
 * The model server's Responses-API face (`POST /v1/responses`), driven over
 * HTTP the way Codex CLI drives it: the request's input read into the
 * policies' view (shell outputs with their exit codes, a spawn answered by
 * the face's own wait, the wait's result as the Agent result), requests a
 * policy must not answer (a compaction), refusals (a malformed body, the code
 * mode surface, a history the policy did not write), and the server's faults
 * in this API's shapes. The real binary runs in codex-engine.test.ts.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FaultRuleInput,
  type ModelServer,
  startModelServer,
} from '../../harness/model-server/index.js';
import { loadPolicyFile } from '../../harness/model-server/load-policy.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const policy = `steps:
  - tool: Bash
    id: listing
    input:
      command: ls
      description: list
  - branch:
      - when: { failed: listing }
        steps:
          - reply: "ls failed: {{listing}}"
  - tool: Agent
    id: child
    input:
      description: helper
      prompt: "Help with {{listing}}"
      subagent_type: general-purpose
  - reply: "Listed: {{listing}}; child said: {{child}}"
`;

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(faults: readonly FaultRuleInput[] = []): Promise<ModelServer> {
  const file = path.join(makeTempDir(), 'probe.yaml');
  writeFileSync(file, policy);
  const loaded = await loadPolicyFile(file, 'probe');
  if (!loaded.ok) throw new Error(loaded.error.problem);
  server = await startModelServer({
    policy: 'probe',
    brains: new Map([['probe', loaded.value.brain]]),
    faults,
  });
  return server;
}

const codexTools = [
  { type: 'function', name: 'exec_command', parameters: {} },
  {
    type: 'namespace',
    name: 'multi_agent_v1',
    tools: [{ name: 'spawn_agent' }, { name: 'wait_agent' }, { name: 'send_input' }],
  },
];

const context = [
  {
    type: 'message',
    role: 'developer',
    content: [{ type: 'input_text', text: 'You are a coding agent.' }],
  },
  {
    type: 'message',
    role: 'user',
    content: [
      {
        type: 'input_text',
        text: '<environment_context>\n  <cwd>/work/repo</cwd>\n</environment_context>',
      },
    ],
  },
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List the files.' }] },
];

const headers = {
  'content-type': 'application/json',
  accept: 'text/event-stream',
  'session-id': 'sess-1',
  'thread-id': 'thread-1',
};

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly events: readonly Record<string, unknown>[];
  readonly json: Record<string, unknown> | undefined;
  /** The connection closed before the body ended. */
  readonly cut: boolean;
}

async function post(
  body: Record<string, unknown>,
  extraHeaders: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${server?.baseUrl}/v1/responses`, {
    method: 'POST',
    headers: { ...headers, ...extraHeaders },
    body: JSON.stringify({ model: 'scripted:probe', stream: true, tools: codexTools, ...body }),
  });
  let cut = false;
  const text = await response.text().catch(() => {
    cut = true;
    return '';
  });
  const isStream = response.headers.get('content-type')?.startsWith('text/event-stream') === true;
  return {
    status: response.status,
    headers: response.headers,
    events: isStream
      ? text
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .flatMap((line) => {
            try {
              return [JSON.parse(line.slice('data: '.length)) as Record<string, unknown>];
            } catch {
              return [{ type: 'unparsable' }];
            }
          })
      : [],
    json: isStream || text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
    cut,
  };
}

type Item = Record<string, unknown> & { call_id: string; name: string; arguments: string };

function doneItems(answer: Answer): Item[] {
  return answer.events
    .filter((event) => event.type === 'response.output_item.done')
    .map((event) => event.item as Item);
}

function shellOutput(code: number, output: string): string {
  return `Chunk ID: 1a2b3c\nWall time: 0.0010 seconds\nProcess exited with code ${code}\nOriginal token count: 3\nOutput:\n${output}`;
}

/** The first turn's exec_command call, and the history that answers it. */
async function firstTurn(
  code: number,
  output: string,
): Promise<{ call: Item; history: unknown[] }> {
  const answer = await post({ input: context });
  const [call] = doneItems(answer);
  if (call === undefined) throw new Error('no call');
  return {
    call,
    history: [
      ...context,
      call,
      { type: 'function_call_output', call_id: call.call_id, output: shellOutput(code, output) },
    ],
  };
}

function replyText(answer: Answer): string {
  const [item] = doneItems(answer);
  const content = (item?.content ?? []) as { text: string }[];
  return content.map((part) => part.text).join('');
}

describe('the Responses face answers a Codex conversation', () => {
  it('Codex’s instructions message, with a global AGENTS.md only, is the engine’s context: the policy reads the working directory', async () => {
    const file = path.join(makeTempDir(), 'cwd.yaml');
    writeFileSync(
      file,
      'steps:\n  - tool: Bash\n    input:\n      command: "ls {{cwd}}"\n  - reply: done\n',
    );
    const loaded = await loadPolicyFile(file, 'probe');
    if (!loaded.ok) throw new Error(loaded.error.problem);
    server = await startModelServer({
      policy: 'probe',
      brains: new Map([['probe', loaded.value.brain]]),
    });
    const instructions = {
      type: 'message',
      role: 'user',
      content: [
        // Codex 0.169's header when only $CODEX_HOME/AGENTS.md is given (no project's: no "for <cwd>").
        {
          type: 'input_text',
          text: '# AGENTS.md instructions\n\n<INSTRUCTIONS>\nBe brief.\n</INSTRUCTIONS>',
        },
        {
          type: 'input_text',
          text: '<environment_context>\n  <cwd>/work/repo</cwd>\n</environment_context>',
        },
      ],
    };
    const answer = await post({ input: [context[0], instructions, context[2]] });
    expect(answer.status).toBe(200);
    expect(doneItems(answer)[0]?.arguments).toBe('{"cmd":"ls /work/repo"}');
    // Planted: without the environment context the session was sent no working directory.
    const without = await post({
      input: [
        context[0],
        { ...instructions, content: instructions.content.slice(0, 1) },
        context[2],
      ],
    });
    expect(without.status).toBe(400);
  });

  it('a policy Bash call is an exec_command whose call id carries the policy call; the stream ends with response.completed', async () => {
    await serve();
    const answer = await post({ input: context });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-redgreen-policy')).toBe('scripted:probe');
    expect(answer.events.map((event) => event.type)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    const [call] = doneItems(answer);
    expect(call).toMatchObject({
      type: 'function_call',
      name: 'exec_command',
      arguments: '{"cmd":"ls"}',
    });
    expect(call?.call_id).toMatch(/^toolu_rg\w+_0of1_Bash$/);
    const completed = answer.events.at(-1)?.response as { usage: { input_tokens: number } };
    expect(completed.usage.input_tokens).toBeGreaterThan(0);
  });

  it('the shell output reaches the policy without Codex’s header; a non-zero exit is a failed call', async () => {
    await serve();
    const failed = await firstTurn(2, 'ls: cannot open');
    expect(replyText(await post({ input: failed.history }))).toBe('ls failed: ls: cannot open');
    const spawned = await firstTurn(0, 'a.txt');
    const spawn = doneItems(await post({ input: spawned.history }));
    expect(spawn.map((item) => [item.namespace, item.name, item.arguments])).toEqual([
      ['multi_agent_v1', 'spawn_agent', '{"message":"Help with a.txt"}'],
    ]);
  });

  it('an Agent call is a spawn, then a wait the face asks for itself; the wait’s result is the Agent result', async () => {
    await serve();
    const { history } = await firstTurn(0, 'a.txt');
    const [spawn] = doneItems(await post({ input: history }));
    if (spawn === undefined) throw new Error('no spawn');
    const spawned = [
      ...history,
      spawn,
      {
        type: 'function_call_output',
        call_id: spawn.call_id,
        output: '{"agent_id":"agent-7","nickname":"Ampere"}',
      },
    ];
    const waitAnswer = await post({ input: spawned });
    expect(waitAnswer.headers.get('x-redgreen-policy')).toBe('redgreen:tool-map');
    const [wait] = doneItems(waitAnswer);
    expect(wait).toMatchObject({ name: 'wait_agent', namespace: 'multi_agent_v1' });
    expect(JSON.parse(wait?.arguments ?? '{}')).toMatchObject({ targets: ['agent-7'] });
    const finished = await post({
      input: [
        ...spawned,
        wait,
        {
          type: 'function_call_output',
          call_id: wait?.call_id,
          output: '{"status":{"agent-7":{"completed":"CHILD DONE"}},"timed_out":false}',
        },
      ],
    });
    expect(replyText(finished)).toMatch(
      /^Listed: a\.txt; child said: CHILD DONE\n\nagentId: agent-7 /,
    );
  });

  it('a compaction request is answered with a summary, not by the policy', async () => {
    await serve();
    const { history } = await firstTurn(0, 'a.txt');
    const answer = await post(
      { input: history, tools: [] },
      {
        'x-codex-turn-metadata': JSON.stringify({
          request_kind: 'compaction',
          session_id: 'sess-1',
        }),
      },
    );
    expect(answer.headers.get('x-redgreen-policy')).toBe('redgreen:compaction');
    expect(replyText(answer)).toMatch(/^Summary of the session so far/);
  });

  it('without stream: the response object as JSON', async () => {
    await serve();
    const answer = await post({ input: context, stream: false });
    expect(answer.json).toMatchObject({ object: 'response', status: 'completed' });
    expect((answer.json?.output as Item[] | undefined)?.[0]?.name).toBe('exec_command');
  });
});

describe('what the Responses face refuses', () => {
  it('a body that is not a Responses request: 400 in the OpenAI error shape', async () => {
    await serve();
    const answer = await post({ input: [{ type: 'function_call', name: 'x' }] });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: { type: 'invalid_request_error' } });
  });

  it('the code mode surface (tools only inside additional_tools)', async () => {
    await serve();
    const answer = await post({
      input: [{ type: 'additional_tools', role: 'developer', tools: [] }, ...context],
      tools: undefined,
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.json)).toMatch(/code mode/);
  });

  it('a history the policy did not write, and a call without its output', async () => {
    await serve();
    const foreign = await post({
      input: [
        ...context,
        {
          type: 'function_call',
          call_id: 'call_other',
          name: 'exec_command',
          arguments: '{"cmd":"pwd"}',
        },
        { type: 'function_call_output', call_id: 'call_other', output: shellOutput(0, '/') },
      ],
    });
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(foreign.json)).toMatch(/is not the one scripted:probe asks for/);
    const { call } = await firstTurn(0, 'a.txt');
    const unanswered = await post({ input: [...context, call] });
    expect(unanswered.status).toBe(400);
    expect(JSON.stringify(unanswered.json)).toMatch(/has no output/);
  });
});

describe('faults on the Responses face', () => {
  it('a status fault: the status with an OpenAI error body and retry-after, then the turn answers', async () => {
    await serve([{ kind: 'status', status: 500, times: 1, retryAfterSeconds: 0 }]);
    const failed = await post({ input: context });
    expect(failed.status).toBe(500);
    expect(failed.headers.get('retry-after')).toBe('0');
    expect(failed.json).toMatchObject({ error: { type: 'api_error' } });
    expect((await post({ input: context })).status).toBe(200);
  });

  it('a dropped stream and a truncated one never reach response.completed; a malformed one carries a bad event', async () => {
    await serve([
      { kind: 'drop', times: 1 },
      { kind: 'truncated', times: 1 },
      { kind: 'malformed', times: 1 },
    ]);
    const dropped = await post({ input: context });
    expect(dropped.status).toBe(200);
    expect(dropped.cut).toBe(true);
    const truncated = await post({ input: context });
    expect(truncated.cut).toBe(false);
    expect(truncated.events.map((event) => event.type)).not.toContain('response.completed');
    expect(truncated.events.length).toBeGreaterThan(1);
    const malformed = await post({ input: context });
    expect(malformed.events.map((event) => event.type)).toContain('unparsable');
    expect((await post({ input: context })).events.at(-1)?.type).toBe('response.completed');
  });
});

describe('skills on the Responses face', () => {
  const skillsNote = [
    '<skills_instructions>',
    '### Skill roots',
    '- `r0` = `/work/repo/.agents/skills`',
    '### Available skills',
    '- demo-notes: Use when counting the notes of a repository (file: r0/demo-notes/SKILL.md)',
    '</skills_instructions>',
  ].join('\n');
  const withSkills = [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: skillsNote }] },
    ...context.slice(1, 2),
    {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'Count the notes of this repository, please.' }],
    },
  ];

  it('Codex’s listed skills are the Skill tool’s; a Skill call reads the SKILL.md and loads its text after the front matter', async () => {
    server = await startModelServer({ policy: 'skill-trigger' });
    const first = await post({ model: 'scripted:skill-trigger', input: withSkills });
    const [call] = doneItems(first);
    expect(call?.call_id).toMatch(/_0of1_Skill$/);
    expect(JSON.parse(call?.arguments ?? '{}')).toEqual({
      cmd: 'cat -- /work/repo/.agents/skills/demo-notes/SKILL.md',
    });
    const second = await post({
      model: 'scripted:skill-trigger',
      input: [
        ...withSkills,
        call,
        {
          type: 'function_call_output',
          call_id: call?.call_id,
          output: shellOutput(0, '---\nname: demo-notes\n---\n\n# Demo\n\nAlways count lines.\n'),
        },
      ],
    });
    // The brain went on from the loaded text: a question answered from the README.
    expect(JSON.parse(doneItems(second)[0]?.arguments ?? '{}')).toEqual({
      cmd: 'cat -n -- /work/repo/README.md',
    });
  });

  it('without a listed skill there is no Skill tool: the trigger brain invokes nothing', async () => {
    server = await startModelServer({ policy: 'skill-trigger' });
    const answer = await post({
      model: 'scripted:skill-trigger',
      input: [context[1], withSkills[2]],
    });
    expect(doneItems(answer).map((item) => item.arguments)).not.toContainEqual(
      expect.stringContaining('SKILL.md'),
    );
  });
});

describe('the record of the calls the face issued', () => {
  async function issued(session: string): Promise<{ status: number; body: unknown }> {
    const response = await fetch(
      `${server?.baseUrl}/v1/redgreen/issued-calls?session=${encodeURIComponent(session)}`,
    );
    return { status: response.status, body: await response.json() };
  }

  it('holds each call by session and thread as sent; a fault issued nothing (planted negative)', async () => {
    await serve([{ kind: 'status', status: 500, times: 1, retryAfterSeconds: 0 }]);
    expect((await post({ input: context })).status).toBe(500);
    expect((await issued('sess-1')).body).toEqual({ session: 'sess-1', threads: [] });
    const [call] = doneItems(await post({ input: context }));
    await post({ input: context }, { 'thread-id': 'thread-2' });
    const record = await issued('sess-1');
    expect(record.status).toBe(200);
    expect(record.body).toEqual({
      session: 'sess-1',
      threads: [
        {
          thread: 'thread-1',
          calls: [{ call_id: call?.call_id, name: 'exec_command', arguments: '{"cmd":"ls"}' }],
        },
        {
          thread: 'thread-2',
          calls: [{ call_id: call?.call_id, name: 'exec_command', arguments: '{"cmd":"ls"}' }],
        },
      ],
    });
    expect((await issued('another')).body).toEqual({ session: 'another', threads: [] });
    const bare = await fetch(`${server?.baseUrl}/v1/redgreen/issued-calls`);
    expect(bare.status).toBe(400);
  });

  it("keeps a session's calls under its record token: another token neither reads nor adds to them (planted negative)", async () => {
    await serve();
    const page = async (token: string) =>
      (
        await fetch(
          `${server?.baseUrl}/v1/redgreen/issued-calls?session=sess-1&token=${encodeURIComponent(token)}`,
        )
      ).json();
    const [call] = doneItems(await post({ input: context }, { 'x-redgreen-record': 'secret-a' }));
    const own = {
      session: 'sess-1',
      threads: [
        {
          thread: 'thread-1',
          calls: [{ call_id: call?.call_id, name: 'exec_command', arguments: '{"cmd":"ls"}' }],
        },
      ],
    };
    expect(await page('secret-a')).toEqual(own);
    // Without the token (or with a guess) the session's calls are not there to read.
    expect(await page('')).toEqual({ session: 'sess-1', threads: [] });
    expect(await page('guess')).toEqual({ session: 'sess-1', threads: [] });
    // A request under the same session key and thread with another token fills another page.
    await post({ input: context }, { 'x-redgreen-record': 'forger', 'thread-id': 'thread-9' });
    await post({ input: context }, { 'thread-id': 'thread-9' });
    expect(await page('secret-a')).toEqual(own);
    expect(((await page('forger')) as { threads: unknown[] }).threads).toHaveLength(1);
  });
});
