import { describe, expect, it } from 'vitest';
import { calibrationWarnings } from '../../harness/authoring/scenario-lint.js';
import { closestMatch } from '../../harness/lib/did-you-mean.js';
import type { RepScore } from '../../harness/score/score-rep.js';
import { claudeCodeTools } from '../../harness/session/claude-code-backend.js';
import { scenarioToolNames, sessionToolNames } from '../../harness/session/session-tool-table.js';
import { offeredTools } from '../../harness/session/tools/session-tools.js';
import { loadChangedScenario } from '../helpers/scenario-copy.js';

/** A copy of S1 (or S1-PROBE) with one more post check; the error the scenario loads with, or 'loads'. */
function withCheck(check: Record<string, unknown>, base = 's1'): Promise<string> {
  return loadChangedScenario(base, (scenario) => {
    (scenario.checks as { post: unknown[] }).post.push({ id: 'planted', ...check });
  });
}

describe('tool names a check may name', () => {
  it('come from one table that both backends take their tools from', () => {
    expect(offeredTools('report').map((tool) => tool.name)).toEqual(
      sessionToolNames('messages', 'report', { library: false }),
    );
    expect(offeredTools('first-dispatch').map((tool) => tool.name)).toEqual(
      sessionToolNames('messages', 'first-dispatch', { library: false }),
    );
    expect(claudeCodeTools('report')).toEqual([
      'Bash',
      'Read',
      'Glob',
      'Grep',
      'Edit',
      'Write',
      'NotebookEdit',
      'Task',
    ]);
    expect(claudeCodeTools('complete')).toContain('SendMessage');
    expect(scenarioToolNames('report')).toEqual(expect.arrayContaining(['Write', 'Agent', 'Task']));
    expect(scenarioToolNames('report')).not.toContain('SendMessage');
  });

  it('refuses "write" and "Wrte" (the reported case: it passed on a session that called Write)', async () => {
    expect(await withCheck({ verb: 'tool-not-called', tool: 'write' })).toMatch(
      /checks\.post\[4\]\.tool: "write" is no tool a session of this scenario is offered \(stop: report\).*did you mean "Write"\?/,
    );
    expect(await withCheck({ verb: 'tool-called', tool: ['Bash', 'Wrte'] })).toMatch(
      /"Wrte" is no tool .*did you mean "Write"\? use one of Bash, Read, Glob, Grep, Edit, Write/,
    );
    expect(await withCheck({ verb: 'tool-count', tool: 'Grpe', max: 2 })).toMatch(
      /did you mean "Grep"/,
    );
  });

  it('refuses a tool the stop mode does not offer, and knows MCP tools by their prefix', async () => {
    expect(await withCheck({ verb: 'tool-not-called', tool: 'SendMessage' })).toMatch(
      /"SendMessage" is no tool a session of this scenario is offered \(stop: report\)/,
    );
    expect(await withCheck({ verb: 'tool-not-called', tool: 'SendMessage' }, 's1-probe')).toBe(
      'loads',
    );
    expect(await withCheck({ verb: 'tool-not-called', tool: ['Task', 'Agent'] })).toBe('loads');
    expect(await withCheck({ verb: 'tool-not-called', tool: 'mcp__github__create_issue' })).toBe(
      'loads',
    );
    expect(await withCheck({ verb: 'tool-not-called', tool: 'mcp_github' })).toMatch(/is no tool/);
  });

  it("takes a recorded session's tool names in a scenario without a calibration (one check scores), still refusing a typo", async () => {
    const checkOnly = (check: Record<string, unknown>) =>
      loadChangedScenario('s1', (scenario) => {
        delete scenario.calibration;
        (scenario.checks as { post: unknown[] }).post.push({ id: 'extra', ...check });
      });
    expect(await checkOnly({ verb: 'tool-called', tool: 'TodoWrite' })).toBe('loads');
    expect(await checkOnly({ verb: 'tool-not-called', tool: 'apply_patch' })).toBe('loads');
    expect(await checkOnly({ verb: 'tool-called', tool: 'TodoWirte' })).toMatch(
      /"TodoWirte" is no tool .*did you mean "TodoWrite"\?/,
    );
    // Planted negative: a scenario redgreen calibrates runs its own sessions, which are offered neither.
    expect(await withCheck({ verb: 'tool-called', tool: 'TodoWrite' })).toMatch(
      /"TodoWrite" is no tool a session of this scenario is offered/,
    );
  });

  it('did-you-mean finds a case slip or a near miss, and nothing far', () => {
    expect(closestMatch('write', ['Read', 'Write'])).toBe('Write');
    expect(closestMatch('Wrte', ['Read', 'Write'])).toBe('Write');
    expect(closestMatch('Deploy', ['Read', 'Write'])).toBeUndefined();
  });
});

