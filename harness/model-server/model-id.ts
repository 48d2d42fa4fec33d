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
