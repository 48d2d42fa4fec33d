/**
 * A fixture's `.claude/` and what of it reaches a session (scenario
 * `claudeDir`, project-skills.ts): nothing unless opted in; with `skills`,
 * its project skills through the Skill tool on both backends, and still
 * nothing else (the fixture's settings.json hook never runs, its command and
 * subagent are not listed). Settings, hooks and permissions are refused at
 * load. The sessions run the real engine and the real `@anthropic-ai/sdk`
 * against the local model server's skill-trigger brain, through a recorder
 * of what the clients sent; skipped, with the reason printed, where the
 * engine is not installed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedCampaign } from '../../harness/campaign/load-campaign.js';
import { sha256Hex } from '../../harness/lib/hash.js';
import { scriptedModelId, startModelServer } from '../../harness/model-server/index.js';
import { claudeDirSchema } from '../../harness/score/claude-dir.js';
import { readProjectSkills } from '../../harness/session/project-skills.js';
import { scriptedSessionIdentity } from '../campaign/support.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { recipeFixture } from '../model-server/support/fixture.js';
import {
  type BackendName,
  controllerToolUses,
  engineUnavailable,
  runBackendSession,
  toolResults,
} from './support/run-session.js';
import {
  requestSystemText,
  startWireRecorder,
  type WireRecorder,
} from './support/wire-recorder.js';

const unavailable = engineUnavailable();
if (unavailable !== undefined) process.stdout.write(`engine tests skipped: ${unavailable}\n`);

const FEATURE =
  'Add a `slugify(text)` function in `src/slugify.js` that turns a title into a URL slug.';
const HOUSE_RULES = '- house-rules: Use when adding a feature function to this project';

describe('claudeDir', () => {
  it('accepts skills; refuses settings, hooks, the status line and permissions, saying why', () => {
    expect(claudeDirSchema.safeParse(['skills']).success).toBe(true);
    for (const part of [
      'settings',
      '.claude/settings.local.json',
      'hooks',
      'statusline',
      'permissions',
    ]) {
      const parsed = claudeDirSchema.safeParse([part]);
      expect(parsed.success, part).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(
        /fixture code in the engine, outside the sandbox$/,
      );
    }
    expect(claudeDirSchema.safeParse(['plugins']).error?.issues[0]?.message).toContain(
      'not a part of .claude/ a session can be given (one of: skills)',
    );
  });
});

/** The session identity of a one-scenario campaign whose scenario has `claudeDir` as given. */
function identityWith(claudeDir: string[] | undefined): string {
  const campaign = {
    only: null,
    config: { id: 'claude-dir' },
    backend: 'messages',
    engines: ['messages'],
    limits: {
      maxTurns: 40,
      sessionTimeoutSeconds: 600,
      toolTimeoutSeconds: 120,
      toolOutputMaxBytes: 30000,
      maxCostUsd: null,
    },
    seed: 1,
    arms: [{ name: 'red', role: 'red', layout: 'project-claude' }],
    scenarios: [
      {
        id: 'feature',
        config: {
          fixture: { recipe: 'r', scenario: 's', variables: {} },
          stop: 'report',
          ...(claudeDir === undefined ? {} : { claudeDir }),
        },
        prompt: { source: 'p' },
        compiled: { promptVariables: {} },
      },
    ],
  } as unknown as ResolvedCampaign;
  return scriptedSessionIdentity(campaign, 'skill-trigger');
}

describe('claudeDir in the identity', () => {
  it('an opted-in part is another session identity', () => {
    expect(identityWith(['skills'])).not.toBe(identityWith(undefined));
  });
});