describe("the tools issue 20's sessions may be given", () => {
  /** S1 with its own tool changes (or stop) and one more post check. */
  const withTools = (
    change: Record<string, unknown>,
    check?: Record<string, unknown>,
  ): Promise<string> =>
    loadChangedScenario('s1', (scenario) => {
      Object.assign(scenario, change);
      if (check !== undefined) {
        (scenario.checks as { post: unknown[] }).post.push({ id: 'planted', ...check });
      }
    });

  it('takes the Skill tool (a library arm offers it) and refuses a slip of it', async () => {
    expect(scenarioToolNames('report')).toContain('Skill');
    expect(await withCheck({ verb: 'tool-called', tool: 'Skill' })).toBe('loads');
    expect(await withCheck({ verb: 'tool-called', tool: 'Skil' })).toMatch(
      /"Skil" is no tool .*did you mean "Skill"\?/,
    );
  });

  it("follows the scenario's tools.add and tools.remove", async () => {
    expect(await withCheck({ verb: 'tool-not-called', tool: 'WebFetch' })).toMatch(
      /"WebFetch" is no tool a session of this scenario is offered/,
    );
    expect(
      await withTools(
        { tools: { add: ['WebFetch'] } },
        { verb: 'tool-not-called', tool: 'WebFetch' },
      ),
    ).toBe('loads');
    expect(
      await withTools({ tools: { remove: ['Grep'] } }, { verb: 'tool-not-called', tool: 'Grep' }),
    ).toMatch(/"Grep" is no tool a session of this scenario is offered/);
  });

  it("validates order's tool selectors and an event stop's", async () => {
    const order = (tool: string) => ({
      verb: 'order',
      first: { event: 'tool', tool: 'Bash' },
      then: { event: 'tool', tool },
      ifThenAbsent: 'pass',
    });
    expect(await withCheck(order('Wrte'))).toMatch(
      /checks\.post\[4\]\.then\.tool: "Wrte" is no tool .*did you mean "Write"\?/,
    );
    expect(await withCheck(order('Write'))).toBe('loads');
    expect(await withTools({ stop: { at: { event: 'tool', tool: 'Wrte' } } })).toMatch(
      /: stop\.at\.tool: "Wrte" is no tool a session of this scenario is offered \(stop at tool\)/,
    );
    expect(await withTools({ stop: { at: [{ event: 'tool', tool: 'Write' }] } })).toBe('loads');
  });
});

describe('runs is a program name, not a pattern', () => {
  it('refuses "^rm\\\\b", which could never match, and takes "rm"', async () => {
    expect(await withCheck({ verb: 'tool-not-called', runs: '^rm\\b' })).toMatch(
      /\.runs: "\^rm\\b" is not a program name: runs matches the name of the program a Bash command runs exactly/,
    );
    expect(await withCheck({ verb: 'tool-not-called', runs: 'rm' })).toBe('loads');
  });
});

describe('bounds that could never fail', () => {
  it('refuses min 0 without a max (planted negative beside a bound that can fail)', async () => {
    expect(await withCheck({ verb: 'tool-count', tool: 'Bash', min: 0 })).toMatch(
      /\.min: is 0 with no max: every count is at least 0, so it could never fail/,
    );
    expect(await withCheck({ verb: 'files-matching', globs: ['**'], min: 0 })).toMatch(
      /could never fail/,
    );
    expect(await withCheck({ verb: 'tool-count', tool: 'Bash', min: 0, max: 3 })).toBe('loads');
  });
});

describe('scenario lint warns about what the calibration cannot tell apart', () => {
  const score = (checks: [string, string][], observations: [string, string][] = []): RepScore =>
    ({
      checks: checks.map(([id, outcome]) => ({ id, verb: 'reply-is-task', outcome })),
      observations: observations.map(([id, outcome]) => ({ id, verb: 'git-clean', outcome })),
    }) as unknown as RepScore;

  it('names a check every calibration policy passes, and observations that passed in every run', () => {
    const warnings = calibrationWarnings([
      score(
        [
          ['first-dispatch', 'pass'],
          ['untouched', 'pass'],
        ],
        [['no-commits', 'pass']],
      ),
      score(
        [
          ['first-dispatch', 'fail'],
          ['untouched', 'pass'],
        ],
        [['no-commits', 'pass']],
      ),
    ]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^check untouched passes under every calibration policy \(2 calibration runs\): it decides nothing/,
      ),
      expect.stringMatching(/^observation no-commits passed in every calibration run/),
    ]);
  });

  it('is silent when the calibration tells every check apart (planted negative)', () => {
    expect(
      calibrationWarnings([
        score([['first-dispatch', 'pass']], [['no-commits', 'pass']]),
        score([['first-dispatch', 'fail']], [['no-commits', 'fail']]),
      ]),
    ).toEqual([]);
  });
});
