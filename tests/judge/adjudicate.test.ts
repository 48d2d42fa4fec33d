/**
 * `redgreen adjudicate` through the real CLI: from a decisions file (no
 * terminal), and through a real terminal (tmux), on a run whose contrarian
 * judge disagrees with the checks on two reps and on a run whose reps are
 * all indeterminate. Decisions land in overrides.json one at a time, with who
 * and when; a walk-through resumes where it stopped; bad input, a directory
 * it cannot write and one a live process holds are refused.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, runCampaignCli, writeCampaign } from '../campaign/support.js';
import { cleanEnv, cliPath, repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { runInTerminal, type Terminal, tmuxAvailable } from '../helpers/terminal.js';

type Overrides = Record<string, { verdict: string; reason: string; by?: string; at?: string }>;

function sharedOut(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'redgreen-adjudicate-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'out');
}

/** A copy of a results directory, so each test starts from the same run. */
function copyOf(out: string): string {
  const copy = path.join(makeTempDir(), 'out');
  const done = spawnSync('cp', ['-a', out, copy]);
  expect(done.status).toBe(0);
  return copy;
}

function decisions(content: unknown): string {
  const file = path.join(makeTempDir(), 'decisions.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const overridesOf = (out: string): Overrides =>
  existsSync(path.join(out, 'overrides.json'))
    ? readJson<Overrides>(path.join(out, 'overrides.json'))
    : {};

/** Two disagreements (green/s1-rep3, green/s2-rep2) from the seeded contrarian judge. */
const disputed = sharedOut();
/** Every rep stopped at the turn limit: four indeterminate reps, judged unsure. */
const stopped = sharedOut();

beforeAll(async () => {
  const [run, cut] = await Promise.all([
    runCampaignCli([
      writeCampaign({ reps: 3, backend: 'messages', gates: [] }),
      '--judge-model',
      'scripted:judge-contrarian',
      '--out',
      disputed,
      '--quiet',
    ]),
    runCampaignCli([
      writeCampaign({ reps: 1, backend: 'messages', gates: [] }),
      '--max-turns',
      '1',
      '--judge',
      '--out',
      stopped,
      '--quiet',
    ]),
  ]);
  expect(run.exitCode, run.stderr).toBe(0);
  expect(cut.exitCode, cut.stderr).toBe(0);
  const results = readJson<{ judge: { disagreements: { rep_id: string }[] } }>(
    path.join(disputed, 'results.json'),
  );
  expect(results.judge.disagreements.map((row) => row.rep_id)).toEqual([
    'green/s1-rep3',
    'green/s2-rep2',
  ]);
});

describe('adjudicate from a decisions file', () => {
  it('settles the reps it names, skips the rest, and resumes with what is left', async () => {
    const out = copyOf(disputed);
    const file = decisions({
      'green/s1-rep3': { verdict: 'pass', reason: 'the reply names Task 1; the judge misread it' },
      'green/s2-rep2': { verdict: 'skip' },
    });
    const first = await runCli(['adjudicate', out, '--decisions', file, '--by', 'Dana']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toContain(
      '2 rep(s) to settle (2 disagreement(s), 0 indeterminate); 0 already settled; deciding as Dana',
    );
    expect(first.stdout).toContain('settled 1 rep(s)');
    expect(first.stdout).toContain('1 skipped');
    const overrides = overridesOf(out);
    expect(Object.keys(overrides)).toEqual(['green/s1-rep3']);
    expect(overrides['green/s1-rep3']).toMatchObject({
      verdict: 'pass',
      reason: 'the reply names Task 1; the judge misread it',
      by: 'Dana',
    });
    expect(overrides['green/s1-rep3']?.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    const markdown = readFileSync(path.join(out, 'results.md'), 'utf8');
    expect(markdown).toContain('**green/s1-rep3**: checks pass, judge fail — adjudicated: pass');
    expect(markdown).toContain('**green/s2-rep2**: checks pass, judge fail — unresolved');

    // Resumed: the settled rep is not asked again, and the same file keeps it as it is.
    const again = await runCli([
      'adjudicate',
      out,
      '--decisions',
      decisions({
        'green/s1-rep3': { verdict: 'fail', reason: 'changed my mind' },
        'green/s2-rep2': { verdict: 'fail', reason: 'the judge is right' },
      }),
      '--by',
      'Dana',
    ]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      'green/s1-rep3: already settled in overrides.json; kept as it is',
    );
    expect(again.stdout).toContain(
      '1 rep(s) to settle (1 disagreement(s), 0 indeterminate); 1 already settled',
    );
    expect(overridesOf(out)).toMatchObject({
      'green/s1-rep3': { verdict: 'pass' },
      'green/s2-rep2': { verdict: 'fail', reason: 'the judge is right' },
    });
  });

  it('asks about every indeterminate rep, and takes who decides from git config user.name', async () => {
    const out = copyOf(stopped);
    const home = makeTempDir();
    writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = Config Person\n');
    const file = decisions({
      'red/s1-rep1': { verdict: 'fail', reason: 'stopped before deciding anything' },
    });
    const settled = await runCli(['adjudicate', out, '--decisions', file], {
      env: cleanEnv({ HOME: home }),
    });
    expect(settled.exitCode, settled.stderr).toBe(0);
    expect(settled.stdout).toContain('4 rep(s) to settle (0 disagreement(s), 4 indeterminate)');
    expect(settled.stdout).toContain('deciding as Config Person');
    expect(overridesOf(out)['red/s1-rep1']).toMatchObject({ verdict: 'fail', by: 'Config Person' });
    const gate = await runCli(['gate', out, '--allow-no-gates']);
    expect(gate.stdout).toContain('1 verdict(s) adjudicated by hand');
  });

  it.each([
    [
      'a rep that is neither disputed nor indeterminate',
      { 'red/s1-rep1': { verdict: 'pass', reason: 'x' } },
      'red/s1-rep1: is neither a disagreement between checks and judge nor an indeterminate rep',
    ],
    [
      'a pass without a reason',
      { 'green/s1-rep3': { verdict: 'pass' } },
      'give a reason for a pass or a fail',
    ],
    ['an unknown verdict', { 'green/s1-rep3': { verdict: 'maybe', reason: 'x' } }, 'verdict'],
    ['a file that is not JSON', '{ nope', 'is not valid JSON'],
  ])('refuses %s, writing nothing', async (_name, content, message) => {
    const out = copyOf(disputed);
    const refused = await runCli([
      'adjudicate',
      out,
      '--decisions',
      decisions(content),
      '--by',
      'Dana',
    ]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(message);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(path.join(out, 'overrides.json'))).toBe(false);
  });

  it('refuses to run without a terminal or a decisions file, and without knowing who decides', async () => {
    const out = copyOf(disputed);
    const noTty = await runCli(['adjudicate', out, '--by', 'Dana']);
    expect(noTty.exitCode).toBe(2);
    expect(noTty.stderr).toContain('stdin: is not a terminal');
    const nobody = await runCli(['adjudicate', out, '--decisions', decisions({})], {
      env: cleanEnv({ HOME: makeTempDir() }),
    });
    expect(nobody.exitCode).toBe(2);
    expect(nobody.stderr).toContain('git config user.name is not set');
  });

  it('refuses a directory a live process holds locked', async () => {
    const out = copyOf(disputed);
    // The test process itself is alive, so its pid in the lock file is a live holder.
    writeFileSync(path.join(out, '.redgreen.lock'), `${process.pid}\n`);
    const refused = await runCli(['adjudicate', out, '--decisions', decisions({}), '--by', 'Dana']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`is locked by a running redgreen process (pid ${process.pid}`);
    expect(existsSync(path.join(out, 'overrides.json'))).toBe(false);
  });
});

/** Run a command as an unprivileged user (nobody) when this process is root; undefined when it cannot. */
function asNobody(): string[] | undefined {
  if (process.getuid?.() !== 0) return [];
  const drop = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];
  const probe = spawnSync(drop[0] as string, [...drop.slice(1), 'test', '-r', cliPath], {
    stdio: 'ignore',
  });
  return probe.status === 0 ? drop : undefined;
}

const drop = asNobody();
if (drop === undefined)
  console.log('skipping the unwritable-directory test: cannot run as an unprivileged user here');

describe.skipIf(drop === undefined)('a results directory adjudicate cannot write', () => {
  it('is refused with one line, before anything is asked', () => {
    const base = makeTempDir();
    chmodSync(base, 0o755);
    const out = path.join(base, 'out');
    spawnSync('cp', ['-a', disputed, out]);
    chmodSync(out, drop?.length === 0 ? 0o555 : 0o755);
    const home = path.join(base, 'home');
    mkdirSync(home);
    const [file = '', ...args] = [
      ...(drop ?? []),
      process.execPath,
      cliPath,
      'adjudicate',
      out,
      '--decisions',
      '/dev/null',
      '--by',
      'Dana',
    ];
    const refused = spawnSync(file, args, {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C' },
    });
    expect(refused.status, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`${out}: cannot be written (EACCES)`);
    expect(existsSync(path.join(out, 'overrides.json'))).toBe(false);
  });
});

async function waitForScreen(
  terminal: Terminal,
  text: string,
  timeoutMs = 60_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const screen = terminal.screen();
    if (screen.includes(text)) return screen;
    if (Date.now() > deadline) throw new Error(`"${text}" never appeared; screen:\n${screen}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!tmuxAvailable())('adjudicate in a real terminal', () => {
  it('shows control characters in a reply instead of obeying them; F1, arrows and Ctrl-D are no choices', async () => {
    const out = copyOf(disputed);
    const replyFile = path.join(out, 'reps/green/s1-rep3/reply.md');
    const lines = readFileSync(replyFile, 'utf8').split('\n');
    // After the tool_uses line: clear the screen, home the cursor, retitle the window.
    lines.splice(1, 0, 'WIPE\u001b[2J\u001b[HHOME\u001b]0;pwned\u0007END');
    writeFileSync(replyFile, lines.join('\n'));
    const terminal = runInTerminal(['adjudicate', out, '--by', 'Tmux Tester']);
    try {
      const screen = await waitForScreen(terminal, '[p] pass  [f] fail  [s] skip');
      expect(screen).toContain('WIPE\u241b[2J\u241b[HHOME\u241b]0;pwned\u2407END');
      expect(screen).toContain('[1/2] green/s1-rep3 — checks say pass, the judge says fail');
      // F1 is ESC O P and F2 ESC O Q: neither is p (pass) nor q (quit).
      terminal.press('F1');
      terminal.press('F2');
      terminal.press('f');
      await waitForScreen(terminal, 'fail: reason (Enter for');
      expect(terminal.screen()).not.toContain('pass: reason');
      terminal.press('-l', 'wrong');
      terminal.press('Up');
      terminal.press('Left');
      terminal.press('-l', ' dispatch');
      terminal.press('Enter');
      await waitForScreen(terminal, '[2/2] green/s2-rep2');
      terminal.press('f');
      await waitForScreen(terminal, '[2/2] green/s2-rep2');
      await waitForScreen(terminal, 'fail: reason (Enter for');
      terminal.press('C-d');
      expect(await terminal.exited(60_000)).toBe(0);
    } finally {
      terminal.close();
    }
    const overrides = overridesOf(out);
    expect(Object.keys(overrides)).toEqual(['green/s1-rep3']);
    expect(overrides['green/s1-rep3']).toMatchObject({ verdict: 'fail', reason: 'wrong dispatch' });
  });

  it('shows each rep, takes p with a typed reason, s, and q, and resumes with the skipped rep', async () => {
    const out = copyOf(disputed);
    const terminal = runInTerminal(['adjudicate', out, '--by', 'Tmux Tester']);
    try {
      const screen = await waitForScreen(terminal, '[p] pass  [f] fail  [s] skip');
      expect(screen).toContain('[1/2] green/s1-rep3 — checks say pass, the judge says fail');
      expect(screen).toContain('Reply:');
      expect(screen).toContain('FIRST DISPATCH');
      expect(screen).toContain('Key tool calls (controller,');
      expect(screen).toContain('Checks that failed or could not decide:');
      expect(screen).toContain('first-dispatch: fail');
      expect(screen).toContain('contradicts the check (a seeded contrarian rep)');
      terminal.press('p');
      await waitForScreen(terminal, 'pass: reason (Enter for');
      terminal.press('-l', 'the reply is right');
      terminal.press('Enter');
      await waitForScreen(terminal, '[2/2] green/s2-rep2');
      terminal.press('s');
      expect(await terminal.exited(60_000)).toBe(0);
      const end = terminal.screen();
      expect(end).toContain('settled 1 rep(s)');
      expect(end).toContain('1 skipped');
    } finally {
      terminal.close();
    }
    expect(overridesOf(out)).toEqual({
      'green/s1-rep3': expect.objectContaining({
        verdict: 'pass',
        reason: 'the reply is right',
        by: 'Tmux Tester',
      }),
    });

    const resumed = runInTerminal(['adjudicate', out, '--by', 'Tmux Tester']);
    try {
      const screen = await waitForScreen(resumed, '[p] pass  [f] fail  [s] skip');
      expect(screen).toContain('[1/1] green/s2-rep2');
      resumed.press('q');
      expect(await resumed.exited(60_000)).toBe(0);
      expect(resumed.screen()).toContain('settled 0 rep(s)');
      expect(resumed.screen()).toContain('1 not reached (run adjudicate again to continue)');
    } finally {
      resumed.close();
    }
    expect(Object.keys(overridesOf(out))).toEqual(['green/s1-rep3']);
  });
});
