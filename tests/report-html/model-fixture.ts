import type { GateConfig } from '../../harness/campaign/config-schema.js';
import { gateDecision } from '../../harness/report/gates.js';
import type { RepDetail } from '../../harness/report/html/rep-details.js';
import {
  type CellSummary,
  type RepRow,
  type ResultsModel,
  resultsSchema,
} from '../../harness/report/results-schema.js';
import { mean, median, wilsonInterval } from '../../harness/report/stats.js';
import type { ToolCall } from '../../harness/score/tool-call.js';

/**
 * Hand-built results for the page tests: a 2×2 campaign whose reps the test
 * chooses, with cells and gates computed from those reps the way the
 * summariser does, validated against the results schema.
 */
const ARMS = [
  { name: 'red', role: 'red', label: 'released (flat ledger)', layout: 'flat' },
  { name: 'green', role: 'green', label: 'plan-scoped workspace', layout: 'scoped' },
] as const;
const SCENARIOS = ['s1', 's2'] as const;

export type RepSpec = Pick<RepRow, 'arm' | 'scenario' | 'rep' | 'verdict'> & Partial<RepRow>;

export function repRow(spec: RepSpec): RepRow {
  const role = spec.arm === 'green' ? 'green' : 'red';
  return {
    rep_id: `${spec.arm}/${spec.scenario}-rep${spec.rep}`,
    role,
    attempt: 1,
    verdict_source: 'scored',
    scored_verdict: spec.verdict,
    override_reason: '',
    reasons:
      spec.verdict === 'fail' ? 'first-dispatch: expected Task 1, "dispatch" says no task' : '',
    failed_checks: spec.verdict === 'fail' ? 'first-dispatch' : '',
    undecided_checks: '',
    values: `complete=none; dispatch=${spec.verdict === 'pass' ? 'Task 1' : 'none'}`,
    tool_uses: 3 + spec.rep,
    subagent_tool_uses: 0,
    turns: 4,
    input_tokens: 1000,
    output_tokens: 100,
    cache_write_tokens: 0,
    cache_read_tokens: 0,
    tokens_estimated: true,
    cost_usd: null,
    dispatches: 0,
    files_written: 0,
    bytes_written: 0,
    duration_ms: 5000,
    model_requested: 'scripted:skill-reader',
    model_reported: 'scripted:skill-reader',
    scripted_model: true,
    status: spec.verdict === 'indeterminate' ? 'indeterminate' : 'completed',
    indeterminate_stage: spec.verdict === 'indeterminate' ? 'timeout' : '',
    stop_reason: 'end_turn',
    findings: '',
    skill_tree:
      role === 'green'
        ? '61d295e0dc0ea15e2e374aa60a7c4ddeb8efb1ec'
        : 'f798c8f7c3905eda08025a194daabd3de6f39c5f',
    fixture_head: 'a50306ebabdcc0b57266bf5960685fdb9efed1c2',
    scenario_sha256: '',
    rescored_at: '',
    observations: {
      resolution: role === 'green' ? 'structural' : 'neither',
      'forensic-calls': '0',
    },
    ...spec,
  };
}

function cellOf(
  arm: (typeof ARMS)[number],
  scenario: string,
  rows: readonly RepRow[],
): CellSummary {
  const mine = rows.filter((row) => row.arm === arm.name && row.scenario === scenario);
  const pass = mine.filter((row) => row.verdict === 'pass').length;
  const fail = mine.filter((row) => row.verdict === 'fail').length;
  const decided = pass + fail;
  const values = mine.filter((row) => row.verdict !== 'indeterminate').map((row) => row.tool_uses);
  const counts: Record<string, number> = {};
  const decidedRows = mine.filter((row) => row.verdict !== 'indeterminate');
  for (const row of decidedRows) {
    const seen = row.observations.resolution ?? 'undecided';
    counts[seen] = (counts[seen] ?? 0) + 1;
  }
  return {
    arm: arm.name,
    role: arm.role,
    label: arm.label,
    layout: arm.layout,
    scenario,
    planned: mine.length,
    recorded: mine.length,
    pass,
    fail,
    indeterminate: mine.length - decided,
    decided,
    passRate: decided === 0 ? null : pass / decided,
    wilson95: decided === 0 ? null : wilsonInterval(pass, decided),
    toolUses: { values, median: median(values), mean: mean(values), bootstrap95Mean: null },
    observations: [
      { kind: 'tally', id: 'resolution', title: 'resolution', counts },
      {
        kind: 'passes',
        id: 'forensic-calls',
        phrase: 'via commit-content forensics',
        passes: decidedRows.filter((row) => row.observations['forensic-calls'] !== '0').length,
      },
    ],
    overrides: mine.filter((row) => row.verdict_source === 'override').length,
  };
}

