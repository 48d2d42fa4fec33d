import { z } from 'zod';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import type { CellSummary, ResultsModel } from './results-schema.js';
import { fisherExact, permutationTest } from './stats.js';
import { REPORT_SEED } from './summarise.js';

/**
 * `redgreen diff <dirA> <dirB>`: what changed between two results
 * directories, cell by cell (arm × scenario): the pass-rate change with
 * Fisher's exact test (two-sided, B against A), the tool_uses change over
 * decided reps with a permutation test, and the reps whose verdicts differ
 * (the same rep id in both, overrides applied). Two directories are compared
 * only when their cells match; what else differs between the runs (campaign,
 * model, backend, reps, skill texts) is listed, never hidden. Pure: built
 * from the two results models.
 */
const verdict = z.enum(['pass', 'fail', 'indeterminate']);

const sideSchema = z
  .object({
    /** The directory as given on the command line. */
    dir: z.string(),
    campaign: z.object({ id: z.string(), title: z.string(), identity: z.string() }).strict(),
    model: z.string(),
    scripted: z.boolean(),
    backend: z.string(),
    engine: z.string(),
    repsPerCell: z.number().int(),
    /** `k/n` when the directory is one shard of a campaign, else null. */
    shard: z.string().nullable(),
    planned: z.number().int(),
    recorded: z.number().int(),
  })
  .strict();

const cellSideSchema = z
  .object({
    recorded: z.number().int(),
    pass: z.number().int(),
    fail: z.number().int(),
    indeterminate: z.number().int(),
    decided: z.number().int(),
    /** pass / decided; null without decided reps. */
    passRate: z.number().nullable(),
  })
  .strict();

/** tool_uses of decided reps only (an indeterminate rep was cut short). */
const toolUsesSideSchema = z
  .object({
    reps: z.number().int(),
    mean: z.number().nullable(),
    median: z.number().nullable(),
  })
  .strict();

export const diffCellSchema = z
  .object({
    arm: z.string(),
    role: z.enum(['red', 'green']),
    scenario: z.string(),
    /** The model, when the runs compare several models (a cell is then arm × scenario × model). */
    model: z.string().optional(),
    a: cellSideSchema,
    b: cellSideSchema,
    /** B's pass rate minus A's (a fraction, -1 … 1); null when either has no decided reps. */
    passRateChange: z.number().nullable(),
    /** Fisher's exact test, two-sided, B's pass count against A's; null as above. */
    fisherTwoSided: z.number().nullable(),
    toolUses: z
      .object({
        a: toolUsesSideSchema,
        b: toolUsesSideSchema,
        /** B's mean minus A's; null when either has no decided reps. */
        meanChange: z.number().nullable(),
        /** Permutation test of the mean difference (exact when feasible, else seeded Monte Carlo). */
        permutationP: z.number().nullable(),
      })
      .strict(),
    /** Reps recorded in both whose (effective) verdicts differ, in rep order. */
    verdictChanges: z.array(z.object({ rep_id: z.string(), a: verdict, b: verdict }).strict()),
  })
  .strict();

export const diffJsonSchema = z
  .object({
    schemaVersion: z.literal(1),
    command: z.literal('diff'),
    a: sideSchema,
    b: sideSchema,
    /** Both directories are runs of the same campaign identity (the same sessions; reps and shard may differ). */
    sameIdentity: z.boolean(),
    /** A and B are one directory (the same path after symlinks), so nothing can differ. */
    sameDirectory: z.boolean(),
    /** How the two runs' set-ups differ, one phrase each ("model X vs Y"); empty when identical. */
    differences: z.array(z.string()),
    cells: z.array(diffCellSchema),
    /** Reps recorded in one directory only. */
    repsOnlyInA: z.array(z.string()),
    repsOnlyInB: z.array(z.string()),
  })
  .strict();
export type DiffModel = z.infer<typeof diffJsonSchema>;
export type DiffCell = z.infer<typeof diffCellSchema>;

export interface DiffInput {
  readonly dir: string;
  /** The directory with symlinks resolved: two inputs with the same one are the same directory. */
  readonly realDir: string;
  readonly model: ResultsModel;
  /** `k/n` for one shard of a campaign, else null. */
  readonly shard: string | null;
}

const cellKey = (cell: { arm: string; scenario: string; model?: string | undefined }): string =>
  `${cell.model === undefined ? '' : `${cell.model}/`}${cell.arm}/${cell.scenario}`;

function side(input: DiffInput): DiffModel['a'] {
  const { model } = input;
  return {
    dir: input.dir,
    campaign: model.campaign,
    model: model.model.requested,
    scripted: model.model.scripted,
    backend: model.backend,
    engine: model.engine,
    repsPerCell: model.repsPerCell,
    shard: input.shard,
    planned: model.planned,
    recorded: model.recorded,
  };
}

