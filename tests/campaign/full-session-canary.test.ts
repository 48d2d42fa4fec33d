/**
 * The API-key canary for full sessions (`stop: complete`): the subagent
 * seats' tool environments. A live run through the real CLI (the local model
 * server posing as the live endpoint, policy `full-env-dump`) of one full
 * session whose controller dumps its tool environment and dispatches two
 * subagents that dump theirs: one asking for the `opus` tier (on claude-code
 * the engine's own subagent on ANTHROPIC_DEFAULT_OPUS_MODEL; on messages a
 * nested session on the tier's model) and one asking for none. Each dump is
 * `env`, `/proc/self/environ` and `git config -l`. On both backends, with the
 * key in ANTHROPIC_API_KEY and with an endpoint profile's own bearer key
 * variable: no dump holds a variable naming a key, and the canary is in no
 * transcript, tool output, results file, kept work dir or output line.
 *
 * The planted positive: the same dump commands run in a process-sandbox run
 * with a key deliberately put in its environment, and the assertion catches
 * it, even where the transcript's redactor has replaced the key's value. A
 * whole session with a key in a seat's tool environment cannot be staged
 * without a switch in the backends that skips the scrub (the sandbox's
 * command environment and the engine's shell prefix are fixed allowlists),
 * and production code gets no such switch for a test.
 */
import { cpSync, existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../harness/model-server/index.js';
import { ENV_DUMPS } from '../../harness/model-server/policies/env-dump.js';
import { runConfined } from '../../harness/sandbox/sandbox.js';
import { readSessionTranscript } from '../../harness/score/transcripts/read-transcript.js';
import { SecretRedactor } from '../../harness/session/secret-redactor.js';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { engineUnavailable, toolResults } from '../session/support/run-session.js';
import { readJson, repLines, runCampaignCli } from './support.js';

const CANARY = 'sk-ant-canary-full-session-0123456789abcdef-do-not-leak';
/** The endpoint profile's own key variable (bearer auth: the engine gets ANTHROPIC_AUTH_TOKEN). */
const PROFILE_KEY_ENV = 'REDGREEN_CANARY_TOKEN';
/** Every variable that would carry the key into a tool. */
const KEY_VARIABLES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', PROFILE_KEY_ENV];

/** The lines of a dump that set a variable naming a key (`NAME=…`), whatever its value. */
function keyVariablesIn(dump: string, names: readonly string[] = KEY_VARIABLES): string[] {
  return dump
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => names.some((name) => line.startsWith(`${name}=`)));
}

/** The dump commands of the policy as one shell script, each under a heading. */
const dumpScript = ENV_DUMPS.map((dump) => `echo '=== ${dump.name}' && ${dump.command}`).join(
  ' && ',
);

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Every regular file under a directory (sockets, links and the like left out). */
function regularFilesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    const stat = lstatSync(full);
    if (stat.isDirectory()) out.push(...regularFilesUnder(full));
    else if (stat.isFile()) out.push(full);
  }
  return out;
}

type KeyProfile = 'api-key' | 'profile-bearer';

/**
 * A copy of the sdd-full-runs campaign, one rep of fix-loop-resumes-implementer:
 * on the default endpoint (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL), or through an
 * endpoint profile whose bearer key is read from PROFILE_KEY_ENV.
 */
