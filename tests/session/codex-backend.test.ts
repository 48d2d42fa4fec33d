/**
 * The codex backend end to end: `redgreen run` of the default campaign at
 * one rep a cell on `--backend codex`, through the real Codex CLI binary
 * inside redgreen's bubblewrap, against the local model server. One run of
 * four reps, shared by the assertions:
 *
 * - the verdicts are the scenarios' calibration for scripted:skill-reader:
 *   the released text fails S1 (a planted negative: the backend can fail a
 *   rep), the plan-scoped text passes S1, both pass S2;
 * - each rep records the codex engine, and its transcript.jsonl (the
 *   rollouts turned into redgreen's transcript) reads back with Codex's
 *   shell calls as Bash, a complete ending and the reply;
 * - the GREEN arm's skill script is planted to print what a model command
 *   sees: the network interfaces (loopback only: an empty namespace), the
 *   sandbox's pid 1 (bubblewrap: the engine runs inside it, so its
 *   commands do), and the whole environment, where a credential set in
 *   redgreen's environment never appears.
 *
 * Skipped, with the reason printed, where the binary or a working
 * bubblewrap is absent.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultCampaign,
  plantedSkill,
  readJson,
  repLines,
  runCampaignCli,
  writeCampaign,
} from '../campaign/support.js';
import { type CliResult, runCli } from '../helpers/cli.js';
import { codexSkipReason } from '../helpers/codex-skip.js';

const skip = await codexSkipReason('codex backend tests');

const CANARY = 'rg-codex-backend-canary-7d41e0';
const PROBE =
  "echo \"REDGREEN-PROBE net=[$(awk -F: 'NR>2{gsub(/ /,\"\",$1); print $1}' /proc/net/dev | tr '\\n' ' ')] pid1=$(cat /proc/1/comm) uid=$(id -u)\"; env | sed 's/^/REDGREEN-ENV /'";

let root: string | undefined;
let out = '';
let run: CliResult | undefined;

beforeAll(async () => {
  if (skip !== undefined) return;
  // The run's directory outlives each test (a temp dir of the helpers' is removed after one).
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-codex-backend-'));
  chmodSync(root, 0o711);
  out = path.join(root, 'out');
  run = await runCampaignCli(
    [
      defaultCampaign,
      '--reps',
      '1',
      '--backend',
      'codex',
      '--arm',
      `green=${plantedSkill(PROBE)}`,
      '--out',
      out,
    ],
    // A credential in redgreen's environment (an offline run still has no key for the engine).
    { OPENAI_API_KEY: CANARY, REDGREEN_CANARY: CANARY },
  );
}, 240_000);

afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

function transcriptOf(rep: string): string {
  return readFileSync(path.join(out, 'reps', rep, 'transcript.jsonl'), 'utf8');
}

describe.skipIf(skip !== undefined)('the codex backend', () => {
  it('runs the default campaign with the verdicts of its calibration, the released text failing S1', () => {
    expect(run?.stderr).not.toMatch(/Error:|at .*\.js:\d+/);
    const verdicts = Object.fromEntries(repLines(out).map((line) => [line.id, line.verdict]));
    expect(verdicts).toEqual({
      'red/s1-rep1': 'fail',
      'green/s1-rep1': 'pass',
      'red/s2-rep1': 'pass',
      'green/s2-rep1': 'pass',
    });
    // Only the gates that need five reps a cell stay undecided: the run itself is sound.
    expect(run?.exitCode).toBe(0);
  });

  it('records the codex engine and a transcript that reads back with Codex’s calls', async () => {
    const meta = readJson<{ backend: string; engine: string; status: { kind: string } }>(
      path.join(out, 'reps/green/s1-rep1/meta.json'),
    );
    expect(meta.backend).toBe('codex');
    expect(meta.engine).toMatch(/^codex-cli \d+\.\d+\.\d+$/);
    expect(meta.status.kind).toBe('completed');
    const read = await runCli([
      'transcript',
      '--json',
      path.join(out, 'reps/green/s1-rep1/transcript.jsonl'),
    ]);
    expect(read.exitCode).toBe(0);
    const summary = JSON.parse(read.stdout) as {
      complete: boolean;
      toolCalls: { controller: number; subagent: number };
      seats: { seat: string; tools: Record<string, number> }[];
      reply: string;
      unreadable: unknown[];
    };
    expect(summary.complete).toBe(true);
    expect(summary.unreadable).toEqual([]);
    expect(summary.toolCalls.controller).toBeGreaterThan(0);
    // Codex's exec_command calls (its only tool here) read as Bash.
    expect(Object.keys(summary.seats[0]?.tools ?? {})).toEqual(['Bash']);
    expect(summary.reply).toMatch(/LEDGERS CHECKED/);
  });

  it('confines the engine: its commands see an empty network namespace, bubblewrap as pid 1, no credential', () => {
    const transcript = transcriptOf('green/s1-rep1');
    const probe = /REDGREEN-PROBE net=\[([^\]]*)\] pid1=(\S+) uid=(\d+)/.exec(transcript);
    expect(probe, 'the planted probe ran').not.toBeNull();
    expect(probe?.[1]?.trim()).toBe('lo');
    expect(probe?.[2]).toBe('bwrap');
    if (process.getuid?.() === 0) expect(probe?.[3]).toBe('65534');
    // The environment was dumped, and holds nothing of redgreen's.
    expect(transcript).toMatch(/REDGREEN-ENV PATH=/);
    expect(transcript).not.toContain(CANARY);
    expect(transcript).not.toMatch(/REDGREEN-ENV [A-Z_]*(?:KEY|TOKEN|SECRET)=/);
  });
});

describe('what the codex backend refuses, before anything is made', () => {
  it('a scenario whose stop captures a call other than a dispatch (Codex cannot refuse one before it runs)', async () => {
    const file = writeCampaign({ scenarios: ['s1-probe'], gates: [] });
    const scenario = path.join(path.dirname(file), 's1-probe/scenario.json');
    const config = readJson<Record<string, unknown>>(scenario);
    writeFileSync(scenario, JSON.stringify({ ...config, stop: { at: { event: 'write' } } }));
    const refused = await runCampaignCli([file, '--backend', 'codex', '--dry-run']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(
      /s1-probe\/scenario\.json: stop: stop \{ "at": … \} captures a call other than a dispatch before it runs, which the codex backend cannot \(it has no hook to refuse a call\); use stop "first-dispatch", "report" or "complete", or \{ "at": \{ "event": "dispatch" \} \}, or run with another --backend/,
    );
  });

  it('a live model (the engine reaches the local model server only), leaving no results', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'redgreen-codex-live-'));
    try {
      const refused = await runCampaignCli(
        [defaultCampaign, '--backend', 'codex', '--out', path.join(dir, 'out')],
        { ANTHROPIC_API_KEY: 'sk-ant-not-a-real-key-0123456789' },
      );
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toMatch(
        /--backend codex: runs scripted models on the local model server only/,
      );
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
