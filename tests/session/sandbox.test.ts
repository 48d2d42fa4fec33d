import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  detectSandbox,
  handOverToSandbox,
  runConfined,
  type Sandbox,
  UNPRIVILEGED_USER,
} from '../../harness/sandbox/sandbox.js';
import { shellQuote, writeShellPrefix } from '../../harness/session/shell-prefix.js';
import { executeTool, type ToolContext } from '../../harness/session/tools/index.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let listener: Server;
let port = 0;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await detectSandbox();
  listener = createServer((socket) => socket.end('hello from the host\n'));
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
});

afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
});

const callerHome = os.homedir();
const secretInHome = path.join(callerHome, `.redgreen-sandbox-probe-${process.pid}`);

/** A fixture (the sandbox's to write, as the rep runner hands it over), a skill and a dir outside both. */
async function layout(
  owner: Sandbox = sandbox,
): Promise<{ fixture: string; skill: string; outside: string }> {
  const root = makeTempDir();
  const fixture = path.join(root, 'repo');
  const skill = path.join(root, 'skill');
  const outside = path.join(root, 'outside');
  for (const dir of [fixture, skill, outside]) mkdirSync(dir);
  writeFileSync(path.join(skill, 'SKILL.md'), 'the skill\n');
  await handOverToSandbox(owner, fixture);
  return { fixture, skill, outside };
}

function context(dirs: { fixture: string; skill: string }, kind: Sandbox = sandbox): ToolContext {
  return {
    sandbox: kind,
    fixtureDir: dirs.fixture,
    readOnlyDirs: [dirs.skill],
    fallbackHome: dirs.fixture,
    timeoutMs: 10_000,
    maxOutputBytes: 10_000,
  };
}