/** One phrase per set-up difference between the runs, in a fixed order. */
function setupDifferences(inputA: DiffInput, inputB: DiffInput): string[] {
  const a = inputA.model;
  const b = inputB.model;
  const out: string[] = [];
  const compare = (what: string, left: string | number, right: string | number): void => {
    if (left !== right) out.push(`${what} ${left} vs ${right}`);
  };
  compare('campaign', a.campaign.id, b.campaign.id);
  compare('model', a.model.requested, b.model.requested);
  compare('backend', a.backend, b.backend);
  compare('engine', a.engine, b.engine);
  compare('sandbox', a.sandbox, b.sandbox);
  compare('reps per cell', a.repsPerCell, b.repsPerCell);
  compare('shard', inputA.shard ?? 'whole run', inputB.shard ?? 'whole run');
  for (const armA of a.arms) {
    const armB = b.arms.find((candidate) => candidate.name === armA.name);
    if (armB !== undefined) {
      compare(`arm ${armA.name} skill tree`, armA.tree.slice(0, 12), armB.tree.slice(0, 12));
    }
  }
  // Verdicts scored with other checks differ for that alone: each scenario's hash is compared.
  for (const scenarioA of a.scenarios) {
    const scenarioB = b.scenarios.find((candidate) => candidate.id === scenarioA.id);
    if (scenarioB === undefined) continue;
    const hash = (sha: string | null): string => (sha === null ? 'not recorded' : sha.slice(0, 12));
    compare(`scenario ${scenarioA.id} scored with`, hash(scenarioA.sha256), hash(scenarioB.sha256));
  }
  if (
    a.campaign.identity !== b.campaign.identity &&
    out.every((phrase) => /^(reps|shard) /.test(phrase))
  ) {
    out.push(
      `campaign identity ${a.campaign.identity.slice(0, 12)} vs ${b.campaign.identity.slice(0, 12)} (limits, seed, prompt or fixtures)`,
    );
  }
  return out;
}

function cellSide(cell: CellSummary): DiffCell['a'] {
  return {
    recorded: cell.recorded,
    pass: cell.pass,
    fail: cell.fail,
    indeterminate: cell.indeterminate,
    decided: cell.decided,
    passRate: cell.passRate,
  };
}

function diffCell(
  cellA: CellSummary,
  cellB: CellSummary,
  a: ResultsModel,
  b: ResultsModel,
): DiffCell {
  const bothDecided = cellA.decided > 0 && cellB.decided > 0;
  const toolsA = cellA.toolUses;
  const toolsB = cellB.toolUses;
  const bothTools = toolsA.values.length > 0 && toolsB.values.length > 0;
  const verdictsB = new Map(
    b.reps.filter((row) => cellKey(row) === cellKey(cellA)).map((row) => [row.rep_id, row.verdict]),
  );
  const verdictChanges = a.reps
    .filter((row) => cellKey(row) === cellKey(cellA))
    .flatMap((row) => {
      const other = verdictsB.get(row.rep_id);
      return other === undefined || other === row.verdict
        ? []
        : [{ rep_id: row.rep_id, a: row.verdict, b: other }];
    });
  return {
    arm: cellA.arm,
    role: cellA.role,
    scenario: cellA.scenario,
    ...(cellA.model === undefined ? {} : { model: cellA.model }),
    a: cellSide(cellA),
    b: cellSide(cellB),
    passRateChange:
      cellA.passRate === null || cellB.passRate === null ? null : cellB.passRate - cellA.passRate,
    fisherTwoSided: bothDecided
      ? fisherExact(
          { successes: cellB.pass, trials: cellB.decided },
          { successes: cellA.pass, trials: cellA.decided },
          'two-sided',
        )
      : null,
    toolUses: {
      a: { reps: toolsA.values.length, mean: toolsA.mean, median: toolsA.median },
      b: { reps: toolsB.values.length, mean: toolsB.mean, median: toolsB.median },
      meanChange: toolsA.mean === null || toolsB.mean === null ? null : toolsB.mean - toolsA.mean,
      permutationP: bothTools
        ? permutationTest(toolsB.values, toolsA.values, { seed: REPORT_SEED }).pValue
        : null,
    },
    verdictChanges,
  };
}

/** Compare two results models; an InputError (naming B) when their cells do not match. */
export function diffResults(a: DiffInput, b: DiffInput): Result<DiffModel, InputError> {
  const keysA = a.model.cells.map(cellKey);
  const keysB = b.model.cells.map(cellKey);
  const onlyA = keysA.filter((key) => !keysB.includes(key));
  const onlyB = keysB.filter((key) => !keysA.includes(key));
  if (onlyA.length > 0 || onlyB.length > 0) {
    return err(
      inputError(
        b.dir,
        `cells differ from ${a.dir} (only in A: ${onlyA.join(', ') || 'none'}; only in B: ${onlyB.join(', ') || 'none'})`,
        'diff compares two runs with the same arms and scenarios (arm/scenario cells)',
      ),
    );
  }
  const cells = a.model.cells.map((cellA) => {
    const cellB = b.model.cells.find((candidate) => cellKey(candidate) === cellKey(cellA));
    if (cellB === undefined) throw new Error(`diff: cell ${cellKey(cellA)} vanished`);
    return diffCell(cellA, cellB, a.model, b.model);
  });
  const idsA = new Set(a.model.reps.map((row) => row.rep_id));
  const idsB = new Set(b.model.reps.map((row) => row.rep_id));
  return ok(
    diffJsonSchema.parse({
      schemaVersion: 1,
      command: 'diff',
      a: side(a),
      b: side(b),
      sameIdentity: a.model.campaign.identity === b.model.campaign.identity,
      sameDirectory: a.realDir === b.realDir,
      differences: setupDifferences(a, b),
      cells,
      repsOnlyInA: [...idsA].filter((id) => !idsB.has(id)),
      repsOnlyInB: [...idsB].filter((id) => !idsA.has(id)),
    }),
  );
}