export const DEFAULT_GATES: GateConfig[] = [
  { kind: 'min-pass-rate', arm: 'green', scenario: 's1', passes: 2, of: 2 },
  { kind: 'max-indeterminate-share', share: 0.2 },
];

export function modelWith(
  reps: readonly RepRow[],
  options: { scripted?: boolean; gates?: GateConfig[]; title?: string } = {},
): ResultsModel {
  const scripted = options.scripted ?? true;
  const cells = SCENARIOS.flatMap((scenario) => ARMS.map((arm) => cellOf(arm, scenario, reps)));
  return resultsSchema.parse({
    schemaVersion: 2,
    generatedBy: 'redgreen 0.1.0',
    campaign: {
      id: 'plan-scoped-workspace',
      title: options.title ?? 'Test campaign',
      identity: '596210dac99dd8a3c0ffee0000000000000000000000000000000000000000aa',
    },
    model: {
      requested: reps[0]?.model_requested ?? 'scripted:skill-reader',
      reported: [...new Set(reps.map((row) => row.model_reported).filter((name) => name !== ''))],
      scripted,
      label: scripted ? 'scripted:skill-reader (a scripted policy, not a model)' : 'claude-x',
    },
    backend: 'claude-code',
    engine: 'claude-code 2.1.332',
    sandbox: 'bubblewrap',
    repsPerCell: 2,
    arms: ARMS.map((arm) => ({
      name: arm.name,
      role: arm.role,
      label: arm.label,
      layout: arm.layout,
      source: `../skills-under-test/${arm.name}`,
      tree:
        arm.name === 'green'
          ? '61d295e0dc0ea15e2e374aa60a7c4ddeb8efb1ec'
          : 'f798c8f7c3905eda08025a194daabd3de6f39c5f',
    })),
    scenarios: SCENARIOS.map((id) => ({
      id,
      title: id,
      fixture: `widget-v3 ${id}`,
      dir: null,
      sha256: null,
      scoredWith: [],
    })),
    observationColumns: [...new Set(reps.flatMap((row) => Object.keys(row.observations)))],
    legend: {
      id: 'resolution',
      title: 'resolution',
      values: ['structural', 'forensic', 'both', 'neither'],
    },
    complete: true,
    planned: reps.length,
    recorded: reps.length,
    missing: [],
    cells,
    comparisons: [],
    power: '2 reps per arm detect nothing useful',
    gates: gateDecision(options.gates ?? DEFAULT_GATES, cells, []),
    reps: [...reps],
  });
}

/** Two reps per cell: S1 RED fails, the rest pass. */
export function standardReps(): RepRow[] {
  return SCENARIOS.flatMap((scenario) =>
    ARMS.flatMap((arm) =>
      [1, 2].map((rep) =>
        repRow({
          arm: arm.name,
          scenario,
          rep,
          verdict: arm.name === 'red' && scenario === 's1' ? 'fail' : 'pass',
        }),
      ),
    ),
  );
}

export function toolCall(index: number, output: string, extra: Partial<ToolCall> = {}): ToolCall {
  return {
    id: `toolu_${index}`,
    name: 'Bash',
    input: { command: `git log --oneline -n ${index}` },
    output,
    isError: false,
    parentToolUseId: null,
    ...extra,
  };
}

export function detailFor(
  row: RepRow,
  content: { reply?: string; toolCalls?: ToolCall[] } = {},
): RepDetail {
  return {
    id: row.rep_id,
    relativeDir: `reps/${row.arm}/${row.scenario}-rep${row.rep}`,
    reply: content.reply ?? `3\n1. LEDGERS CHECKED: none\n3. FIRST DISPATCH: Task 1`,
    transcript: {
      kind: 'read',
      toolCalls: content.toolCalls ?? [toolCall(1, 'a50306e docs: follow-up plan')],
      malformedLines: 0,
    },
    reasons: row.reasons === '' ? [] : row.reasons.split('; '),
    wouldFail: [],
    checks: [],
    observations: [],
  };
}

export function detailsFor(rows: readonly RepRow[]): Map<string, RepDetail> {
  return new Map(rows.map((row) => [row.rep_id, detailFor(row)]));
}
