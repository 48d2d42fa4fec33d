import path from 'node:path';
import { SESSION_PATH } from '../sandbox/sandbox.js';
import { tierEnvironment } from './model-tiers.js';
import { endpointEnvironment } from './provider-env.js';
import type { ModelEndpoint } from './session-types.js';

export interface PrivateDirs {
  readonly home: string;
  readonly tmp: string;
}

export function privateDirsOf(privateDir: string): PrivateDirs {
  return { home: path.join(privateDir, 'home'), tmp: path.join(privateDir, 'tmp') };
}

/** The engine's config directory in a session's private HOME (CLAUDE_CONFIG_DIR). */
export function configDirOf(dirs: PrivateDirs): string {
  return path.join(dirs.home, '.claude');
}

/**
 * The Claude Code engine's whole environment, built from an allowlist: a
 * private HOME, config dir and TMPDIR, the model endpoint (provider-env.ts:
 * key, base URL, headers, Bedrock/Vertex switches), and switches that
 * keep the engine quiet and bounded. Nothing else from the caller's
 * environment reaches it. Every Bash command goes through `shellPrefix`,
 * which clears the environment (so the API key never reaches a tool) and
 * confines the command.
 */
export function claudeCodeEnvironment(options: {
  readonly dirs: PrivateDirs;
  readonly model: ModelEndpoint;
  readonly repId: string;
  readonly shellPrefix: string;
  readonly maxRetries: number;
  /** Where the engine puts its messaging socket (XDG_RUNTIME_DIR); default: the private TMPDIR. */
  readonly runtimeDir?: string | undefined;
}): Record<string, string> {
  const { dirs, model } = options;
  const env: Record<string, string> = {
    PATH: SESSION_PATH,
    HOME: dirs.home,
    CLAUDE_CONFIG_DIR: configDirOf(dirs),
    TMPDIR: dirs.tmp,
    // The engine's own temp and socket directories, named so it never falls back to /tmp.
    CLAUDE_CODE_TMPDIR: dirs.tmp,
    XDG_RUNTIME_DIR: options.runtimeDir ?? dirs.tmp,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    SHELL: '/bin/bash',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_MAX_RETRIES: String(options.maxRetries),
    CLAUDE_AGENT_SDK_CLIENT_APP: 'redgreen',
  };
  Object.assign(
    env,
    endpointEnvironment(model, model.scripted ? `x-redgreen-session: ${options.repId}` : undefined),
  );
  // A subagent's model tier means the same model as on the messages backend (model-tiers.ts).
  Object.assign(env, tierEnvironment(model));
  env.CLAUDE_CODE_SHELL_PREFIX = options.shellPrefix;
  return env;
}
