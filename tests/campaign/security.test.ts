import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../harness/model-server/index.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import {
  defaultCampaign,
  filesUnder,
  plantedSkill,
  readJson,
  repLines,
  runCampaignCli,
} from './support.js';

const CANARY = 'sk-ant-canary-0123456789abcdef-do-not-leak';

/** A copy of the plan-scoped skill whose workspace script first prints its whole environment. */
const envDumpingSkill = (): string => plantedSkill('env | sort | sed "s/^/ENV: /" >&2');

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the API key never reaches a tool, a transcript, or a results file', () => {
  for (const backend of ['claude-code', 'messages'] as const) {
    it(`live mode on the ${backend} backend: a canary key is used for the API only`, async () => {
      server = await startModelServer({ policy: 'structural' });
      const out = path.join(makeTempDir(), 'out');
      const run = await runCampaignCli(
        [
          defaultCampaign,
          '--reps',
          '1',
          '--shard',
          '2/4',
          '--out',
          out,
          '--backend',
          backend,
          '--arm',
          `green=${envDumpingSkill()}`,
        ],
        { ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: server.baseUrl },
      );
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stdout).toContain('live run with claude-sonnet-5-5');
      const [rep] = repLines(out);
      expect(rep?.id).toBe('green/s1-rep1');
      const transcript = readFileSync(path.join(out, rep?.dir ?? '', 'transcript.jsonl'), 'utf8');
      // Positive control: the tool's environment really was dumped into the transcript.
      expect(transcript).toContain('ENV: PATH=');
      expect(transcript).not.toMatch(/ENV: (ANTHROPIC|CLAUDE_CODE)/);
      for (const file of filesUnder(out)) {
        expect(readFileSync(file, 'utf8').includes(CANARY), file).toBe(false);
      }
      expect(run.stdout.includes(CANARY) || run.stderr.includes(CANARY)).toBe(false);
      const meta = readJson<{
        secretRedactions: number;
        costUsd: number | null;
        tokensEstimated: boolean;
      }>(path.join(out, rep?.dir ?? '', 'meta.json'));
      expect(meta.secretRedactions).toBe(0);
      // Priced (the model id is in the price table), and labelled estimated because the server estimates.
      expect(meta.costUsd).toBeGreaterThan(0);
      expect(meta.tokensEstimated).toBe(true);
    });
  }

  it('--max-cost stops dispatching once the priced cost reaches it', async () => {
    server = await startModelServer({ policy: 'structural' });
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli(
      [
        defaultCampaign,
        '--reps',
        '2',
        '--concurrency',
        '1',
        '--out',
        out,
        '--max-cost',
        '0.000001',
      ],
      { ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: server.baseUrl },
    );
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/stopping: spent \$[0-9.]+, at or over --max-cost/);
    expect(repLines(out)).toHaveLength(1);
  });
});
