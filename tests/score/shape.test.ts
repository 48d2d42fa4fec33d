import { describe, expect, it } from 'vitest';
import { resolutionShape, type ShapeContext } from '../../harness/score/shape.js';
import type { ToolCall } from '../../harness/score/tool-call.js';
import { OWN_PLAN, PLAN_A_CITED, PLAN_B_CITED } from './fixture-facts.js';

const context: ShapeContext = {
  ownPlan: OWN_PLAN,
  citedHashes: [...PLAN_A_CITED, ...PLAN_B_CITED],
  spec: { workspaceScript: 'sdd-workspace', workspaceRoot: '.superpowers/sdd', minHashPrefix: 7 },
};

let next = 0;
function bash(command: string): ToolCall {
  next++;
  return { id: `toolu_${next}`, name: 'Bash', input: { command } };
}
function tool(name: string, input: Record<string, unknown>): ToolCall {
  next++;
  return { id: `toolu_${next}`, name, input };
}

function shapeOf(...calls: ToolCall[]) {
  return resolutionShape(calls, context);
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
      const result = shapeOf(bash(command));
      expect(result.shape).toBe('forensic');
      expect(result.forensicCalls).toBe(1);
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
    const result = shapeOf(bash('git show 0d2b573; git show 4b84f94'), bash('git show 2dad909'));
    expect(result.forensicCalls).toBe(2);
  });

  it('treats every hash of a cited range as cited', () => {
    const ranged = { ...context, citedHashes: ['1111111..2222222'] };
    expect(resolutionShape([bash('git show 2222222')], ranged).forensicCalls).toBe(1);
    expect(resolutionShape([bash('git show 1111111')], ranged).forensicCalls).toBe(1);
    expect(resolutionShape([bash('git show 3333333')], ranged).forensicCalls).toBe(0);
  });

  it('with no cited hashes, nothing is forensic', () => {
    expect(resolutionShape([bash('git log -p')], { ...context, citedHashes: [] }).shape).toBe(
      'neither',
    );
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
      const result = shapeOf(call);
      expect(result.shape).toBe('structural');
      expect(result.structuralCalls).toBe(1);
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
      expect(shapeOf(call).structuralCalls).toBe(0);
    });
  }
});

describe('shapes', () => {
  it('is both when a session resolves structurally and also reads a cited diff', () => {
    const result = shapeOf(
      bash('scripts/sdd-workspace docs/plans/2026-07-06-widget-export.md'),
      bash('git log --oneline'),
      bash('git show 4b84f94'),
    );
    expect(result.shape).toBe('both');
    expect(result.evidence).toEqual([
      { callId: expect.any(String), kind: 'structural', why: 'ran sdd-workspace' },
      { callId: expect.any(String), kind: 'forensic', why: 'git show 4b84f94' },
    ]);
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
    expect(resolutionShape([], context)).toEqual({
      shape: 'neither',
      structuralCalls: 0,
      forensicCalls: 0,
      evidence: [],
    });
  });
});
