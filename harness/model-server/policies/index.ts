/**
 * The scripted policies, by name. Each is labelled `scripted:<name>` wherever
 * a model name is shown (see ../model-id.ts).
 */
import { alwaysRedoPolicy } from './always-redo.js';
import { asksUserReplyPolicy, asksUserToolPolicy } from './asks-user.js';
import {
  asksHumanPolicy,
  movesOnSilentlyPolicy,
  reopensParkedPolicy,
  reReviewsPolicy,
  resumeCheapModelPolicy,
  sixthRoundPolicy,
} from './calibration-moves.js';
import type { Policy } from './context.js';
import { echoesTemplatePolicy } from './echoes-template.js';
import { fullEnvDumpPolicy } from './env-dump.js';
import { finalReviewerPolicy } from './final-reviewer.js';
import { forensicPolicy } from './forensic.js';
import {
  FULL_SESSION_POLICIES,
  fullAcceptsExtrasPolicy,
  fullControllerFixesPolicy,
  fullControllerPolicy,
  fullFixingReviewerPolicy,
  fullFreshFixerPolicy,
  fullGamingFixerPolicy,
  fullShallowReviewerPolicy,
  fullSkillReaderPolicy,
} from './full-session.js';
import { literalPolicy } from './literal.js';
import { skillReaderPolicy } from './skill-reader.js';
import { TRIGGER_POLICIES, triggerPolicies } from './skill-trigger.js';
import { structuralPolicy } from './structural.js';
import { TASK_FOLLOWER, taskFollowerPolicy } from './task-follower.js';

export const policyNames = [
  'literal',
  'forensic',
  'structural',
  'always-redo',
  'skill-reader',
  'final-reviewer',
  'asks-human',
  'sixth-round',
  'resume-cheap-model',
  'moves-on-silently',
  'reopens-parked',
  ...FULL_SESSION_POLICIES,
  're-reviews',
  'echoes-template',
  'asks-user-tool',
  'asks-user-reply',
  'full-env-dump',
  ...TRIGGER_POLICIES,
  TASK_FOLLOWER,
] as const;

export type PolicyName = (typeof policyNames)[number];

const policies: Readonly<Record<PolicyName, Policy>> = {
  literal: literalPolicy,
  forensic: forensicPolicy,
  structural: structuralPolicy,
  'always-redo': alwaysRedoPolicy,
  'skill-reader': skillReaderPolicy,
  'final-reviewer': finalReviewerPolicy,
  'asks-human': asksHumanPolicy,
  'sixth-round': sixthRoundPolicy,
  'resume-cheap-model': resumeCheapModelPolicy,
  'moves-on-silently': movesOnSilentlyPolicy,
  'reopens-parked': reopensParkedPolicy,
  'full-controller': fullControllerPolicy,
  'full-fresh-fixer': fullFreshFixerPolicy,
  'full-skill-reader': fullSkillReaderPolicy,
  'full-shallow-reviewer': fullShallowReviewerPolicy,
  'full-accepts-extras': fullAcceptsExtrasPolicy,
  'full-fixing-reviewer': fullFixingReviewerPolicy,
  'full-gaming-fixer': fullGamingFixerPolicy,
  'full-controller-fixes': fullControllerFixesPolicy,
  're-reviews': reReviewsPolicy,
  'echoes-template': echoesTemplatePolicy,
  'asks-user-tool': asksUserToolPolicy,
  'asks-user-reply': asksUserReplyPolicy,
  'full-env-dump': fullEnvDumpPolicy,
  ...triggerPolicies,
  [TASK_FOLLOWER]: taskFollowerPolicy,
};

export function isPolicyName(name: string): name is PolicyName {
  return (policyNames as readonly string[]).includes(name);
}

export function policyByName(name: PolicyName): Policy {
  return policies[name];
}

export type { ExtraCallOptions, Policy, PolicyContext } from './context.js';
export { defaultExtraCallOptions } from './context.js';
