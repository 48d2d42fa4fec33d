import type { ModelEndpoint } from './session-types.js';

/**
 * The variables that point the Claude Code engine at a model's endpoint:
 * the key (as `ANTHROPIC_API_KEY`, or `ANTHROPIC_AUTH_TOKEN` for a bearer
 * gateway), the base URL, extra headers (`ANTHROPIC_CUSTOM_HEADERS`, one
 * `Name: value` per line), and for Claude on Bedrock or Vertex the engine's
 * own switches (`CLAUDE_CODE_USE_BEDROCK` with `AWS_REGION`,
 * `ANTHROPIC_BEDROCK_BASE_URL` and `AWS_BEARER_TOKEN_BEDROCK`;
 * `CLAUDE_CODE_USE_VERTEX` with `CLOUD_ML_REGION`,
 * `ANTHROPIC_VERTEX_PROJECT_ID`, `ANTHROPIC_VERTEX_BASE_URL` and
 * `GOOGLE_APPLICATION_CREDENTIALS`) plus the credential variables a profile
 * passes through by name. Part of the engine's allowlisted environment
 * (engine-env.ts); nothing here reaches a tool, whose commands run with a
 * cleared environment.
 */
export function endpointEnvironment(
  model: ModelEndpoint,
  sessionHeader: string | undefined,
): Record<string, string> {
  const headers = [
    ...Object.entries(model.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    ...(sessionHeader === undefined ? [] : [sessionHeader]),
  ];
  const env: Record<string, string> = {};
  const provider = model.provider;
  if (provider === undefined) {
    if (model.auth === 'bearer') env.ANTHROPIC_AUTH_TOKEN = model.apiKey;
    else env.ANTHROPIC_API_KEY = model.apiKey;
    if (model.baseUrl !== undefined) env.ANTHROPIC_BASE_URL = model.baseUrl;
  } else if (provider.kind === 'bedrock') {
    env.CLAUDE_CODE_USE_BEDROCK = '1';
    env.AWS_REGION = provider.region;
    if (model.baseUrl !== undefined) env.ANTHROPIC_BEDROCK_BASE_URL = model.baseUrl;
    if (model.apiKey !== '') env.AWS_BEARER_TOKEN_BEDROCK = model.apiKey;
  } else {
    env.CLAUDE_CODE_USE_VERTEX = '1';
    env.CLOUD_ML_REGION = provider.region;
    if (provider.project !== undefined) env.ANTHROPIC_VERTEX_PROJECT_ID = provider.project;
    if (model.baseUrl !== undefined) env.ANTHROPIC_VERTEX_BASE_URL = model.baseUrl;
    if (model.apiKey !== '') env.GOOGLE_APPLICATION_CREDENTIALS = model.apiKey;
  }
  Object.assign(env, provider?.passEnv ?? {});
  if (headers.length > 0) env.ANTHROPIC_CUSTOM_HEADERS = headers.join('\n');
  return env;
}
