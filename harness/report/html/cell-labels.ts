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

/** `S1 RED`: the name a cell (scenario × arm) goes by in tables and filters. */
export function cellLabel(cell: Pick<CellSummary, 'scenario' | 'arm' | 'role'>): string {
  return `${scenarioLabel(cell.scenario)} ${armLabel({ name: cell.arm, role: cell.role })}`;
}

/** A stable key for a cell, used in data attributes and the filter. */
export function cellKey(cell: { readonly scenario: string; readonly arm: string }): string {
  return `${cell.scenario}/${cell.arm}`;
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
