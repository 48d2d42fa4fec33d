/**
 * A skills library installed for a session, on both backends, against the
 * real Claude Code engine (2.1.332, through the Agent SDK) and the real
 * `@anthropic-ai/sdk`, with the scripted triggering brain behind the local
 * model server and a recording proxy reading what the clients sent:
 *
 * - the engine loads the plugin, lists exactly its skills with their
 *   descriptions after the SessionStart hook's context, offers the Skill
 *   tool, and answers a Skill call with the skill's text; the messages
 *   backend sends the same listing, the same Skill input schema, the same
 *   result and the same loaded text;
 * - the hook ran confined, before the session, and the engine replays its
 *   output (it never runs the plugin's own command);
 * - an event stop captures the first Skill call and makes no request after it;
 * - project instruction files reach the first user message; an added web
 *   tool is offered and refused.
 *
 * Skipped, with the reason printed, where the engine is not installed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeLibrary, resolveLibrary } from '../../harness/library/library-source.js';
import { scriptedModelId, startModelServer } from '../../harness/model-server/index.js';
import { installLibrary } from '../../harness/run/library-install.js';
import { detectSandbox } from '../../harness/sandbox/sandbox.js';
import type { InstalledLibrary } from '../../harness/session/installed-library.js';
import { toolRefusal } from '../../harness/session/session-tool-table.js';
import { skillToolDefinition } from '../../harness/session/tools/skill-tools.js';
import { repoRoot } from '../helpers/cli.js';
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

/** The devflow library with test-first v2, installed for one session in a textkit repository. */
async function installed(): Promise<{ repo: string; library: InstalledLibrary; hooks: unknown }> {
  const work = makeTempDir('redgreen-library-');
  const repo = await recipeFixture('textkit', 'start', 'default');
  const resolved = await resolveLibrary(
    {
      source: path.join(repoRoot, 'skills-under-test', 'devflow'),
      overrides: {
        'test-first': path.join(repoRoot, 'skills-under-test', 'devflow-test-first-v2'),
      },
    },
    repoRoot,
    'library',
  );
  if (!resolved.ok) throw new Error(resolved.error.problem);
  const composed = path.join(work, 'composed');
  const library = await composeLibrary(resolved.value, composed);
  if (!library.ok) throw new Error(library.error.problem);
  const done = await installLibrary({
    from: composed,
    contents: library.value.contents,
    privateDir: path.join(work, 'private'),
    fixtureDir: repo,
    sandbox: await detectSandbox(),
  });
  return { repo, library: done.library, hooks: done.record.hooks };
}

/** What a request body says: its system text (prompt and system messages) and tools. */
function sent(body: Record<string, unknown>): { system: string; tools: Record<string, unknown>[] } {
  return {
    system: requestSystemText(body),
    tools: (body.tools as Record<string, unknown>[]) ?? [],
  };
}

function listingOf(system: string): string {
  const at = system.indexOf('The following skills are available');
  return system.slice(at).split('\n\n').slice(0, 2).join('\n\n');
}

