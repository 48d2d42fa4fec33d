/**
 * `--plan <path>` on `redgreen check` and `redgreen score-reply`: the plan
 * the controller worked from, when it is not the scenario's own (one of the
 * fixture's plans; the check refuses any other).
 */
import type { CheckFlag } from '../../../harness/cli/check-flags.js';

export const ownPlanFlag: CheckFlag = {
  flags: '--plan <path>',
  description:
    "the controller's own plan path, when it is not the scenario's: one of the scenario fixture's plans (default: the scenario's plan)",
  toRequest: (plan) => ({ plan }),
};
