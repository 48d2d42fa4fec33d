import { VERSION as SDK_VERSION } from '@anthropic-ai/sdk/version';
import { execa } from 'execa';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { claudeCodeBackend } from './claude-code-backend.js';
import { locateClaudeCodeBinary } from './locate-engine.js';
import { messagesBackend } from './messages-backend.js';
import { detectSandbox, type Sandbox } from './sandbox.js';
import type { SessionBackend } from './session-types.js';

export interface PreparedBackend {
  readonly backend: SessionBackend;
  /** Engine name and version, e.g. `claude-code 2.1.332`. */
  readonly engine: string;
  readonly sandbox: Sandbox;
  /** One line for results: how model-issued commands are confined. */
  readonly sandboxDescription: string;
}

async function claudeCodeVersion(binary: string): Promise<string | undefined> {
  const result = await execa(binary, ['--version'], {
    reject: false,
    timeout: 30_000,
    env: { PATH: '/usr/bin:/bin' },
    extendEnv: false,
  });
  return result.exitCode === 0 ? /\d+\.\d+\.\d+/.exec(String(result.stdout))?.[0] : undefined;
}

/**
 * The session backend for a run, with the sandbox it confines commands in.
 * A live run (a real key) refuses to start without bubblewrap: the fallback
 * child process could read the key from its parent's environment.
 */
export async function createBackend(
  name: 'claude-code' | 'messages',
  live: boolean,
  keyInEnvironment: boolean,
): Promise<Result<PreparedBackend, InputError>> {
  const sandbox = await detectSandbox();
  if (sandbox.kind !== 'bubblewrap' && (live || keyInEnvironment)) {
    return err(
      inputError(
        `--backend ${name}`,
        live
          ? `a live run needs bubblewrap so no tool can read the API key (${sandbox.description})`
          : `ANTHROPIC_API_KEY is set in this environment and there is no bubblewrap to keep tools from reading it (${sandbox.description})`,
        live
          ? 'apt-get install bubblewrap (and allow user namespaces), or run offline with --model scripted:<policy>'
          : 'unset ANTHROPIC_API_KEY for an offline run, or apt-get install bubblewrap',
      ),
    );
  }
  const maxRetries = live ? 4 : 2;
  if (name === 'claude-code') {
    const binary = locateClaudeCodeBinary();
    const version = binary === undefined ? undefined : await claudeCodeVersion(binary);
    if (binary === undefined || version === undefined) {
      return err(
        inputError(
          '--backend claude-code',
          'the Claude Code engine is not installed or does not start (it ships in @anthropic-ai/claude-agent-sdk)',
          'run npm install, or use --backend messages',
        ),
      );
    }
    return ok({
      backend: claudeCodeBackend({ binary, sandbox, maxRetries }),
      engine: `claude-code ${version}`,
      sandbox,
      sandboxDescription: `${sandbox.description}; the engine's Read/Glob/Grep limited to the fixture and skill, edits to the fixture, by permission rules`,
    });
  }
  return ok({
    backend: messagesBackend({ sandbox, maxRetries }),
    engine: `redgreen-messages (@anthropic-ai/sdk ${SDK_VERSION})`,
    sandbox,
    sandboxDescription: sandbox.description,
  });
}
