/**
 * Reading the skill's own text. Every policy starts, as the prompt asks, by
 * re-reading SKILL.md; skill-reader then decides what the text instructs:
 *   - plan-scoped: it runs `sdd-workspace PLAN_FILE` or names the ledger
 *     identity line `# SDD ledger — plan:`;
 *   - flat: it points at the single ledger `.superpowers/sdd/progress.md`;
 *   - neither: the text names no progress ledger at all.
 * The plan-scoped markers are checked first, because a plan-scoped text also
 * mentions the old flat path (as the place stray ledgers are found).
 */

import type { SubProgram } from '../../../harness/model-server/policies/program.js';
import type { PolicyContext } from './context.js';
import { formatReport } from './report.js';
import { type FileRead, flatWorkspace, readFile, scopedWorkspace } from './steps.js';

export type LedgerInstruction = 'plan-scoped' | 'flat' | 'none';

const planScopedMarkers = [/sdd-workspace\s+PLAN_FILE/, /#\s*SDD ledger\s*(?:—|–|-{1,2})\s*plan:/i];
const flatMarker = /\.superpowers\/sdd\/progress\.md/;

export function ledgerInstruction(skillText: string): LedgerInstruction {
  if (planScopedMarkers.some((marker) => marker.test(skillText))) return 'plan-scoped';
  if (flatMarker.test(skillText)) return 'flat';
  return 'none';
}

/** The workspace the skill text's `sdd-workspace` script gives this plan (where briefs go). */
export function workspaceFor(context: PolicyContext, skillText: string): string {
  return ledgerInstruction(skillText) === 'plan-scoped'
    ? scopedWorkspace(context)
    : flatWorkspace(context);
}

export function* readSkill(context: PolicyContext): SubProgram<FileRead> {
  return yield* readFile(context.facts.skillFile);
}

/** The report a policy gives when it cannot re-anchor on SKILL.md: no decision. */
export function unanchoredReport(context: PolicyContext, problem: string): string {
  return formatReport({
    ledgers: [],
    noLedgersNote: 'none — stopped before looking for one.',
    completeTasks: [],
    firstDispatch: {
      kind: 'undetermined',
      reason: `could not re-read the skill's SKILL.md at ${context.facts.skillFile} (${problem})`,
    },
    tasks: [],
  });
}