describe('readProjectSkills', () => {
  it('reads regular SKILL.md files, refuses links, and gives none without .claude/skills', async () => {
    const repo = makeTempDir('redgreen-project-skills-');
    expect(await readProjectSkills(repo)).toEqual({ skills: [], problems: [] });
    const outside = makeTempDir('redgreen-outside-');
    writeFileSync(
      path.join(outside, 'SKILL.md'),
      '---\nname: leak\ndescription: host\n---\nHOST\n',
    );
    const skills = path.join(repo, '.claude', 'skills');
    mkdirSync(path.join(skills, 'kept'), { recursive: true });
    const text = '---\nname: kept\ndescription: Use when keeping\n---\nKeep it.\n';
    writeFileSync(path.join(skills, 'kept', 'SKILL.md'), text);
    mkdirSync(path.join(skills, 'same-name'));
    writeFileSync(path.join(skills, 'same-name', 'SKILL.md'), '---\nname: kept\n---\nAgain.\n');
    mkdirSync(path.join(skills, 'fifo'));
    execFileSync('mkfifo', [path.join(skills, 'fifo', 'SKILL.md')]);
    symlinkSync(outside, path.join(skills, 'linked-dir'));
    mkdirSync(path.join(skills, 'linked-file'));
    symlinkSync(path.join(outside, 'SKILL.md'), path.join(skills, 'linked-file', 'SKILL.md'));
    const read = await readProjectSkills(repo);
    expect(
      read.skills.map(({ name, description, body, file, sha256 }) => ({
        name,
        description,
        body,
        file,
        sha256,
      })),
    ).toEqual([
      {
        name: 'kept',
        description: 'Use when keeping',
        body: 'Keep it.\n',
        file: '.claude/skills/kept/SKILL.md',
        sha256: sha256Hex(text),
      },
    ]);
    expect(read.problems).toEqual([
      expect.stringMatching(
        /^\.claude\/skills\/fifo\/SKILL\.md cannot be given to the session \(.*not a regular file/,
      ),
      '.claude/skills/linked-dir is a symlink (not followed)',
      expect.stringMatching(
        /^\.claude\/skills\/linked-file\/SKILL\.md cannot be given to the session \(.*symlink \(not followed\)\)$/,
      ),
      '.claude/skills/same-name/SKILL.md is named kept, as another project skill is',
    ]);
    // A .claude/skills that is itself a link is refused, not followed.
    const linkedRoot = makeTempDir('redgreen-project-skills-');
    mkdirSync(path.join(linkedRoot, '.claude'));
    symlinkSync(skills, path.join(linkedRoot, '.claude', 'skills'));
    const refused = await readProjectSkills(linkedRoot);
    expect(refused.skills).toEqual([]);
    expect(refused.problems[0]).toMatch(/symlink \(not followed\)/);
  });
});

let server: Awaited<ReturnType<typeof startModelServer>>;
let wire: WireRecorder;
beforeAll(async () => {
  server = await startModelServer({ policy: 'skill-trigger' });
  wire = await startWireRecorder(server.baseUrl);
});
afterAll(async () => {
  await wire.close();
  await server.close();
});

/** The `- name: description` lines of the skills listing in a system text. */
function listing(system: string): string[] {
  const at = system.indexOf('The following skills are available');
  if (at < 0) return [];
  return (system.slice(at).split('\n\n')[1] ?? '')
    .split('\n')
    .filter((line) => line.startsWith('- '));
}

describe.skipIf(unavailable !== undefined)("a fixture's .claude/ and the session", () => {
  const listings = new Map<BackendName, string[]>();

  for (const backend of ['claude-code', 'messages'] as const) {
    it(`${backend}, claudeDir [skills]: the project skill is listed by its bare name, a Skill call loads it, and nothing else of .claude/ runs or is listed`, async () => {
      const repo = await recipeFixture('textkit', 'start', 'project-claude');
      const { skills, problems } = await readProjectSkills(repo);
      expect(problems).toEqual([]);
      const before = wire.exchanges.length;
      const run = await runBackendSession({
        backend,
        stop: 'report',
        baseUrl: wire.baseUrl,
        model: scriptedModelId('skill-trigger'),
        prompt: FEATURE,
        fixtureRepo: repo,
        projectSkills: skills,
        repId: `project-skills/${backend}`,
      });
      expect(run.outcome.status).toEqual({ kind: 'completed' });
      const system = requestSystemText(wire.exchanges[before]?.requestBody ?? {});
      listings.set(backend, listing(system));
      // Exactly the opted-in skill: none of the engine's own, not the command or the subagent.
      expect(listing(system)).toEqual([expect.stringMatching(new RegExp(`^${HOUSE_RULES}`))]);
      expect(system).not.toContain('release-notes');
      expect(system).not.toContain('feature-reviewer');
      const calls = controllerToolUses(run.transcript);
      expect(calls[0]).toMatchObject({ name: 'Skill', input: { skill: 'house-rules' } });
      expect(toolResults(run.transcript).get(calls[0]?.id ?? '')).toEqual({
        text: 'Launching skill: house-rules',
        isError: false,
      });
      const synthetic = JSON.stringify(run.transcript.filter((line) => line.isSynthetic === true));
      expect(synthetic).toContain('Write the failing test first, then the helper');
      // The loaded text was followed: the test before the implementation.
      const written = calls.slice(1, 3).map((call) => JSON.stringify(call.input));
      expect(written[0]).toContain('test/slugify.test.js');
      expect(written[1]).toContain('src/slugify.js');
      // The fixture's settings.json SessionStart hook never ran.
      expect(existsSync(path.join(repo, 'settings-hook-ran'))).toBe(false);
    });
  }

  it('both backends list the project skill alike', () => {
    expect(listings.get('messages')).toEqual(listings.get('claude-code'));
  });
});
