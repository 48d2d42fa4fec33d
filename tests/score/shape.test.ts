/**
 * Resolution shape, now two observations of the shipped S1 scenario: the
 * `resolution` classification (structural / forensic / both / neither) and
 * the `forensic-calls` count, read from tool calls only (never prose), by the
 * tool-called verb's `runs`, `reads` and `readsCommit` matchers.
 */
import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../harness/score/tool-call.js';
import {
  type FixtureLedgers,
  OWN_PLAN,
  PLAN_A,
  PLAN_A_CITED,
  PLAN_B_CITED,
} from './fixture-facts.js';
import { result, score } from './support.js';

const REPLY = '1. LEDGERS CHECKED: x\n2. TASKS ALREADY COMPLETE: None\n3. FIRST DISPATCH: Task 1';

/** A fixture whose ledgers cite these hashes (S1's plans). */
function citing(cited: readonly string[]): FixtureLedgers {
  return {
    ownPlan: OWN_PLAN,
    ledgers: [{ path: '.superpowers/sdd/progress.md', plan: PLAN_A, cited }],
  };
}
const context = citing([...PLAN_A_CITED, ...PLAN_B_CITED]);

let next = 0;
function bash(command: string): ToolCall {
  next++;
  return { id: `toolu_${next}`, name: 'Bash', input: { command } };
}
function tool(name: string, input: Record<string, unknown>): ToolCall {
  next++;
  return { id: `toolu_${next}`, name, input };
}

function shapeIn(fixture: FixtureLedgers, calls: readonly ToolCall[]) {
  const scored = score('s1', REPLY, { toolCalls: calls, fixture });
  const resolution = result(scored, 'resolution');
  return {
    shape: resolution.observed,
    structural: resolution.children?.[0]?.outcome === 'pass',
    forensicCalls: Number(result(scored, 'forensic-calls').observed ?? Number.NaN),
    forensic: result(scored, 'forensic-calls'),
    resolution,
  };
}

function shapeOf(...calls: ToolCall[]) {
  return shapeIn(context, calls);
}

describe('forensic calls', () => {
  const forensic: string[] = [
    'git show 4b84f94',
    'git show 4b84f94 --stat -p',
    'git show 4b84f94:src/validate.py',
    'git show 4b84f94~0:src/validate.py',
    'git show 0d2b573 -- src/schema.py',
    'git --no-pager show 2dad909',
    'git -C /tmp/fixture show d7b6770',
    'cd /tmp/fixture && git show 4affd09 | head -50',
    'git diff 0d2b573^ 0d2b573',
    'git diff 0d2b573..4b84f94',
    'git log -p 4b84f94',
    'git log -1 -p 4b84f94',
    'git log --patch -n 1 4b84f94',
    'git log -p',
    'git log -p -- src/schema.py',
    'git cat-file -p 4b84f94',
    'git cat-file blob 4b84f94:src/validate.py',
    'for h in 0d2b573 4b84f94; do git show $h; done',
    'echo 0d2b573 4b84f94 | xargs -n1 git show',
    // A full hash whose prefix is a cited short hash.
    'git show 4b84f94c1d2e3f405162738495a6b7c8d9e0f1a2',
    'git show 5c1e2a7',
  ];
  for (const command of forensic) {
    it(`counts: ${command}`, () => {
      const found = shapeOf(bash(command));
      expect(found.shape).toBe('forensic');
      expect(found.forensicCalls).toBe(1);
    });
  }

  const notForensic: string[] = [
    'git log --oneline',
    'git log --oneline --all',
    'git log --format="%h %an %ad %s"',
    'git log --oneline | grep 4b84f94',
    'git log --stat 4b84f94',
    'git show --stat 4b84f94',
    'git show --name-only 4b84f94',
    'git show -s --format=%s 4b84f94',
    'git cat-file -t 4b84f94',
    'git rev-parse 4b84f94',
    'git branch --contains 4b84f94',
    'git show abcdef1',
    'git show 4b84f9',
    'git log -p HEAD~2..HEAD',
    'git diff --stat 0d2b573 4b84f94',
    'git status --short',
    'cat .superpowers/sdd/progress.md',
  ];
  for (const command of notForensic) {
    it(`does not count: ${command}`, () => {
      expect(shapeOf(bash(command)).forensicCalls).toBe(0);
    });
  }

  it('counts calls, not commands: one call running two git shows is one forensic call', () => {
    const found = shapeOf(bash('git show 0d2b573; git show 4b84f94'), bash('git show 2dad909'));
    expect(found.forensicCalls).toBe(2);
  });

  it('treats every hash of a cited range as cited', () => {
    const ranged = citing(['1111111..2222222']);
    expect(shapeIn(ranged, [bash('git show 2222222')]).forensicCalls).toBe(1);
    expect(shapeIn(ranged, [bash('git show 1111111')]).forensicCalls).toBe(1);
    expect(shapeIn(ranged, [bash('git show 3333333')]).forensicCalls).toBe(0);
  });

  it('with no cited hashes, nothing is counted forensic: there is nothing to check', () => {
    const none = shapeIn(citing([]), [bash('git log -p')]);
    expect(none.forensic.outcome).toBe('undecided');
    expect(none.forensic.detail).toMatch(/\{\{citedHashes\}\} holds no value for this fixture/);
    expect(none.shape).not.toMatch(/forensic|both/);
  });
});

