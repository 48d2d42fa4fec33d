import type { CellSummary, ResultsModel } from '../results-schema.js';

/**
 * How the page names arms and cells: `RED` / `GREEN` by role, with the arm's
 * own name added when it differs from its role (e.g. `GREEN · candidate`).
 */
export function armLabel(arm: { readonly name: string; readonly role: 'red' | 'green' }): string {
  const role = arm.role.toUpperCase();
  return arm.name === arm.role ? role : `${role} · ${arm.name}`;
}

export function scenarioLabel(scenario: string): string {
  return scenario.toUpperCase();
}

/**
 * `S1 RED`: the name a cell (scenario × arm) goes by in tables and filters;
 * `model-a · S1 RED` in a campaign of several models.
 */
export function cellLabel(
  cell: Pick<CellSummary, 'scenario' | 'arm' | 'role'> & { readonly model?: string | undefined },
): string {
  const name = `${scenarioLabel(cell.scenario)} ${armLabel({ name: cell.arm, role: cell.role })}`;
  return cell.model === undefined ? name : `${cell.model} · ${name}`;
}

/** A stable key for a cell, used in data attributes and the filter. */
export function cellKey(cell: {
  readonly scenario: string;
  readonly arm: string;
  readonly model?: string | undefined;
}): string {
  return `${cell.model === undefined ? '' : `${cell.model}/`}${cell.scenario}/${cell.arm}`;
}

/**
 * In a campaign of several models, both charts get one row of panels per
 * model (and the model field in their data); otherwise nothing changes.
 */
export function modelFacetRow(model: Pick<ResultsModel, 'models'>) {
  return model.models === undefined
    ? {}
    : {
        row: {
          field: 'model',
          type: 'nominal' as const,
          title: null,
          sort: model.models.map((entry) => entry.name),
        },
      };
}

/** Arm labels in the campaign's arm order (RED before GREEN as configured). */
export function armLabelsInOrder(model: ResultsModel): string[] {
  return model.arms.map(armLabel);
}

/** The x encoding both charts share: one column per arm, in campaign order. */
export function armAxis(model: ResultsModel) {
  return {
    field: 'arm',
    type: 'nominal' as const,
    sort: armLabelsInOrder(model),
    title: null,
    axis: { labelAngle: 0 },
  };
}
