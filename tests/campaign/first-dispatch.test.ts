/**
 * `stop: first-dispatch` end to end: `redgreen run` of a one-cell campaign in
 * a temp dir whose scenario is a copy of `scenarios/s1-probe` (the continue
 * prompt, the first-dispatch stop, checks on the dispatch), on both backends,
 * offline. scripted:skill-reader under the plan-scoped text dispatches Task 1
 * of plan B and passes; scripted:literal under the released text trusts the
 * stale flat ledger, finds nothing left to do and replies without
 * dispatching, and fails on its first dispatch. Asserted: what lands in the
 * rep directory (reply.md's trailer, the transcript's dispatch and refusal,
 * meta.json's stop fields, score.json's checks) and the ledger line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repMetaSchema } from '../../harness/results/rep-meta.js';
import { parseReplyFile } from '../../harness/score/reply-file.js';
import type { RepScore } from '../../harness/score/score-rep.js';
import { DISPATCH_REFUSAL } from '../../harness/session/dispatch-capture.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { engineUnavailable } from '../session/support/run-session.js';
import { firstDispatchCampaign, readJson, repLines, runCampaignCli } from './support.js';

interface TranscriptBlock {
  type: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

function transcriptBlocks(text: string, type: string): TranscriptBlock[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { type: string; message?: { content?: unknown } })
    .filter((message) => message.type === type && Array.isArray(message.message?.content))
    .flatMap((message) => message.message?.content as TranscriptBlock[]);
}

const backends = [
  ['messages', undefined],
  ['claude-code', engineUnavailable()],
] as const;

describe('redgreen run with stop: first-dispatch', () => {
  for (const [backend, unavailable] of backends) {
    it.skipIf(unavailable !== undefined)(
      `${backend}: the rep lands completed with the captured dispatch in reply.md, transcript and meta`,
      async () => {
        const out = path.join(makeTempDir(), 'out');
        const run = await runCampaignCli([
          firstDispatchCampaign(),
          '--backend',
          backend,
          '--out',
          out,
        ]);
        expect(run.exitCode, run.stderr).toBe(0);
        const [line] = repLines(out);
        expect(line).toMatchObject({ id: 'green/s1fd-rep1', status: 'completed', verdict: 'pass' });
        const repDir = path.join(out, line?.dir ?? '');
        const score = readJson<RepScore>(path.join(repDir, 'score.json'));
        expect(score.checks.map((check) => [check.id, check.outcome, check.observed])).toEqual([
          ['first-dispatch', 'pass', 'fresh, Task 1'],
          ['stale-artifacts-untouched', 'pass', 'unchanged'],
        ]);

        const reply = parseReplyFile(readFileSync(path.join(repDir, 'reply.md'), 'utf8'));
        expect(reply.reply).toBe('');
        expect(reply.capturedDispatch).toMatchObject({
          tool: 'Agent',
          input: {
            description: 'Implement Task 1: Export data model',
            subagent_type: 'general-purpose',
          },
        });

        const transcript = readFileSync(path.join(repDir, 'transcript.jsonl'), 'utf8');
        const uses = transcriptBlocks(transcript, 'assistant').filter(
          (block) => block.type === 'tool_use',
        );
        const dispatch = uses.find((block) => block.id === reply.capturedDispatch?.toolUseId);
        expect(dispatch).toEqual({
          type: 'tool_use',
          id: reply.capturedDispatch?.toolUseId,
          name: 'Agent',
          input: reply.capturedDispatch?.input,
        });
        const refusal = transcriptBlocks(transcript, 'user').find(
          (block) => block.type === 'tool_result' && block.tool_use_id === dispatch?.id,
        );
        expect(refusal?.is_error).toBe(true);
        expect(JSON.stringify(refusal?.content)).toContain(DISPATCH_REFUSAL);
        expect(uses.at(-1)?.id).toBe(dispatch?.id);

        const metaJson = readJson(path.join(repDir, 'meta.json'));
        const meta = repMetaSchema.parse(metaJson);
        expect(meta).toMatchObject({
          status: { kind: 'completed' },
          stop: 'first-dispatch',
          dispatchCaptured: true,
          stopReason: 'first-dispatch',
          backend,
        });
        expect(meta.toolUses).toBe(uses.length);

        // A meta.json written before stop modes existed still reads, as a report-mode rep.
        const { stop: _stop, dispatchCaptured: _captured, ...older } = metaJson;
        expect(repMetaSchema.parse(older)).toMatchObject({
          stop: 'report',
          dispatchCaptured: false,
        });
      },
    );
  }
});

describe('a first-dispatch probe judged by its dispatch', () => {
  for (const [backend, unavailable] of backends) {
    it.skipIf(unavailable !== undefined)(
      `${backend}: scripted:literal under the released text replies without dispatching and fails first-dispatch`,
      async () => {
        const out = path.join(makeTempDir(), 'out');
        const run = await runCampaignCli([
          firstDispatchCampaign({ arm: 'released' }),
          '--model',
          'scripted:literal',
          '--backend',
          backend,
          '--out',
          out,
        ]);
        expect(run.exitCode, run.stderr).toBe(0);
        const [line] = repLines(out);
        expect(line).toMatchObject({ id: 'red/s1fd-rep1', status: 'completed', verdict: 'fail' });
        const repDir = path.join(out, line?.dir ?? '');
        // Its decision is the reply: plan A's ledger read as its own, every task done.
        const reply = parseReplyFile(readFileSync(path.join(repDir, 'reply.md'), 'utf8'));
        expect(reply.capturedDispatch).toBeNull();
        expect(reply.reply).toMatch(/FIRST DISPATCH: none/);
        expect(readJson(path.join(repDir, 'meta.json'))).toMatchObject({
          stop: 'first-dispatch',
          dispatchCaptured: false,
        });
        const score = readJson<RepScore>(path.join(repDir, 'score.json'));
        expect(score.checks.map((check) => [check.id, check.outcome, check.observed])).toEqual([
          ['first-dispatch', 'fail', 'none'],
          ['stale-artifacts-untouched', 'pass', 'unchanged'],
        ]);
        expect(score.reasons).toEqual([
          expect.stringMatching(/^first-dispatch: no first dispatch \(0 dispatch\(es\) in all\)/),
        ]);
      },
    );
  }
});

describe('the shipped probe campaign, offline', () => {
  it('runs S1 and S2 as first-dispatch probes: S1-PROBE RED 0/5, the other cells 5/5, gates 0', async () => {
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([
      'scenarios/first-dispatch-probes.campaign.json',
      '--out',
      out,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const reps = repLines(out);
    expect(reps).toHaveLength(20);
    const verdicts = (cell: string) =>
      reps.filter((rep) => rep.id?.startsWith(cell)).map((rep) => rep.verdict);
    expect(verdicts('red/s1-probe-')).toEqual(Array(5).fill('fail'));
    expect(verdicts('green/s1-probe-')).toEqual(Array(5).fill('pass'));
    expect(verdicts('red/s2-probe-')).toEqual(Array(5).fill('pass'));
    expect(verdicts('green/s2-probe-')).toEqual(Array(5).fill('pass'));
    for (const rep of reps) {
      const meta = readJson(path.join(out, rep.dir ?? '', 'meta.json'));
      // Every passing rep ended at its captured dispatch; the failing ones replied instead.
      expect(meta, rep.id).toMatchObject({
        status: { kind: 'completed' },
        stop: 'first-dispatch',
        dispatchCaptured: rep.verdict === 'pass',
      });
    }
    expect(run.stdout).toContain('Gates: PASS');
  });
});

describe('the scenario field stop', () => {
  function setStop(campaign: string, stop: unknown): void {
    const file = path.join(path.dirname(campaign), 's1fd', 'scenario.json');
    writeFileSync(file, JSON.stringify({ ...readJson(file), stop }));
  }

  it('is part of the campaign identity: a resume with another stop mode is refused', async () => {
    const campaign = firstDispatchCampaign();
    setStop(campaign, 'report');
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([campaign, '--backend', 'messages', '--out', out]);
    expect(run.exitCode, run.stderr).toBe(0);
    const meta = readJson(path.join(out, repLines(out)[0]?.dir ?? '', 'meta.json'));
    expect(meta).toMatchObject({ stop: 'report', dispatchCaptured: false });

    const same = await runCampaignCli(['--resume', out]);
    expect(same.exitCode, same.stderr).toBe(0);
    setStop(campaign, 'first-dispatch');
    const other = await runCampaignCli(['--resume', out]);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toMatch(/different campaign identity/);
  });

  it('rejects an unknown stop mode in one line naming the field, exit 2', async () => {
    const campaign = firstDispatchCampaign();
    setStop(campaign, 'first-reply');
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([campaign, '--out', out]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/scenario\.json.*stop/);
  });
});