const netProbe = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && head -n1 <&3 || echo NO-NETWORK`;

describe('the messages backend sandbox (bubblewrap where the machine allows)', () => {
  it('uses bubblewrap on this machine (CI installs it)', () => {
    expect(sandbox.kind).toBe('bubblewrap');
  });

  it('lets a command write in the fixture and read the skill', async () => {
    const dirs = await layout();
    const out = await executeTool(
      'Bash',
      { command: 'echo made > made.txt && cat ../skill/SKILL.md' },
      context(dirs),
    );
    expect(out.isError).toBe(false);
    expect(out.content).toContain('the skill');
    expect(readFileSync(path.join(dirs.fixture, 'made.txt'), 'utf8')).toBe('made\n');
  });

  it('refuses writes outside the fixture, including into the skill', async () => {
    const dirs = await layout();
    const target = path.join(dirs.outside, 'escaped.txt');
    const out = await executeTool(
      'Bash',
      { command: `echo x > ${target}; echo y > ${dirs.skill}/SKILL.md` },
      context(dirs),
    );
    expect(out.isError).toBe(true);
    expect(existsSync(target)).toBe(false);
    expect(readFileSync(path.join(dirs.skill, 'SKILL.md'), 'utf8')).toBe('the skill\n');
  });

  it("refuses reads of the caller's HOME", async () => {
    writeFileSync(secretInHome, 'caller secret\n');
    try {
      const dirs = await layout();
      const bash = await executeTool('Bash', { command: `cat ${secretInHome}` }, context(dirs));
      expect(bash.content).not.toContain('caller secret');
      const read = await executeTool('Read', { file_path: secretInHome }, context(dirs));
      expect(read.isError).toBe(true);
      expect(read.content).toMatch(/outside this session's sandbox/);
      const grep = await executeTool(
        'Grep',
        { pattern: 'caller', path: callerHome },
        context(dirs),
      );
      expect(grep.isError).toBe(true);
    } finally {
      await execa('rm', ['-f', secretInHome]);
    }
  });

  it('refuses network access', async () => {
    const out = await executeTool('Bash', { command: netProbe() }, context(await layout()));
    expect(out.content).toContain('NO-NETWORK');
    expect(out.content).not.toContain('hello from the host');
  });

  it('planted negative: the unconfined fallback does reach the network and the outside', async () => {
    const dirs = await layout();
    const fallback: Sandbox = { kind: 'process', description: 'test' };
    const net = await executeTool('Bash', { command: netProbe() }, context(dirs, fallback));
    expect(net.content).toContain('hello from the host');
    await executeTool(
      'Bash',
      { command: `echo x > ${dirs.outside}/escaped.txt` },
      context(dirs, fallback),
    );
    expect(existsSync(path.join(dirs.outside, 'escaped.txt'))).toBe(true);
  });

  it('the fallback started by root runs its commands as nobody, with no capabilities and no way to gain privileges', async (test) => {
    if (process.getuid?.() !== 0) {
      console.log('skipped: only a redgreen started by root runs the fallback as another user');
      test.skip();
    }
    const asNobody: Sandbox = { kind: 'process', description: 'test', hostUser: UNPRIVILEGED_USER };
    const dirs = await layout(asNobody);
    const out = await executeTool(
      'Bash',
      {
        command: `id -u; grep -E '^(CapEff|CapBnd|CapAmb|NoNewPrivs)' /proc/self/status; echo x > ${dirs.outside}/escaped.txt || echo REFUSED; echo ok > inside.txt`,
      },
      { ...context(dirs, asNobody), fallbackHome: path.join(dirs.outside, 'home') },
    );
    expect(out.content).toMatch(/^65534$/m);
    expect(out.content).toMatch(/^CapEff:\s+0+$/m);
    expect(out.content).toMatch(/^CapBnd:\s+0+$/m);
    expect(out.content).toMatch(/^CapAmb:\s+0+$/m);
    expect(out.content).toMatch(/^NoNewPrivs:\s+1$/m);
    expect(out.content).toContain('REFUSED');
    expect(existsSync(path.join(dirs.outside, 'escaped.txt'))).toBe(false);
    expect(readFileSync(path.join(dirs.fixture, 'inside.txt'), 'utf8')).toBe('ok\n');
  });

  it('gives commands a scrubbed environment with no API key, even in the fallback', async () => {
    process.env.ANTHROPIC_API_KEY = 'sk-ant-sandbox-canary-abcdef';
    try {
      for (const kind of [sandbox, { kind: 'process', description: 'test' } as Sandbox]) {
        const out = await executeTool('Bash', { command: 'env' }, context(await layout(), kind));
        expect(out.content).toContain('PATH=');
        expect(out.content).not.toContain('sandbox-canary');
      }
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
    }
  });

  it('keeps the host’s system git config out of commands (GIT_CONFIG_NOSYSTEM)', async () => {
    let last = '';
    for (const kind of [sandbox, { kind: 'process', description: 'test' } as Sandbox]) {
      // Each sandbox's own fixture: the unconfined fallback runs as the caller, bubblewrap perhaps not.
      const dirs = await layout(kind);
      execFileSync('git', ['init', '-q', dirs.fixture], { env: { PATH: process.env.PATH ?? '' } });
      await handOverToSandbox(kind, dirs.fixture);
      last = dirs.fixture;
      const out = await executeTool(
        'Bash',
        { command: 'git config -l --show-origin; echo "NOSYSTEM=$GIT_CONFIG_NOSYSTEM"' },
        context(dirs, kind),
      );
      expect(out.content).toContain('NOSYSTEM=1');
      expect(out.content).toContain('core.repositoryformatversion');
      expect(out.content).not.toContain('file:/etc/gitconfig');
    }
    // Planted negative, where the host has a system config: without the variable git reads it.
    const system = existsSync('/etc/gitconfig') ? readFileSync('/etc/gitconfig', 'utf8') : '';
    if (/^\s*\[/m.test(system)) {
      const plain = execFileSync('git', ['config', '-l', '--show-origin'], {
        cwd: last,
        env: { PATH: process.env.PATH ?? '', HOME: last },
        encoding: 'utf8',
      });
      expect(plain).toContain('file:/etc/gitconfig');
    } else {
      console.log('system git config planted negative skipped: this host has no /etc/gitconfig');
    }
  });

  it('holds every command to its process, file-size and memory limits, bubblewrap and fallback alike', async () => {
    const limits = { processes: 40, fileSizeBytes: 1024 * 1024, memoryBytes: 256 * 1024 * 1024 };
    const node = process.execPath;
    const forks = `const { spawn } = require('node:child_process'); let started = 0, refused = 0;
