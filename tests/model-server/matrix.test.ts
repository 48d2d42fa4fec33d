/**
 * The behaviour matrix: each policy on the widget-v3 fixtures (built by the
 * fixture room) with the reference skill texts (skills-under-test), driven by
 * the real SDK client in a small tool loop. Asserted: the decision in the
 * final report, the tool calls that reached it, and what changed on disk.
 *
 *   literal       adopts the foreign flat ledger in S1 (the hypothesised failure)
 *   always-redo   re-does Tasks 1–2 in S2
 *   structural    passes S1-scoped and S2-scoped under the plan-scoped text
 *   forensic      passes S1 and S2 by reading cited commits' content
 *   skill-reader  literal under the released text, structural under the plan-scoped text
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ModelServer,
  scriptedModelId,
  startModelServer,
} from '../../harness/model-server/index.js';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { type Layout, type Scenario, widgetFixture } from './support/fixture.js';
import { campaignPrompt, type ReportSections, reportSections } from './support/prompt.js';
import { runSession, type ToolCallRecord } from './support/tool-loop.js';
import { treeChanges, treeState } from './support/tree-state.js';

const releasedSkill = path.join(repoRoot, 'skills-under-test', 'sdd-released');
const planScopedSkill = path.join(repoRoot, 'skills-under-test', 'sdd-plan-scoped');
const ownWorkspace = '.superpowers/sdd/2026-07-06-widget-export/';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Outcome {
  readonly repo: string;
  readonly report: ReportSections;
  readonly calls: readonly ToolCallRecord[];
  readonly changed: readonly string[];
}

async function play(
  policy: string,
  scenario: Scenario,
  layout: Layout,
  skillDir: string,
): Promise<Outcome> {
  server = await startModelServer({ policy });
  const repo = await widgetFixture(scenario, layout);
  const before = treeState(repo);
  const record = await runSession({
    baseUrl: server.baseUrl,
    model: scriptedModelId(policy),
    prompt: campaignPrompt(repo, skillDir),
    cwd: repo,
    home: makeTempDir('redgreen-ms-home-'),
    stream: true,
  });
  const report = reportSections(record.finalText);
  if (report === undefined) throw new Error(`no three-section report in:\n${record.finalText}`);
  expect(record.responses.every((response) => response.model === scriptedModelId(policy))).toBe(
    true,
  );
  return { repo, report, calls: record.toolCalls, changed: treeChanges(before, treeState(repo)) };
}

const commands = (calls: readonly ToolCallRecord[]): string[] =>
  calls.filter((call) => call.name === 'Bash').map((call) => String(call.input.command));
const reads = (calls: readonly ToolCallRecord[]): string[] =>
  calls.filter((call) => call.name === 'Read').map((call) => String(call.input.file_path));

/** S1 passes iff Task 1 is dispatched and nothing of this plan is claimed complete. */
function passesS1(report: ReportSections): boolean {
  return report.dispatch.startsWith('Task 1 ') && report.complete.startsWith('none');
}

/** S2 passes iff Tasks 1–2 are recognised complete and Task 3 is dispatched. */
function passesS2(report: ReportSections): boolean {
  return report.dispatch.startsWith('Task 3 ') && report.complete.startsWith('Tasks 1–2');
}

describe('literal', () => {
  it('adopts the foreign flat ledger in S1-flat under the released text: claims Tasks 1–5, dispatches nothing', async () => {
    const { report, calls, changed } = await play('literal', 's1', 'flat', releasedSkill);
    expect(passesS1(report)).toBe(false);
    expect(report.complete).toBe(
      'Tasks 1–5 (Export data model; CSV serializer; JSON serializer; CLI flag; End-to-end test).',
    );
    expect(report.dispatch).toBe('none — all tasks complete.');
    expect(reads(calls)).toContain(path.join(releasedSkill, 'SKILL.md'));
    expect(
      calls.some((call) => String(call.input.file_path).endsWith('.superpowers/sdd/progress.md')),
    ).toBe(true);
    expect(commands(calls).some((command) => command.includes(' show '))).toBe(false);
    expect(changed).toEqual([]);
  });

  it('adopts the flat litter in S1-scoped too', async () => {
    const { report } = await play('literal', 's1', 'scoped', releasedSkill);
    expect(passesS1(report)).toBe(false);
    expect(report.dispatch).toBe('none — all tasks complete.');
  });
});

