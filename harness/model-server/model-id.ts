/**
 * Scripted policies answer under model ids of the form `scripted:<policy>`,
 * so that nobody mistakes a scripted run's numbers for a model's.
 */
export const scriptedModelPrefix = 'scripted:';

export function isScriptedModel(modelId: string): boolean {
  return modelId.startsWith(scriptedModelPrefix);
}

export function scriptedModelId(policy: string): string {
  return `${scriptedModelPrefix}${policy}`;
}

/** The policy a `scripted:<policy>` id names, or undefined for any other id. */
export function policyNamedBy(modelId: string): string | undefined {
  return isScriptedModel(modelId) ? modelId.slice(scriptedModelPrefix.length) : undefined;
}

/**
 * A subagent seat that asks for a model tier (`model: "opus"` on its
 * dispatch) runs, offline, on `scripted:<policy>@<tier>`: the same policy
 * answers, and the tier stays visible in the request's model id (and in the
 * reply's, which the seat records as the model it ran on).
 */
export const scriptedTierSeparator = '@';

/** The scripted id a seat asking for `tier` runs on. */
export function scriptedTierModelId(modelId: string, tier: string): string {
  return `${modelId}${scriptedTierSeparator}${tier}`;
}

/** The policy that answers a request's model id, a seat's tier id included; undefined for a live id. */
export function policyAnswering(modelId: string): string | undefined {
  const policy = policyNamedBy(modelId);
  if (policy === undefined) return undefined;
  const at = policy.indexOf(scriptedTierSeparator);
  return at === -1 ? policy : policy.slice(0, at);
}