for (let i = 0; i < 80; i += 1) { const child = spawn('sleep', ['3'], { stdio: 'ignore' }); child.on('spawn', () => { started += 1; }); child.on('error', () => { refused += 1; }); }
setTimeout(() => { console.log('started=' + started + ' refused=' + refused); process.exit(0); }, 300);`;
    const probe = [
      'head -c 2000000 /dev/zero > big 2>/dev/null; echo "big=$(stat -c %s big)"',
      `${node} -e 'Buffer.alloc(512 * 1024 * 1024, 1); console.log("allocated")' >/dev/null 2>&1 || echo "allocation refused"`,
      `${node} -e ${shellQuote(forks)}`,
    ].join('; ');
    for (const kind of [sandbox, { kind: 'process', description: 'test' } as Sandbox]) {
      const dirs = await layout(kind);
      const out = await runConfined(kind, {
        argv: ['/bin/bash', '-c', probe],
        fixtureDir: dirs.fixture,
        readOnlyDirs: [],
        fallbackHome: dirs.fixture,
        timeoutMs: 20_000,
        maxOutputBytes: 10_000,
        limits,
      });
      expect(out.output, kind.kind).toContain(`big=${limits.fileSizeBytes}`);
      expect(out.output, kind.kind).toContain('allocation refused');
      // Root outside any user namespace is exempt from the process limit (the fallback as root).
      if (kind.kind === 'bubblewrap' || process.getuid?.() !== 0) {
        const started = Number(/started=(\d+)/.exec(out.output)?.[1]);
        expect(started, out.output).toBeLessThan(limits.processes);
        expect(out.output, kind.kind).not.toContain('refused=0');
      }
    }
  });

  it('caps output and times out commands', async () => {
    const dirs = await layout();
    const big = await executeTool(
      'Bash',
      { command: 'head -c 50000 /dev/zero | tr "\\0" a' },
      context(dirs),
    );
    expect(big.content).toContain('[output truncated');
    const slow = await runConfined(sandbox, {
      argv: ['sleep', '30'],
      fixtureDir: dirs.fixture,
      readOnlyDirs: [],
      fallbackHome: dirs.fixture,
      timeoutMs: 500,
      maxOutputBytes: 1000,
    });
    expect(slow.timedOut).toBe(true);
  });
});

describe("the Claude Code backend's shell prefix (every Bash command runs through it)", () => {
  async function runThroughPrefix(
    command: string,
    dirs: { fixture: string; skill: string },
  ): Promise<string> {
    const privateDir = makeTempDir();
    const home = path.join(privateDir, 'home');
    const tmp = path.join(privateDir, 'tmp');
    mkdirSync(home);
    mkdirSync(tmp);
    const script = path.join(privateDir, 'confined-shell');
    await writeShellPrefix(script, {
      sandbox,
      fixtureDir: dirs.fixture,
      skillDir: dirs.skill,
      home,
      tmp,
    });
    const result = await execa(script, [command], {
      cwd: dirs.fixture,
      env: { PATH: '/usr/bin:/bin', ANTHROPIC_API_KEY: 'sk-ant-prefix-canary-123456' },
      extendEnv: false,
      reject: false,
    });
    return `${String(result.stdout)}\n${String(result.stderr)}`;
  }

  it('clears the environment, confines writes and reads, and has no network', async () => {
    const dirs = await layout();
    writeFileSync(secretInHome, 'caller secret\n');
    try {
      const output = await runThroughPrefix(
        `env; for p in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$p"; done 2>/dev/null; echo ok > inside.txt; echo x > ${dirs.outside}/escaped.txt; cat ${secretInHome}; ${netProbe()}`,
        dirs,
      );
      expect(output).toContain('PATH=');
      // Not in the command's environment, nor in any process it can see (bubblewrap itself is PID 1).
      expect(output).not.toContain('prefix-canary');
      expect(output).not.toContain('caller secret');
      expect(output).toContain('NO-NETWORK');
      expect(existsSync(path.join(dirs.fixture, 'inside.txt'))).toBe(true);
      expect(existsSync(path.join(dirs.outside, 'escaped.txt'))).toBe(false);
    } finally {
      await execa('rm', ['-f', secretInHome]);
    }
  });
});