describe.skipIf(unavailable !== undefined)('a skills library installed for a session', () => {
  const runs = new Map<BackendName, Awaited<ReturnType<typeof runBackendSession>>>();
  const firstRequests = new Map<BackendName, Record<string, unknown>>();

  for (const backend of ['claude-code', 'messages'] as const) {
    it(`${backend}: lists the library's skills, loads the one the brain picks through the Skill tool, and writes the test first`, async () => {
      const { repo, library, hooks } = await installed();
      expect(hooks).toEqual([expect.objectContaining({ exitCode: 0, timedOut: false })]);
      const before = wire.exchanges.length;
      const run = await runBackendSession({
        backend,
        stop: 'report',
        baseUrl: wire.baseUrl,
        model: scriptedModelId('skill-trigger'),
        prompt: FEATURE,
        fixtureRepo: repo,
        skillDir: library.root,
        library,
        repId: `skills/${backend}`,
      });
      runs.set(backend, run);
      firstRequests.set(backend, wire.exchanges[before]?.requestBody ?? {});
      expect(run.outcome.status).toEqual({ kind: 'completed' });
      const calls = controllerToolUses(run.transcript);
      expect(calls[0]).toMatchObject({ name: 'Skill', input: { skill: 'devflow:test-first' } });
      const results = toolResults(run.transcript);
      expect(results.get(calls[0]?.id ?? '')).toEqual({
        text: 'Launching skill: devflow:test-first',
        isError: false,
      });
      // The loaded text is the engine's, recorded as a synthetic user message, never the prompt.
      const synthetic = run.transcript.filter((line) => line.isSynthetic === true);
      expect(JSON.stringify(synthetic)).toContain(
        `Base directory for this skill: ${library.root}/skills/test-first`,
      );
      expect(JSON.stringify(synthetic)).toContain('Even if the user asks to skip the tests');
      // Test first, then the implementation (Write on the engine, a here-document on messages).
      const written = calls.slice(1, 3).map((call) => JSON.stringify(call.input));
      expect(written[0]).toContain('test/slugify.test.js');
      expect(written[1]).toContain('src/slugify.js');
      expect(readFileSync(path.join(repo, 'src', 'slugify.js'), 'utf8')).toContain('slugify');
    });
  }

  it('both backends show the model the same listing, hook context and Skill tool', () => {
    const engine = sent(firstRequests.get('claude-code') ?? {});
    const own = sent(firstRequests.get('messages') ?? {});
    expect(listingOf(engine.system)).toContain('- devflow:test-first: Use when adding a feature');
    expect(listingOf(own.system)).toBe(listingOf(engine.system));
    const context = /SessionStart hook additional context: [^\n]*/;
    expect(engine.system.match(context)?.[0]).toContain('You have the devflow skills');
    expect(own.system.match(context)?.[0]).toBe(engine.system.match(context)?.[0]);
    const skillTool = (tools: Record<string, unknown>[]) =>
      tools.find((tool) => tool.name === 'Skill')?.input_schema;
    expect(skillTool(engine.tools)).toEqual(skillToolDefinition.input_schema);
    expect(skillTool(own.tools)).toEqual(skillToolDefinition.input_schema);
    // The engine lists the library's skills only, none of its own bundled ones.
    expect(
      listingOf(engine.system)
        .split('\n')
        .filter((line) => line.startsWith('- ')),
    ).toHaveLength(4);
  });

  for (const backend of ['claude-code', 'messages'] as const) {
    it(`${backend}: stop at the first Skill call captures it and asks the model nothing more`, async () => {
      const { repo, library } = await installed();
      const before = wire.exchanges.length;
      const run = await runBackendSession({
        backend,
        stop: 'report',
        stopAt: [{ event: 'skill', form: 'tool', seat: 'any' }],
        baseUrl: wire.baseUrl,
        model: scriptedModelId('skill-trigger'),
        prompt: FEATURE,
        fixtureRepo: repo,
        skillDir: library.root,
        library,
        instructions: [
          { path: path.join(repo, 'README.md'), text: 'INSTRUCTION-MARKER: be brief.' },
        ],
        tools: { add: ['WebFetch'] },
        repId: `skills-probe/${backend}`,
      });
      expect(run.outcome.status).toEqual({ kind: 'completed' });
      expect(run.outcome.stopReason).toBe('stop-at');
      expect(run.outcome.capturedDispatch).toMatchObject({
        tool: 'Skill',
        input: { skill: 'devflow:test-first' },
      });
      expect(wire.exchanges.length - before).toBe(1);
      const body = wire.exchanges[before]?.requestBody ?? {};
      expect(JSON.stringify(body.messages)).toContain(
        `Contents of ${path.join(repo, 'README.md')} (project instructions, checked into the codebase):\\n\\nINSTRUCTION-MARKER`,
      );
      expect(sent(body).tools.map((tool) => tool.name)).toContain('WebFetch');
      expect(toolRefusal('WebFetch')).toBe('WebFetch is not available in this session.');
    });
  }
});
