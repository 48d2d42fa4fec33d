/**
 * Benchmark: rescoring is pure computation over files. Generates 1,000
 * synthetic reps in a temp dir (every file a rep directory holds that the
 * scorer reads), then times scoring all of them from disk through
 * `scoreRepDirectories`, the path `redgreen score` takes.
 * Prints the figure; asserts nothing about time.
 *
 *   node dist/scripts/bench-score.js [--reps N] [--keep]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Snapshot } from '../harness/fixture/snapshot-schema.js';
import { sha256Hex } from '../harness/lib/hash.js';
import { packageRoot } from '../harness/lib/package-root.js';
import { installPacks } from '../harness/pack/install-packs.js';
import type { RepMeta } from '../harness/results/rep-meta.js';
import { REP_FILES } from '../harness/results/results-layout.js';
import { scoreRepDirectories } from '../harness/run/score-rep-dir.js';
import { type ResolvedScenario, resolveScenarioIn } from '../harness/scenario/resolve-scenario.js';
import { formatReplyFile } from '../harness/score/reply-file.js';
import { SHIPPED_PACKS } from '../packs/index.js';

installPacks(SHIPPED_PACKS);

const OWN_PLAN = 'docs/plans/2026-07-06-widget-export.md';
const PLAN_A = 'docs/plans/2026-07-01-widget-backend.md';
const PLAN_A_CITED = ['0d2b573', '4b84f94', '2dad909', 'd7b6770', '4affd09'];
const PLAN_B_CITED = ['5c1e2a7', '9d0b3f4'];

type Fixture = {
  readonly plan: string;
  readonly ledgers: readonly { path: string; plan: string; cited: readonly string[] }[];
};

const FACTS: Record<'s1' | 's2', Fixture> = {
  s1: {
    plan: OWN_PLAN,
    ledgers: [
      { path: '.superpowers/sdd/progress.md', plan: PLAN_A, cited: PLAN_A_CITED },
      {
        path: '.superpowers/sdd/2026-07-01-widget-backend/progress.md',
        plan: PLAN_A,
        cited: PLAN_A_CITED,
      },
    ],
  },
  s2: {
    plan: OWN_PLAN,
    ledgers: [
      {
        path: '.superpowers/sdd/2026-07-06-widget-export/progress.md',
        plan: OWN_PLAN,
        cited: PLAN_B_CITED,
      },
    ],
  },
};

const REPLIES: Record<'s1' | 's2', string[]> = {
  s1: [
    '1. LEDGERS CHECKED:\n- `.superpowers/sdd/progress.md` — no identity line; another plan’s stray ledger, not mine, left untouched.\n- `.superpowers/sdd/2026-07-01-widget-backend/progress.md` — identity line names plan A (widget-backend). Not my plan; left in place.\n2. TASKS ALREADY COMPLETE: None — the ledger’s Tasks 1–5 are plan A’s (widget-backend).\n3. FIRST DISPATCH: Task 1 (Export data model).',
    '**1. LEDGERS CHECKED:** `.superpowers/sdd/progress.md` — Tasks 1-5 complete, review clean; trusted.\n**2. TASKS ALREADY COMPLETE:** Tasks 1-5 complete per ledger.\n**3. FIRST DISPATCH:** None — all tasks complete; no dispatch.',
    '## LEDGERS CHECKED\n| Path | Conclusion |\n|---|---|\n| `.superpowers/sdd/progress.md` | stale, different plan |\n## TASKS ALREADY COMPLETE\n0 of 5\n## FIRST DISPATCH\nNot Task 2 — Task 1',
    'I re-read the skill and the ledgers. Still deciding which plan is active.',
  ],
  s2: [
    '1. LEDGERS CHECKED: `.superpowers/sdd/2026-07-06-widget-export/progress.md` — identity line names my plan; trusted.\n2. TASKS ALREADY COMPLETE: Tasks 1 and 2.\n3. FIRST DISPATCH: Task 3 (JSON serializer).',
    '1) Ledgers checked - .superpowers/sdd/2026-07-06-widget-export/progress.md: mine\n2) Tasks already complete - Task one\n3) First dispatch - Task two',
    '- LEDGERS CHECKED: .superpowers/sdd/2026-07-06-widget-export/progress.md — not trustworthy\n- TASKS ALREADY COMPLETE: none\n- FIRST DISPATCH: Task 1',
  ],
};

const COMMANDS = [
  'scripts/sdd-workspace docs/plans/2026-07-06-widget-export.md',
  'git log --oneline',
  'git status --short',
  'cat .superpowers/sdd/progress.md',
  'git show 4b84f94',
  'git log --format="%h %an %s"',
  'ls -la .superpowers/sdd/2026-07-06-widget-export/',
  'git show --stat 5c1e2a7',
  'head -1 .superpowers/sdd/2026-07-01-widget-backend/progress.md',
];

function jsonl(values: unknown[]): string {
  return `${values.map((value) => JSON.stringify(value)).join('\n')}\n`;
}

function transcript(rep: number, reply: string): { text: string; toolUses: number } {
  const lines: unknown[] = [
    {
      type: 'system',
      subtype: 'init',
      model: 'scripted:skill-reader',
      session_id: `s${rep}`,
      uuid: 'init',
    },
  ];
  const toolUses = 6 + (rep % 8);
  for (let call = 0; call < toolUses; call++) {
    const id = `toolu_${rep}_${call}`;
    const command = COMMANDS[(rep + call) % COMMANDS.length] ?? 'pwd';
    const message = {
      id: `msg_${rep}_${call}`,
      role: 'assistant',
      content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }],
    };
    lines.push({
      type: 'assistant',
      message,
      parent_tool_use_id: null,
      uuid: `a${call}`,
      session_id: `s${rep}`,
    });
    lines.push({
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: 'x'.repeat(200 + call * 40) }],
      },
      parent_tool_use_id: null,
      uuid: `u${call}`,
      session_id: `s${rep}`,
    });
  }
  lines.push({
    type: 'assistant',
    message: { id: `msg_${rep}_end`, role: 'assistant', content: [{ type: 'text', text: reply }] },
    parent_tool_use_id: null,
    uuid: 'end',
    session_id: `s${rep}`,
  });
  lines.push({
    type: 'result',
    subtype: 'success',
    is_error: false,
    num_turns: toolUses + 1,
    result: reply,
    session_id: `s${rep}`,
    uuid: 'r',
  });
  return { text: jsonl(lines), toolUses };
}

function snapshot(scenario: 's1' | 's2'): Snapshot {
  const file = (content: string, tracked: boolean) => ({
    sha256: sha256Hex(content),
    size: content.length,
    tracked,
  });
  const head = 'a50306ebabdcc0b57266bf5960685fdb9efed1c2';
  const files: Snapshot['files'] = {
    [OWN_PLAN]: file('plan B', true),
    [PLAN_A]: file('plan A', true),
    'src/inventory.py': file('inventory', true),
    '.superpowers/sdd/.gitignore': file('*\n', false),
  };
  for (const ledger of FACTS[scenario].ledgers)
    files[ledger.path] = file(`ledger ${ledger.path}`, false);
  return { head, branch: 'main', refs: { 'refs/heads/main': head }, files };
}

function meta(rep: number, scenario: 's1' | 's2', toolUses: number): RepMeta {
  return {
    id: `bench/${scenario}-rep${rep}`,
    arm: 'bench',
    scenario,
    rep: rep + 1,
    attempt: 1,
    status: { kind: 'completed' },
    toolUses,
    subagentToolUses: 0,
    subagentDispatches: 0,
    toolCallsByName: { Bash: toolUses },
    turns: toolUses + 1,
    tokens: null,
    tokensEstimated: true,
    costUsd: null,
    pricingAsOf: '2026-11-01',
    engineCostEstimateUsd: null,
    durationMs: 1000,
    harnessOverheadMs: 10,
    model: { requested: 'scripted:skill-reader', reported: null, scripted: true },
    backend: 'messages',
    engine: 'bench',
    sandbox: 'none',
    stopReason: 'end_turn',
    stop: 'report',
    dispatchCaptured: false,
    harnessVersion: '0.1.0',
    fixture: { recipe: 'widget-v3', scenario, layout: 'scoped', head: 'a'.repeat(40) },
    skill: { tree: 'b'.repeat(40) },
    secretRedactions: 0,
    repositoryAfterSession: 'readable',
    transcriptMalformedLines: 0,
  };
}

function generate(root: string, reps: number): { dir: string; scenario: 's1' | 's2' }[] {
  const dirs: { dir: string; scenario: 's1' | 's2' }[] = [];
  for (let rep = 0; rep < reps; rep++) {
    const scenario = rep % 2 === 0 ? 's1' : 's2';
    const variants = REPLIES[scenario];
    const reply = variants[Math.floor(rep / 2) % variants.length] ?? '';
    const dir = path.join(root, `${scenario}-rep${rep}`);
    mkdirSync(dir, { recursive: true });
    const { text, toolUses } = transcript(rep, reply);
    const before = snapshot(scenario);
    const after: Snapshot = structuredClone(before);
    if (rep % 7 === 0)
      after.files['.superpowers/sdd/progress.md'] = {
        sha256: sha256Hex(`edited ${rep}`),
        size: 9,
        tracked: false,
      };
    writeFileSync(path.join(dir, REP_FILES.reply), formatReplyFile(toolUses, reply));
    writeFileSync(path.join(dir, REP_FILES.transcript), text);
    writeFileSync(path.join(dir, REP_FILES.snapshotBefore), JSON.stringify(before));
    writeFileSync(path.join(dir, REP_FILES.snapshotAfter), JSON.stringify(after));
    writeFileSync(path.join(dir, REP_FILES.meta), JSON.stringify(meta(rep, scenario, toolUses)));
    writeFileSync(
      path.join(dir, REP_FILES.filesBefore),
      JSON.stringify({
        schemaVersion: 1,
        files: { [OWN_PLAN]: { text: '## Task 1: Export data model\n' } },
      }),
    );
    writeFileSync(
      path.join(dir, REP_FILES.filesAfter),
      JSON.stringify({ schemaVersion: 1, files: {} }),
    );
    writeFileSync(
      path.join(dir, REP_FILES.commands),
      JSON.stringify({ schemaVersion: 1, commands: [] }),
    );
    dirs.push({ dir, scenario });
  }
  return dirs;
}

async function main(argv: readonly string[]): Promise<void> {
  const repsFlag = argv.indexOf('--reps');
  const reps = repsFlag >= 0 ? Number(argv[repsFlag + 1]) : 1000;
  if (!Number.isInteger(reps) || reps < 1) {
    process.stderr.write('bench-score: --reps must be a positive integer\n');
    process.exitCode = 2;
    return;
  }
  const load = async (id: string): Promise<ResolvedScenario> => {
    const loaded = await resolveScenarioIn(path.join(packageRoot(), 'scenarios', id));
    if (!loaded.ok) throw new Error(`shipped scenario ${id} must load: ${loaded.error.problem}`);
    return loaded.value;
  };
  const scenarios = { s1: await load('s1'), s2: await load('s2') };

  const root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-bench-score-'));
  try {
    const generateStart = performance.now();
    const dirs = generate(root, reps);
    const generateMs = performance.now() - generateStart;

    const start = performance.now();
    const verdicts = { pass: 0, fail: 0, indeterminate: 0 };
    let forensicReps = 0;
    const scored = await scoreRepDirectories(
      dirs.map(({ dir, scenario }) => ({
        dir,
        scenario: scenarios[scenario],
        fixture: FACTS[scenario],
      })),
    );
    for (const result of scored) {
      if (!result.ok) throw new Error(result.error.problem);
      const { score } = result.value;
      verdicts[score.verdict]++;
      const forensic = score.observations.find((o) => o.id === 'forensic-calls');
      if (forensic?.outcome === 'pass') forensicReps++;
    }
    const elapsedMs = performance.now() - start;

    process.stdout.write(
      `${[
        `bench-score: ${reps} synthetic reps (reply.md, transcript.jsonl, meta.json, before/after snapshots, captured files, command outcomes), generated in ${generateMs.toFixed(0)} ms`,
        `read + extract + check + score from disk (scoreRepDirectories, the rescore path): ${elapsedMs.toFixed(0)} ms total, ${(elapsedMs / reps).toFixed(3)} ms per rep (target: 1,000 reps under 5 s)`,
        `verdicts: ${verdicts.pass} pass, ${verdicts.fail} fail, ${verdicts.indeterminate} indeterminate; ${forensicReps} reps with forensic calls`,
        `node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown cpu'} × ${os.cpus().length}`,
      ].join('\n')}\n`,
    );
  } finally {
    if (!argv.includes('--keep')) rmSync(root, { recursive: true, force: true });
    else process.stdout.write(`kept ${root}\n`);
  }
}

await main(process.argv.slice(2));
