/**
 * The readers a policy decides with: the prompt (repo, plan, skill dir), the
 * skill text's ledger instruction, ledgers and their identity lines, plans and
 * their task specs, and Claude Code's numbered Read output. Each reader is
 * shown accepting what the campaign produces and rejecting what it must not.
 */
import { describe, expect, it } from 'vitest';
import { fileText } from '../../harness/model-server/policies/tools.js';
import { sessionKeyOf } from '../../harness/model-server/session-key.js';
import { identityNamesPlan, parseLedger } from '../../packs/sdd/brains/ledger.js';
import { parsePlanTasks } from '../../packs/sdd/brains/plan.js';
import { promptForbidsDispatch, readPromptFacts } from '../../packs/sdd/brains/prompt-facts.js';
import { ledgerInstruction } from '../../packs/sdd/brains/skill-text.js';
import { campaignPrompt } from './support/prompt.js';

describe('reading the prompt', () => {
  it('finds the repository, the plan and the skill directory in the campaign prompt', () => {
    const facts = readPromptFacts(campaignPrompt('/tmp/rep 1/widget', '/opt/skills/sdd'));
    expect(facts).toEqual({
      ok: true,
      value: {
        repo: '/tmp/rep 1/widget',
        planPath: 'docs/plans/2026-07-06-widget-export.md',
        planFile: '/tmp/rep 1/widget/docs/plans/2026-07-06-widget-export.md',
        planRelative: 'docs/plans/2026-07-06-widget-export.md',
        skillDir: '/opt/skills/sdd',
        skillFile: '/opt/skills/sdd/SKILL.md',
      },
    });
  });

  it('tolerates backticks, trailing slashes and the skill path on the same line', () => {
    const facts = readPromptFacts(
      'You are the SDD controller for the repository at `/r/w/`.\n' +
        'the implementation plan docs/p.md (relative to the repository), skill whose complete text and scripts are at: "/s/k/"',
    );
    expect(facts.ok && facts.value).toMatchObject({
      repo: '/r/w',
      planFile: '/r/w/docs/p.md',
      skillDir: '/s/k',
    });
  });

  it.each([
    ['the fixture repository path', campaignPrompt('<FIXTURE_REPO>', '/s')],
    ['the fixture repository path', campaignPrompt('relative/repo', '/s')],
    ['the skill directory', campaignPrompt('/r', '<SKILL_DIR>')],
    [
      'the plan path',
      campaignPrompt('/r', '/s').replace('2026-07-06-widget-export.md', 'the plan'),
    ],
  ])('names %s when the prompt does not give it', (item, prompt) => {
    const facts = readPromptFacts(prompt);
    expect(facts.ok).toBe(false);
    if (!facts.ok) expect(facts.error.item).toBe(item);
  });
});

describe('whether the prompt forbids dispatching', () => {
  it('reads the scope limit of the campaign prompt, and its absence', () => {
    expect(promptForbidsDispatch(campaignPrompt('/r', '/s'))).toBe(true);
    const continuePrompt = campaignPrompt('/r', '/s').split('\n\nScope limit')[0] ?? '';
    expect(continuePrompt).toContain('Continue executing the plan.');
    expect(promptForbidsDispatch(continuePrompt)).toBe(false);
  });

  it.each([
    ["Don't dispatch subagents yet.", true],
    ['You must not dispatch anything.', true],
    ['Never dispatch a reviewer before the implementer.', true],
    ['Dispatch the implementer for the next task.', false],
    ['Do not implement tasks yourself; dispatch them.', false],
  ])('%s → %s', (text, forbidden) => {
    expect(promptForbidsDispatch(text)).toBe(forbidden);
  });
});

describe("reading the skill text's ledger instruction", () => {
  it('plan-scoped markers win over the flat path the plan-scoped text also mentions', () => {
    expect(
      ledgerInstruction(
        'run `scripts/sdd-workspace PLAN_FILE`; a stray `.superpowers/sdd/progress.md` is not yours',
      ),
    ).toBe('plan-scoped');
    expect(ledgerInstruction('first line `# SDD ledger — plan: <path>`')).toBe('plan-scoped');
    expect(
      ledgerInstruction('cat "$(git rev-parse --show-toplevel)/.superpowers/sdd/progress.md"'),
    ).toBe('flat');
    expect(ledgerInstruction('run `scripts/sdd-workspace` and keep notes')).toBe('none');
  });
});

