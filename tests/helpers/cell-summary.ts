import type { CellSummary } from '../../harness/report/results-schema.js';

/**
 * A cell summary built by hand, for gates and the interaction judged on
 * counts: `model` undefined is a one-model campaign's cell; a named one
 * (a model, or an engine's entry) carries its infrastructure failures.
 */
export function cellSummary(
  model: string | undefined,
  scenario: string,
  role: 'red' | 'green',
  pass: number,
  fail: number,
  indeterminate = 0,
  infrastructure = 0,
): CellSummary {
  const decided = pass + fail;
  return {
    arm: role,
    role,
    label: role,
    layout: role === 'red' ? 'flat' : 'scoped',
    scenario,
    ...(model === undefined ? {} : { model, infrastructure }),
    planned: decided + indeterminate,
    recorded: decided + indeterminate,
    pass,
    fail,
    indeterminate,
    decided,
    passRate: decided === 0 ? null : pass / decided,
    wilson95: null,
    toolUses: { values: [], median: null, mean: null, bootstrap95Mean: null },
    observations: [],
    overrides: 0,
  };
}
