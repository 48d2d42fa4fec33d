/**
 * The model server's public API: a local Anthropic Messages API whose brain is
 * a scripted policy, with fault injection. Other rooms import from here only.
 */
export {
  type ApiErrorBody,
  type ApiErrorType,
  apiErrorStatus,
} from './api-error.js';
export type { AssistantMessage, RedgreenMetadata } from './assistant-message.js';
export { BRAIN_FAILURE_MARK, type Brain, brainFailureIn } from './brain.js';
export {
  type Failure,
  type FaultRule,
  type FaultRuleInput,
  FaultRuleSchema,
  parseFaultSpec,
  validateFaultRules,
} from './faults.js';
export {
  CONTRARIAN_SHARE,
  isJudgePolicyName,
  JUDGE_CHECKS_HEADER,
  JUDGE_TOOL_NAME,
  type JudgePolicyName,
  judgePolicyNames,
  judgePolicySummaries,
} from './judge-policies.js';
export {
  isScriptedModel,
  policyAnswering,
  policyNamedBy,
  scriptedModelId,
  scriptedTierModelId,
} from './model-id.js';
export {
  defaultExtraCallOptions,
  type ExtraCallOptions,
  type PolicyRequest,
  type ScriptedBrains,
  type ScriptedPolicy,
  type Seat,
  type SeatTurn,
} from './policies/policy.js';
export { isPolicyName, policyNames, scriptedPolicies, seats } from './policies/registry.js';
export type { RequestLogEntry } from './request-log.js';
export { type ModelServer, type ModelServerOptions, startModelServer } from './server.js';
export { sessionHeader } from './session-key.js';
export { usageHeader, usageLabel } from './usage-estimate.js';