function canaryCampaign(profile: KeyProfile, baseUrl: string): string {
  const dir = path.join(makeTempDir(), 'scenarios');
  cpSync(path.join(repoRoot, 'scenarios'), dir, { recursive: true });
  const campaign = readJson<Record<string, unknown>>(
    path.join(repoRoot, 'scenarios', 'sdd-full-runs.campaign.json'),
  );
  const arms = (campaign.arms as { skill: string }[]).map((arm) => ({
    ...arm,
    skill: path.resolve(repoRoot, 'scenarios', arm.skill),
  }));
  const endpoint =
    profile === 'api-key'
      ? {}
      : {
          model: undefined,
          offlineModel: undefined,
          models: [{ id: 'claude-sonnet-5-5', name: 'canary', endpoint: 'gateway' }],
          endpoints: {
            gateway: { baseUrl, keyEnv: PROFILE_KEY_ENV, auth: 'bearer' },
          },
        };
  const file = path.join(dir, 'canary.campaign.json');
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        ...campaign,
        id: 'full-session-canary',
        arms,
        scenarios: ['fix-loop-resumes-implementer'],
        reps: 1,
        concurrency: 1,
        gates: [],
        ...endpoint,
      },
      null,
      2,
    )}\n`,
  );
  return file;
}

interface Dump {
  readonly dump: string;
  readonly seat: string;
  readonly text: string;
}

/** The env-dump policy's Bash calls in a transcript (any seat's) with their outputs. */
function dumpsIn(lines: readonly Record<string, unknown>[]): Dump[] {
  const results = toolResults(lines);
  const seen = new Set<string>();
  const dumps: Dump[] = [];
  for (const line of lines) {
    if (line.type !== 'assistant') continue;
    const content = (line.message as { content?: unknown } | undefined)?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content as {
      type: string;
      id?: string;
      name?: string;
      input?: unknown;
    }[]) {
      if (block.type !== 'tool_use' || block.name !== 'Bash' || block.id === undefined) continue;
      if (seen.has(block.id)) continue;
      const description = String((block.input as { description?: unknown }).description);
      const named = /^Dump the environment: ([\w-]+) \(seat ([\w-]+)\)$/.exec(description);
      if (named === null) continue;
      seen.add(block.id);
      dumps.push({
        dump: named[1] ?? '',
        seat: named[2] ?? '',
        text: results.get(block.id)?.text ?? '',
      });
    }
  }
  return dumps;
}

/** Run the canary session on a backend with the key in a variable, and check every place it could land. */
async function canaryRun(backend: 'claude-code' | 'messages', profile: KeyProfile) {
  server = await startModelServer({ policy: 'full-env-dump' });
  const tmp = makeTempDir('redgreen-canary-tmp-');
  const out = path.join(makeTempDir(), 'out');
  const keyEnv: Record<string, string> =
    profile === 'api-key'
      ? { ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: server.baseUrl }
      : { [PROFILE_KEY_ENV]: CANARY };
  const run = await runCampaignCli(
    [
      canaryCampaign(profile, server.baseUrl),
      '--only',
      'arm=green',
      '--backend',
      backend,
      '--out',
      out,
      '--keep-workdirs',
    ],
    { ...keyEnv, TMPDIR: tmp },
  );
  expect(run.exitCode, run.stderr).toBe(0);
  // Live, not offline: the session's model is the campaign's, not a scripted one.
  expect(run.stdout).toContain('live run with claude-sonnet-5-5');
  const [rep] = repLines(out);
  expect(rep?.dir).toBeDefined();
  const repDir = path.join(out, rep?.dir ?? '');
  const text = readFileSync(path.join(repDir, 'transcript.jsonl'), 'utf8');
  const lines = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

  // The seats ran: one on the opus tier's live model, one on the session's.
  const read = readSessionTranscript(text, 'transcript.jsonl');
  if (!read.ok) throw new Error(read.error.problem);
  expect(read.value.seats.map((seat) => [seat.description, seat.model, seat.modelUsed])).toEqual([
    ['Dump the environment (seat opus)', 'opus', 'claude-opus-5-5'],
    ['Dump the environment (seat default)', null, 'claude-sonnet-5-5'],
  ]);

  // Every seat dumped all three, and the dumps really hold an environment (positive controls).
  const dumps = dumpsIn(lines);
  expect(dumps.map((dump) => `${dump.seat} ${dump.dump}`).sort()).toEqual(
    ['controller', 'default', 'opus'].flatMap((seat) =>
      ['env', 'git-config', 'proc-environ'].map((dump) => `${seat} ${dump}`),
    ),
  );
  for (const dump of dumps) {
    if (dump.dump !== 'git-config')
      expect(dump.text, `${dump.seat} ${dump.dump}`).toMatch(/^PATH=/m);
    else expect(dump.text, dump.seat).toMatch(/^core\.repositoryformatversion=/m);
    // The check that matters: no variable naming a key, whatever its value; nor any other
    // of the engine's own (its tier variables, its shell prefix).
    expect(keyVariablesIn(dump.text), `${dump.seat} ${dump.dump}`).toEqual([]);
    expect(dump.text).not.toMatch(/^(ANTHROPIC|CLAUDE_CODE)_/m);
    expect(dump.text.includes(CANARY)).toBe(false);
  }
  // The redactor never had to hide the key: it reached no tool output or message.
  expect(text).not.toContain('[REDACTED]');
  expect(
    readJson<{ secretRedactions: number }>(path.join(repDir, 'meta.json')).secretRedactions,
  ).toBe(0);

  // The key is in no results file, no kept work dir, no output line.
  const resultsFiles = regularFilesUnder(out);
  expect(resultsFiles.length).toBeGreaterThan(5);
  for (const file of resultsFiles) {
    expect(readFileSync(file, 'utf8').includes(CANARY), file).toBe(false);
  }
  const kept = readdirSync(tmp).filter((entry) => entry.startsWith('redgreen-run-'));
  expect(kept).toHaveLength(1);
  const keptFiles = regularFilesUnder(path.join(tmp, kept[0] ?? ''));
  // The kept work dir holds the session's work tree (the seats' commits) and private HOME.
  expect(keptFiles.some((file) => file.endsWith(path.join('.git', 'HEAD')))).toBe(true);
  for (const file of keptFiles) {
    expect(readFileSync(file).includes(CANARY), file).toBe(false);
  }
  expect(run.stdout.includes(CANARY) || run.stderr.includes(CANARY)).toBe(false);
  return { dumps };
}

describe('the API key never reaches a full session’s seats', () => {
  it('the assertion catches a key planted in a process-sandbox run’s environment, redacted or not', async () => {
    const fixture = makeTempDir('redgreen-canary-plant-');
    const home = makeTempDir('redgreen-canary-home-');
    const dumpIn = async (argv: readonly string[]) =>
      (
        await runConfined(
          { kind: 'process', description: 'plant' },
          {
            argv,
            fixtureDir: fixture,
            readOnlyDirs: [],
            fallbackHome: home,
            timeoutMs: 30_000,
            maxOutputBytes: 100_000,
          },
        )
      ).output;
    const clean = await dumpIn(['/bin/bash', '-c', dumpScript]);
    expect(clean).toMatch(/^PATH=/m);
    expect(keyVariablesIn(clean)).toEqual([]);
    for (const variable of KEY_VARIABLES) {
      const planted = await dumpIn([
        '/usr/bin/env',
        `${variable}=${CANARY}`,
        '/bin/bash',
        '-c',
        dumpScript,
      ]);
      // Caught in `env` and in /proc/self/environ both.
      expect(keyVariablesIn(planted)).toEqual([`${variable}=${CANARY}`, `${variable}=${CANARY}`]);
      expect(planted.includes(CANARY)).toBe(true);
      // The transcript's redactor hides the value, so the canary scan alone would miss it;
      // the variable's name still gives it away.
      const redacted = new SecretRedactor([CANARY]).redact(planted);
      expect(redacted.includes(CANARY)).toBe(false);
      expect(keyVariablesIn(redacted)).toEqual([
        `${variable}=[REDACTED]`,
        `${variable}=[REDACTED]`,
      ]);
    }
  });

  for (const profile of ['api-key', 'profile-bearer'] as const) {
    it(`messages backend, key in ${profile === 'api-key' ? 'ANTHROPIC_API_KEY' : `a profile's ${PROFILE_KEY_ENV} (bearer)`}: nested seats' tools never see it`, async () => {
      await canaryRun('messages', profile);
    }, 240_000);
  }

  const unavailable = engineUnavailable();
  for (const profile of ['api-key', 'profile-bearer'] as const) {
    it.skipIf(unavailable !== undefined)(
      `claude-code backend, key in ${profile === 'api-key' ? 'ANTHROPIC_API_KEY' : `a profile's ${PROFILE_KEY_ENV} (bearer)`}: the engine's subagents (tier env) never pass it to a tool`,
      async () => {
        await canaryRun('claude-code', profile);
      },
      240_000,
    );
  }
});
