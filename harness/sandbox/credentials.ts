/**
 * The credential variables redgreen knows of: the Anthropic API's, Claude
 * Code's own login token, Claude on Bedrock and Vertex, the cloud providers'
 * keys, other model APIs', and code hosts' tokens a CI job exports. Without
 * bubblewrap a confined command could read them from redgreen's own
 * environment (/proc/<pid>/environ), so a run refuses while any is set
 * (create-backend.ts); and every value set is replaced wherever a rep
 * writes, like the run's key.
 */
export const KNOWN_CREDENTIAL_VARIABLES = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_BEARER_TOKEN_BEDROCK',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_API_KEY',
  'GEMINI_API_KEY',
  'CLOUDSDK_AUTH_ACCESS_TOKEN',
  'AZURE_CLIENT_SECRET',
  'AZURE_OPENAI_API_KEY',
  'OPENAI_API_KEY',
  'GITHUB_TOKEN',
  'GH_TOKEN',
] as const;

/** The credential variables set (not blank) in `env`: the known ones and `extra` (the run's profiles' key variables). */
export function credentialsSet(env: NodeJS.ProcessEnv, extra: readonly string[] = []): string[] {
  return [...new Set([...KNOWN_CREDENTIAL_VARIABLES, ...extra])].filter(
    (name) => (env[name] ?? '').trim() !== '',
  );
}

/** The values of those variables, for the redactors. */
export function credentialValues(env: NodeJS.ProcessEnv, extra: readonly string[] = []): string[] {
  return credentialsSet(env, extra).map((name) => (env[name] ?? '').trim());
}