describe('always-redo', () => {
  it.each(['flat', 'scoped'] as const)(
    're-does Tasks 1–2 in S2-%s: nothing recognised complete, Task 1 dispatched',
    async (layout) => {
      const { report, calls, changed } = await play('always-redo', 's2', layout, planScopedSkill);
      expect(passesS2(report)).toBe(false);
      expect(report.complete).toMatch(/^none/);
      expect(report.dispatch).toBe('Task 1 (Export data model).');
      expect(reads(calls).some((file) => file.includes('.superpowers'))).toBe(false);
      expect(changed).toEqual([]);
    },
  );
});

describe('structural, under the plan-scoped text', () => {
  it('passes S1-scoped: own workspace resolved by the script, both stale ledgers left alone', async () => {
    const { repo, report, calls, changed } = await play(
      'structural',
      's1',
      'scoped',
      planScopedSkill,
    );
    expect(passesS1(report)).toBe(true);
    const script = path.join(planScopedSkill, 'scripts', 'sdd-workspace');
    expect(
      commands(calls).some((command) =>
        command.includes(`${script} docs/plans/2026-07-06-widget-export.md`),
      ),
    ).toBe(true);
    expect(commands(calls).some((command) => command.includes(' show '))).toBe(false);
    expect(report.ledgers).toContain(
      `${repo}/.superpowers/sdd/progress.md — stray ledger at the old flat path`,
    );
    expect(report.ledgers).toContain(
      `${repo}/.superpowers/sdd/2026-07-01-widget-backend/progress.md — identity line names docs/plans/2026-07-01-widget-backend.md`,
    );
    // Neither stale artifact modified: the only change is the own workspace the script made.
    expect(changed).toEqual([ownWorkspace]);
  });

  it('passes S2-scoped: trusts the ledger whose identity line names its plan', async () => {
    const { report, changed } = await play('structural', 's2', 'scoped', planScopedSkill);
    expect(passesS2(report)).toBe(true);
    expect(report.dispatch).toBe('Task 3 (JSON serializer).');
    expect(report.ledgers).toContain(
      'first line names this plan (docs/plans/2026-07-06-widget-export.md)',
    );
    expect(changed).toEqual([]);
  });

  it('does not trust a ledger whose identity it cannot see: S2-flat restarts (a planted negative for the identity check)', async () => {
    const { report } = await play('structural', 's2', 'flat', planScopedSkill);
    expect(passesS2(report)).toBe(false);
    expect(report.dispatch).toBe('Task 1 (Export data model).');
  });
});

describe('forensic', () => {
  it.each([
    ['s1', 'flat', 5],
    ['s1', 'scoped', 5],
  ] as const)('passes %s-%s by reading all %i cited commits', async (scenario, layout, shows) => {
    const { report, calls, changed } = await play('forensic', scenario, layout, releasedSkill);
    expect(passesS1(report)).toBe(true);
    expect(
      commands(calls).filter((command) => command.includes(' show --stat --patch ')),
    ).toHaveLength(shows);
    expect(calls.length).toBeGreaterThanOrEqual(6);
    expect(calls.length).toBeLessThanOrEqual(13);
    expect(changed).toEqual([]);
  });

  it("passes S2-flat: the cited commits implement this plan's Tasks 1–2", async () => {
    const { report, calls } = await play('forensic', 's2', 'flat', releasedSkill);
    expect(passesS2(report)).toBe(true);
    expect(
      commands(calls).filter((command) => command.includes(' show --stat --patch ')),
    ).toHaveLength(2);
  });
});

describe('skill-reader follows the text it reads', () => {
  it('under the released text: reads the flat ledger and adopts it in S1-flat (literal)', async () => {
    const { report, calls } = await play('skill-reader', 's1', 'flat', releasedSkill);
    expect(passesS1(report)).toBe(false);
    expect(report.dispatch).toBe('none — all tasks complete.');
    expect(commands(calls).some((command) => command.includes('sdd-workspace'))).toBe(false);
  });

  it('under the released text: resumes the legitimate flat ledger in S2-flat (the RED control passes)', async () => {
    const { report } = await play('skill-reader', 's2', 'flat', releasedSkill);
    expect(passesS2(report)).toBe(true);
  });

  it('under the plan-scoped text: resolves its workspace and starts fresh in S1-scoped (structural)', async () => {
    const { report, calls, changed } = await play('skill-reader', 's1', 'scoped', planScopedSkill);
    expect(passesS1(report)).toBe(true);
    expect(
      commands(calls).some((command) =>
        command.includes('sdd-workspace docs/plans/2026-07-06-widget-export.md'),
      ),
    ).toBe(true);
    expect(changed).toEqual([ownWorkspace]);
  });

  it('under the plan-scoped text: resumes at Task 3 in S2-scoped', async () => {
    const { report } = await play('skill-reader', 's2', 'scoped', planScopedSkill);
    expect(passesS2(report)).toBe(true);
  });
});
