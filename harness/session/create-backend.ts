import { VERSION as SDK_VERSION } from '@anthropic-ai/sdk/version';
import { execa } from 'execa';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { credentialsSet } from '../sandbox/credentials.js';
import { detectSandbox, type Sandbox } from '../sandbox/sandbox.js';
import { claudeCodeBackend } from './claude-code-backend.js';
import { codexBackend } from './codex-backend.js';
import { codexVersion, locateCodexBinary } from './codex-home.js';
import { locateClaudeCodeBinary } from './locate-engine.js';
import { messagesBackend } from './messages-backend.js';
import type { BackendName } from './session-tool-table.js';
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

/** What the run tells createBackend about its credentials and the user's choice. */
export interface BackendChoice {
  /** A live model (a real endpoint) is among the run's. */
  readonly live: boolean;
  readonly env: NodeJS.ProcessEnv;
  /** The run's endpoint profiles' key variables, besides those redgreen knows of. */
  readonly credentialNames: readonly string[];
  /** `--unsafe-no-sandbox`: run without bubblewrap even so. */
  readonly unsafeNoSandbox: boolean;
}

/**
 * Why a run must not start on this sandbox, or undefined. Without
 * bubblewrap a confined command is an ordinary child process: it could read
 * every credential in redgreen's own environment (/proc/<pid>/environ). So
 * a live run, or any run while a credential variable is set, refuses,
 * unless the user says `--unsafe-no-sandbox`.
 */
export function sandboxRefusal(
  name: string,
  sandbox: Sandbox,
  choice: BackendChoice,
): InputError | undefined {
  if (sandbox.kind === 'bubblewrap' || choice.unsafeNoSandbox) return undefined;
  const set = credentialsSet(choice.env, choice.credentialNames);
  if (!choice.live && set.length === 0) return undefined;
  return inputError(
    `--backend ${name}`,
    choice.live
      ? `a live run needs bubblewrap so no tool can read its credentials (${sandbox.description})`
      : `${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set in this environment and there is no bubblewrap to keep tools from reading ${set.length === 1 ? 'it' : 'them'} (${sandbox.description})`,
    choice.live
      ? 'apt-get install bubblewrap (and allow user namespaces), run offline with --model scripted:<policy>, or accept the risk with --unsafe-no-sandbox'
      : `unset ${set.join(', ')} for an offline run, apt-get install bubblewrap, or accept the risk with --unsafe-no-sandbox`,
  );
}

/**
 * The session backend for a run, with the sandbox it confines commands in;
 * refused without bubblewrap as `sandboxRefusal` says.
 */
export async function createBackend(
  name: BackendName,
  choice: BackendChoice,
): Promise<Result<PreparedBackend, InputError>> {
  const sandbox = await detectSandbox();
  if (name === 'codex') return prepareCodex(sandbox, choice);
  const refused = sandboxRefusal(name, sandbox, choice);
  if (refused !== undefined) return err(refused);
  const live = choice.live;
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

/**
 * The codex backend, refused where it cannot run as redgreen runs it: it
 * needs bubblewrap (the engine itself runs confined; without it Codex would
 * run unconfined, and `--unsafe-no-sandbox` does not change that) and a
 * scripted model (the engine reaches the local model server only).
 */
async function prepareCodex(
  sandbox: Sandbox,
  choice: BackendChoice,
): Promise<Result<PreparedBackend, InputError>> {
  if (choice.live) {
    return err(
      inputError(
        '--backend codex',
        'runs scripted models on the local model server only: its sandbox has no network but the bridge to that server',
        'run offline with --model scripted:<policy>, or use --backend claude-code or messages for a live model',
      ),
    );
  }
  if (sandbox.kind !== 'bubblewrap') {
    return err(
      inputError(
        '--backend codex',
        `runs the engine inside bubblewrap, which is not usable here (${sandbox.description})`,
        'apt-get install bubblewrap (and allow user namespaces), or use --backend messages',
      ),
    );
  }
  const binary = locateCodexBinary();
  const version = binary === undefined ? undefined : await codexVersion(binary);
  if (binary === undefined || version === undefined) {
    return err(
      inputError(
        '--backend codex',
        'the Codex CLI engine is not installed or does not start (it ships in @openai/codex)',
        'run npm install, or use --backend claude-code or messages',
      ),
    );
  }
  return ok({
    backend: codexBackend({ binary, version, sandbox }),
    engine: version,
    sandbox,
    sandboxDescription: `${sandbox.description}; the Codex engine itself runs inside it (its own sandbox off), reaching only the local model server through a unix-socket bridge`,
  });
}
