/**
 * Token counts for a scripted turn. There is no tokenizer behind the server,
 * so every number is an estimate (about four characters a token) and is
 * labelled as one: the response carries `x-redgreen-usage: estimated` and a
 * `redgreen.usage: 'estimated'` field next to `usage`.
 */
export const usageLabel = 'estimated';
export const usageHeader = 'x-redgreen-usage';

const charsPerToken = 4;

export function estimateTokens(value: unknown): number {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return Math.max(1, Math.ceil(text.length / charsPerToken));
}

/** Estimated input tokens for a request: its system prompt, tools and messages. */
export function estimateInputTokens(request: {
  readonly system?: unknown;
  readonly tools?: unknown;
  readonly messages: unknown;
}): number {
  return estimateTokens([request.system ?? null, request.tools ?? null, request.messages]);
}