describe('reading ledgers', () => {
  it('reads the identity line, completed tasks, cited commits and the final review', () => {
    const ledger = parseLedger(
      '# SDD ledger — plan: docs/plans/2026-07-06-widget-export.md\n\n' +
        'Task 1: complete (commits 6c1f2aa, review clean)\n' +
        'Task 2: complete (commits 1a2b3c4..5d6e7f8, review clean)\n' +
        'Task 3: in progress\n\n## Final whole-branch review — DONE\n',
    );
    expect(ledger).toEqual({
      identity: 'docs/plans/2026-07-06-widget-export.md',
      entries: [
        { task: 1, commits: '6c1f2aa' },
        { task: 2, commits: '1a2b3c4..5d6e7f8' },
      ],
      finalReviewDone: true,
    });
  });

  it('has no identity unless the FIRST line is one', () => {
    expect(parseLedger('Task 1: complete (commits abc1234)\n').identity).toBeUndefined();
    expect(
      parseLedger('\n# SDD ledger — plan: docs/plans/x.md\nTask 1: complete').identity,
    ).toBeUndefined();
  });

  it('matches an identity against this plan, relative or absolute, and rejects another plan', () => {
    const plan = { planRelative: 'docs/plans/b.md', planFile: '/r/docs/plans/b.md' };
    expect(identityNamesPlan('docs/plans/b.md', plan)).toBe(true);
    expect(identityNamesPlan('./docs/plans/b.md', plan)).toBe(true);
    expect(identityNamesPlan('/r/docs/plans/b.md', plan)).toBe(true);
    expect(identityNamesPlan('docs/plans/a.md', plan)).toBe(false);
    expect(identityNamesPlan('b.md', plan)).toBe(false);
  });
});

describe('reading plans and Read output', () => {
  it("reads tasks, titles and the files each task's spec names", () => {
    const tasks = parsePlanTasks(
      '# Plan\n\n## Task 1: Storage schema\n\nDefine it in `src/schema.py`: fields `id` (int).\n\n' +
        '## Task 5: Lint gate\n\nAdd `.lint.cfg` with a 100-column limit.\n\n## Notes\nnot a task `x/y.py`\n',
    );
    expect(tasks.map((task) => [task.number, task.title, task.files])).toEqual([
      [1, 'Storage schema', ['src/schema.py']],
      [5, 'Lint gate', ['.lint.cfg']],
    ]);
  });

  it("strips Claude Code's line numbers and system reminders, and leaves unnumbered text alone", () => {
    expect(
      fileText({
        text: '1\t# Title\n2\t\n3\tTask 1: complete\n4\t\n<system-reminder>\nbe careful\n</system-reminder>',
        isError: false,
      }),
    ).toBe('# Title\n\nTask 1: complete\n');
    expect(fileText({ text: '     1\u2192alpha\n     2\u2192beta', isError: false })).toBe(
      'alpha\nbeta',
    );
    expect(fileText({ text: 'Task 1: complete\n2 apples', isError: false })).toBe(
      'Task 1: complete\n2 apples',
    );
  });
});

describe('the session key', () => {
  const messages = [{ role: 'user' as const, content: 'first words' }];
  const metadata = { user_id: JSON.stringify({ device_id: 'd', session_id: 'from-metadata' }) };

  it('prefers x-redgreen-session, then metadata.user_id, then x-claude-code-session-id, then a hash', () => {
    const headers = { 'x-redgreen-session': 'rep-7', 'x-claude-code-session-id': 'from-header' };
    expect(sessionKeyOf(headers, { messages, metadata })).toEqual({
      key: 'rep-7',
      source: 'header',
    });
    expect(
      sessionKeyOf({ 'x-claude-code-session-id': 'from-header' }, { messages, metadata }),
    ).toEqual({ key: 'from-metadata', source: 'metadata' });
    expect(
      sessionKeyOf(
        { 'x-claude-code-session-id': 'from-header' },
        { messages, metadata: { user_id: 'plain-user' } },
      ),
    ).toEqual({ key: 'from-header', source: 'claude-code-header' });
    const hashed = sessionKeyOf({}, { messages });
    expect(hashed.source).toBe('first-message');
    expect(
      sessionKeyOf({}, { messages: [...messages, { role: 'assistant', content: 'x' }] }),
    ).toEqual(hashed);
    expect(sessionKeyOf({}, { messages: [{ role: 'user', content: 'other words' }] }).key).not.toBe(
      hashed.key,
    );
  });

  it('keys a conversation the same whether or not its first message carries a moving cache breakpoint', () => {
    const block = { type: 'text' as const, text: 'resume the plan' };
    const marked = sessionKeyOf(
      {},
      {
        messages: [
          { role: 'user', content: [{ ...block, cache_control: { type: 'ephemeral' as const } }] },
        ],
      },
    );
    const plain = sessionKeyOf({}, { messages: [{ role: 'user', content: [block] }] });
    expect(marked).toEqual(plain);
    const other = sessionKeyOf(
      {},
      { messages: [{ role: 'user', content: [{ ...block, text: 'something else' }] }] },
    );
    expect(other.key).not.toBe(plain.key);
  });
});
