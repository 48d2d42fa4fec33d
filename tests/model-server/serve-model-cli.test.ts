/**
 * `redgreen serve-model` as a user runs it: the compiled CLI as a subprocess
 * that prints one line with its base URL, answers a plain `curl` POST, and
 * exits 0 on SIGTERM or SIGINT; bad flags are a one-line error and exit 2
 * before anything starts.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { cleanEnv, cliPath } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { campaignPrompt } from './support/prompt.js';

function launch(args: readonly string[]) {
  return execa(process.execPath, [cliPath, 'serve-model', ...args], {
    env: cleanEnv(),
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  });
}

type ServerProcess = ReturnType<typeof launch>;

/** Wait for the server's one startup line and return it. */
async function firstLine(child: ServerProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const newline = buffer.indexOf('\n');
      if (newline >= 0) resolve(buffer.slice(0, newline));
    });
    child.once('exit', () => reject(new Error(`server exited before printing its URL: ${buffer}`)));
  });
}

function curl(args: readonly string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile('curl', [...args], { encoding: 'utf8', timeout: 15_000 }, (error, stdout) => {
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout });
    });
  });
}

async function busyPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const address = blocker.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { port, release: () => new Promise((resolve) => blocker.close(() => resolve())) };
}

describe('redgreen serve-model', () => {
  it('prints its base URL, answers a plain curl POST, logs it, and exits 0 on SIGTERM', async () => {
    const logFile = path.join(makeTempDir(), 'requests.jsonl');
    const child = launch(['--policy', 'structural', '--log', logFile]);
    const line = await firstLine(child);
    const match =
      /^redgreen model server \(scripted:structural\) listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(
        line,
      );
    expect(match, line).not.toBeNull();
    const baseUrl = match?.[1] ?? '';

    const body = JSON.stringify({
      model: 'claude-sonnet-5-5',
      max_tokens: 256,
      tools: ['Read', 'Bash'].map((name) => ({ name, input_schema: { type: 'object' } })),
      messages: [{ role: 'user', content: campaignPrompt('/repo/widget', '/skills/sdd') }],
    });
    const answer = await curl([
      '-sS',
      '-X',
      'POST',
      `${baseUrl}/v1/messages`,
      '-H',
      'content-type: application/json',
      '-H',
      'x-api-key: sk-curl-test-key',
      '-d',
      body,
    ]);
    expect(answer.code).toBe(0);
    const message = JSON.parse(answer.stdout) as {
      model: string;
      content: { type: string; name?: string }[];
      redgreen: { usage: string };
    };
    expect(message.model).toBe('claude-sonnet-5-5');
    expect(message.content[0]).toMatchObject({ type: 'tool_use', name: 'Read' });
    expect(message.redgreen.usage).toBe('estimated');

    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(0);
    expect(String(result.stderr)).toBe('');
    const logged = readFileSync(logFile, 'utf8').trim().split('\n');
    expect(logged).toHaveLength(1);
    expect(logged[0]).not.toContain('sk-curl-test-key');
  });

  it('exits 0 on SIGINT too, with --seed, --port 0 and faults given', async () => {
    const child = launch([
      '--policy',
      'skill-reader',
      '--port',
      '0',
      '--seed',
      '3',
      '--fault',
      '429x1:retry-after=0',
      '--fault',
      'delay=5-20ms',
    ]);
    const line = await firstLine(child);
    const baseUrl = /(http:\/\/\S+)$/.exec(line)?.[1] ?? '';
    const limited = await curl([
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-X',
      'POST',
      `${baseUrl}/v1/messages`,
      '-H',
      'content-type: application/json',
      '-d',
      JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
    ]);
    expect(limited.stdout).toBe('429');
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(0);
  });

  it('reports a port already in use as a one-line input error, exit 2', async () => {
    const blocked = await busyPort();
    try {
      const result = await launch(['--policy', 'structural', '--port', String(blocked.port)]);
      expect(result.exitCode).toBe(2);
      const stderr = String(result.stderr).trim();
      expect(stderr.split('\n')).toHaveLength(1);
      expect(stderr).toContain(`--port ${blocked.port}: is already in use`);
    } finally {
      await blocked.release();
    }
  });

  it.each([
    [['--policy', 'oracle'], '--policy oracle: is not a scripted policy'],
    [['--policy', 'structural', '--port', 'eighty'], '--port eighty: is not a port number'],
    [['--policy', 'structural', '--port', '70000'], '--port 70000: is not a port number'],
    [['--policy', 'structural', '--fault', '418x2'], '--fault 418x2: not a fault spec'],
    [['--policy', 'structural', '--seed', ' '], '--seed: is empty'],
    [['--policy', 'structural', '--look-around', '2'], '--look-around 2: is not a probability'],
    [
      ['--policy', 'structural', '--log', '/nonexistent-redgreen-dir/requests.jsonl'],
      '--log /nonexistent-redgreen-dir/requests.jsonl: directory',
    ],
  ])('rejects %j with one line and exit 2', async (args, message) => {
    const result = await launch(args);
    expect(result.exitCode).toBe(2);
    const stderr = String(result.stderr).trim();
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toContain(message);
    expect(String(result.stdout)).toBe('');
  });

  it('requires --policy and rejects unknown flags (exit 2)', async () => {
    expect((await launch([])).exitCode).toBe(2);
    expect((await launch(['--policy', 'structural', '--colour', 'red'])).exitCode).toBe(2);
  });

  it('documents every policy and the fault syntax in --help', async () => {
    const result = await launch(['--help']);
    expect(result.exitCode).toBe(0);
    const help = String(result.stdout);
    for (const name of ['literal', 'forensic', 'structural', 'always-redo', 'skill-reader']) {
      expect(help).toContain(name);
    }
    expect(help).toContain('drop@2');
    expect(help).toContain('estimates');
  });
});