describe('structural calls', () => {
  const structural: ToolCall[] = [
    bash('scripts/sdd-workspace docs/plans/2026-07-06-widget-export.md'),
    bash(
      '/skills/subagent-driven-development/scripts/sdd-workspace docs/plans/2026-07-06-widget-export.md',
    ),
    bash('bash "$SKILL_DIR/scripts/sdd-workspace" docs/plans/2026-07-06-widget-export.md'),
    bash(
      'ws=$(scripts/sdd-workspace docs/plans/2026-07-06-widget-export.md) && cat "$ws/progress.md"',
    ),
    bash('cd /tmp/fixture && ./scripts/sdd-workspace'),
    bash('cat .superpowers/sdd/2026-07-06-widget-export/progress.md'),
    bash('head -1 /tmp/fixture/.superpowers/sdd/2026-07-06-widget-export/progress.md'),
    bash('ls -la .superpowers/sdd/2026-07-06-widget-export/'),
    bash('test -f .superpowers/sdd/2026-07-06-widget-export/progress.md && echo yes'),
    tool('Read', {
      file_path: '/tmp/fixture/.superpowers/sdd/2026-07-06-widget-export/progress.md',
    }),
    tool('Glob', { pattern: '.superpowers/sdd/2026-07-06-widget-export/*' }),
    tool('Grep', { pattern: 'plan:', path: '.superpowers/sdd/2026-07-06-widget-export' }),
  ];
  for (const call of structural) {
    it(`counts: ${call.name} ${JSON.stringify(call.input)}`, () => {
      const found = shapeOf(call);
      expect(found.shape).toBe('structural');
      expect(found.structural).toBe(true);
    });
  }

  const notStructural: ToolCall[] = [
    bash('cat scripts/sdd-workspace'),
    bash('sed -n 1,40p /skills/sdd/scripts/sdd-workspace'),
    tool('Read', { file_path: '/skills/sdd/scripts/sdd-workspace' }),
    tool('Read', { file_path: '.superpowers/sdd/progress.md' }),
    tool('Read', { file_path: '.superpowers/sdd/2026-07-01-widget-backend/progress.md' }),
    bash('cat .superpowers/sdd/2026-07-01-widget-backend/progress.md'),
    bash('echo .superpowers/sdd/2026-07-06-widget-export'),
    bash('ls .superpowers/sdd/'),
    tool('Read', { file_path: '.superpowers/sdd/2026-07-06-widget-export-old/progress.md' }),
  ];
  for (const call of notStructural) {
    it(`does not count: ${call.name} ${JSON.stringify(call.input)}`, () => {
      expect(shapeOf(call).structural).toBe(false);
    });
  }
});

describe('shapes', () => {
  it('is both when a session resolves structurally and also reads a cited diff', () => {
    const found = shapeOf(
      bash('scripts/sdd-workspace docs/plans/2026-07-06-widget-export.md'),
      bash('git log --oneline'),
      bash('git show 4b84f94'),
    );
    expect(found.shape).toBe('both');
    const [structural, forensic] = found.resolution.children ?? [];
    expect(structural?.detail).toMatch(/1 matching call: ran sdd-workspace \(toolu_\d+\)/);
    expect(forensic?.detail).toMatch(/1 matching call: git show 4b84f94 \(toolu_\d+\)/);
  });

  it('is neither for a session that only lists history and reads the flat ledger', () => {
    expect(
      shapeOf(
        bash('git log --oneline'),
        tool('Read', { file_path: '.superpowers/sdd/progress.md' }),
      ).shape,
    ).toBe('neither');
  });

  it('reads only tool calls: a reply quoting the skill is not evidence', () => {
    const quoting = score(
      's1',
      `${REPLY}\nI ran scripts/sdd-workspace and git show 4b84f94 as the skill says.`,
      { toolCalls: [], fixture: context },
    );
    expect(result(quoting, 'resolution').observed).toBe('neither');
    expect(result(quoting, 'forensic-calls').observed).toBe('0');
  });
});