describe('reading a repository after its session', () => {
  async function repoWithFsmonitor(marker: string): Promise<string> {
    const repo = makeTempDir();
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: repo,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
    };
    await execa('git', ['init', '-q', repo], { env, extendEnv: false });
    writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    await execa('git', ['-C', repo, 'add', 'a.txt'], { env, extendEnv: false });
    const hook = path.join(repo, 'monitor.sh');
    writeFileSync(hook, `#!/bin/sh\necho "ran with key=$ANTHROPIC_API_KEY" > ${marker}\nexit 1\n`, {
      mode: 0o755,
    });
    await execa('git', ['-C', repo, 'config', 'core.fsmonitor', hook], { env, extendEnv: false });
    return repo;
  }

  it("planted negative: plain git runs a program the repository's config names", async () => {
    const marker = path.join(makeTempDir(), 'ran');
    const repo = await repoWithFsmonitor(marker);
    await execa('git', ['-C', repo, 'ls-files'], {
      env: { PATH: process.env.PATH ?? '', HOME: repo, GIT_CONFIG_NOSYSTEM: '1' },
      extendEnv: false,
      reject: false,
    });
    expect(existsSync(marker)).toBe(true);
  });

  it("the snapshot after a session switches the repository's programs off", async () => {
    const { takeSnapshot } = await import('../../harness/fixture/index.js');
    const marker = path.join(makeTempDir(), 'ran');
    const repo = await repoWithFsmonitor(marker);
    const snapshot = await takeSnapshot(repo);
    expect(snapshot.files['a.txt']?.tracked).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });

  it('whatever program git might still run after a session is confined: no key, no host writes', async () => {
    const { confinedGitRunner } = await import('../../harness/session/confined-git.js');
    const repo = await repoWithFsmonitor(path.join(makeTempDir(), 'unused'));
    const hostMarker = path.join(makeTempDir(), 'escaped');
    // A git alias runs a shell command: the strongest thing a repository's config can do.
    const probe = [
      '-c',
      `alias.probe=!env; for p in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$p"; done 2>/dev/null; touch ${hostMarker}; echo done`,
      'probe',
    ];
    process.env.ANTHROPIC_API_KEY = 'sk-ant-snapshot-canary-123456';
    try {
      const confined = await confinedGitRunner(sandbox)(repo, probe);
      expect(confined.stdout.toString()).toContain('PATH=');
      expect(confined.stdout.toString()).not.toContain('snapshot-canary');
      expect(existsSync(hostMarker)).toBe(false);
      // Planted negative: without bubblewrap the same program writes on the host.
      await confinedGitRunner({ kind: 'process', description: 'test' })(repo, probe);
      expect(existsSync(hostMarker)).toBe(true);
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
    }
  });

  it("the Read tool numbers the lines of a file in the sandbox roots and stops at a large file's first 4 MB", async () => {
    const dirs = await layout();
    writeFileSync(path.join(dirs.fixture, 'two.txt'), 'first\nsecond\n');
    const small = await executeTool(
      'Read',
      { file_path: path.join(dirs.fixture, 'two.txt') },
      context(dirs),
    );
    expect(small).toEqual({ content: '     1\tfirst\n     2\tsecond', isError: false });
    const skill = await executeTool(
      'Read',
      { file_path: path.join(dirs.skill, 'SKILL.md') },
      context(dirs),
    );
    expect(skill.content).toContain('the skill');
    writeFileSync(path.join(dirs.fixture, 'big.txt'), `${'x'.repeat(99)}\n`.repeat(60_000));
    const big = await executeTool(
      'Read',
      { file_path: path.join(dirs.fixture, 'big.txt'), limit: 100_000 },
      {
        ...context(dirs),
        maxOutputBytes: 10_000_000,
      },
    );
    expect(big.isError).toBe(false);
    const lines = big.content.split('\n').filter((line) => /^\s+\d+\t/.test(line));
    expect(lines.length).toBeGreaterThan(40_000);
    expect(lines.length).toBeLessThanOrEqual((4 * 1024 * 1024) / 100 + 1);
  });

  it('the messages backend refuses to Read a pipe instead of hanging', async () => {
    const dirs = await layout();
    const fifo = path.join(dirs.fixture, 'pipe');
    await execa('mkfifo', [fifo]);
    const out = await executeTool('Read', { file_path: fifo }, context(dirs));
    expect(out.isError).toBe(true);
    expect(out.content).toMatch(/not a regular file/);
  });

  it('a tool call that outlives its timeout returns an error instead of blocking the session', async () => {
    const dirs = await layout();
    const out = await executeTool(
      'Bash',
      { command: 'sleep 30' },
      { ...context(dirs), timeoutMs: 300 },
    );
    expect(out.isError).toBe(true);
  });
});
