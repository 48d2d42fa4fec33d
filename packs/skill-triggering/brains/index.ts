/**
 * The skill-triggering brains: `skill-trigger` and its calibration twins
 * (skill-trigger.ts), and `task-follower` for a skill's own evals
 * (task-follower.ts). Each reads the whole conversation: the engine's skill
 * listing, the user's request, the text a skill invocation loaded.
 */
import type { ScriptedBrains } from '../../../harness/model-server/policies/policy.js';
import { triggerPolicies } from './skill-trigger.js';
import { taskFollowerPolicy } from './task-follower.js';

export const skillTriggeringBrains: ScriptedBrains = {
  policies: [...triggerPolicies, taskFollowerPolicy],
};
