/**
 * What running Codex CLI offline against the model server needs, before any
 * backend: the binary `@openai/codex` ships in its platform package, and a
 * fresh `CODEX_HOME` per session whose `config.toml` points the engine at
 * the local Responses face and closes every other door:
 *
 * - the provider is the model server (`wire_api = "responses"`), with no
 *   `env_key` (no key exists, none is sent) and no retries, so a dead server
 *   fails the run at once instead of reconnecting forever;
 * - `analytics.enabled = false` (no OTLP metrics) and `features.plugins =
 *   false` (no curated-plugin sync with github.com / chatgpt.com);
 * - `shell_environment_policy.inherit = "core"`: a model command sees only
 *   the core variables, never the engine's environment;
 * - `skills.bundled.enabled = false`: Codex neither extracts nor lists its
 *   own bundled skills (`$CODEX_HOME/skills/.system`: imagegen,
 *   openai-docs, skill-creator, skill-installer, review-agent), so a session
 *   lists only the skills the arm installed (measured on 0.169.0: accepted
 *   by `--strict-config`, no `.system` directory, one skill root listed);
 * - a model catalog (`model_catalog_json`) with an entry per scripted model
 *   id, copied from the binary's bundled `gpt-5.5` entry (plain function
 *   tools, freeform apply_patch, the multi_agent_v1 namespace offered
 *   directly since tool search is off), so `scripted:<policy>@<tier>` ids
 *   are models Codex knows and a subagent may be given one.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { z } from 'zod';
import { RECORD_TOKEN_HEADER } from '../model-server/responses/issued-calls.js';

const vendorTriples: Readonly<Record<string, string>> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

/** The Codex binary of `@openai/codex`'s platform package, or undefined when none is installed here. */
export function locateCodexBinary(): string | undefined {
  const platform = `${process.platform}-${process.arch}`;
  const triple = vendorTriples[platform];
  if (triple === undefined) return undefined;
  try {
    const manifest = createRequire(import.meta.url).resolve(
      `@openai/codex-${platform}/package.json`,
    );
    const binary = path.join(path.dirname(manifest), 'vendor', triple, 'bin', 'codex');
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `codex --version` (`codex-cli 0.169.0`), run with a throwaway HOME and
 * CODEX_HOME: the binary sets up helper aliases under its home on start,
 * and the user's own home is left alone. Undefined when it does not answer.
 */
export async function codexVersion(binary: string): Promise<string | undefined> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'redgreen-codex-version-'));
  try {
    const run = await execa(binary, ['--version'], {
      env: {
        PATH: '/usr/bin:/bin',
        HOME: scratch,
        CODEX_HOME: path.join(scratch, 'home'),
        TMPDIR: scratch,
      },
      extendEnv: false,
      stdin: 'ignore',
      timeout: 20_000,
      reject: false,
    });
    const line = String(run.stdout).trim().split('\n')[0];
    return run.exitCode === 0 && line !== undefined && line !== '' ? line : undefined;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

const CatalogSchema = z.looseObject({
  models: z.array(z.looseObject({ slug: z.string() })),
});
type CatalogEntry = z.infer<typeof CatalogSchema>['models'][number];

/** The catalog entry scripted models are modelled on. */
export const CATALOG_TEMPLATE_SLUG = 'gpt-5.5';

/**
 * The binary's bundled entry for CATALOG_TEMPLATE_SLUG (`codex debug models
 * --bundled`, offline, about 0.1 s), or why it could not be read.
 */
export async function bundledCatalogTemplate(
  binary: string,
  scratch: string,
): Promise<{ ok: true; value: CatalogEntry } | { ok: false; error: string }> {
  const home = path.join(scratch, 'catalog-home');
  await mkdir(home, { recursive: true });
  const run = await execa(binary, ['debug', 'models', '--bundled'], {
    env: { PATH: '/usr/bin:/bin', HOME: scratch, CODEX_HOME: home, TMPDIR: scratch },
    extendEnv: false,
    stdin: 'ignore',
    timeout: 30_000,
    reject: false,
  });
  if (run.exitCode !== 0) return { ok: false, error: `codex debug models exited ${run.exitCode}` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(run.stdout);
  } catch {
    return { ok: false, error: 'codex debug models printed no JSON catalog' };
  }
  const catalog = CatalogSchema.safeParse(parsed);
  const entry = catalog.success
    ? catalog.data.models.find((model) => model.slug === CATALOG_TEMPLATE_SLUG)
    : undefined;
  return entry === undefined
    ? { ok: false, error: `the bundled catalog has no ${CATALOG_TEMPLATE_SLUG} entry` }
    : { ok: true, value: entry };
}

export interface CodexHomeOptions {
  /** The directory to become CODEX_HOME (created). */
  readonly dir: string;
  /** The model server's base URL (`http://127.0.0.1:<port>`); Codex appends `/v1/responses`. */
  readonly serverUrl: string;
  /** The session's model id (`scripted:<policy>`), and any other ids its subagents may be given. */
  readonly model: string;
  readonly otherModels?: readonly string[];
  readonly catalogTemplate: CatalogEntry;
  /** Sent as `x-redgreen-session` on every request, so the server keys the session as the runner does. */
  readonly sessionKey?: string;
  /**
   * Sent as `x-redgreen-record` on every request: the token the server keeps this
   * session's issued calls under (responses/issued-calls.ts), known only to this rep.
   */
  readonly recordToken?: string;
  /** Codex's own sandbox for model commands (default workspace-write). */
  readonly sandbox?: 'workspace-write' | 'danger-full-access';
  /**
   * Read no AGENTS.md of the repository (`project_doc_max_bytes = 0`): a
   * session is given exactly the instruction files its scenario names, in
   * `instructions`, as the other backends give them. Default: Codex reads them.
   */
  readonly projectDocs?: boolean;
  /** The session's instructions: `$CODEX_HOME/AGENTS.md`, which Codex puts before any project's. */
  readonly instructions?: string;
}

/** Write `config.toml` and the model catalog into a fresh CODEX_HOME; resolves to its path. */
export async function writeCodexHome(options: CodexHomeOptions): Promise<string> {
  await mkdir(options.dir, { recursive: true });
  const models = [...new Set([options.model, ...(options.otherModels ?? [])])];
  const catalogFile = path.join(options.dir, 'redgreen-models.json');
  const catalog = {
    models: models.map((slug) => ({
      ...options.catalogTemplate,
      slug,
      display_name: slug,
      description: 'A scripted redgreen policy, not a model.',
      supports_search_tool: false,
    })),
  };
  await writeAtomically(catalogFile, `${JSON.stringify(catalog)}\n`);
  if (options.instructions !== undefined) {
    await writeAtomically(path.join(options.dir, 'AGENTS.md'), options.instructions);
  }
  await writeAtomically(path.join(options.dir, 'config.toml'), codexConfig(options, catalogFile));
  return options.dir;
}

/** The config.toml text (TOML basic strings are written as JSON strings, which they accept). */
export function codexConfig(options: CodexHomeOptions, catalogFile: string): string {
  const quote = (value: string): string => JSON.stringify(value);
  const sandbox = options.sandbox ?? 'workspace-write';
  return [
    `model = ${quote(options.model)}`,
    'model_provider = "redgreen"',
    `model_catalog_json = ${quote(catalogFile)}`,
    'approval_policy = "never"',
    `sandbox_mode = ${quote(sandbox)}`,
    ...(options.projectDocs === false ? ['project_doc_max_bytes = 0'] : []),
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[features]',
    'plugins = false',
    'unbounded_connection_retries = false',
    '',
    '[shell_environment_policy]',
    'inherit = "core"',
    '',
    '[skills.bundled]',
    'enabled = false',
    '',
    ...(sandbox === 'workspace-write'
      ? [
          '[sandbox_workspace_write]',
          'exclude_slash_tmp = true',
          'exclude_tmpdir_env_var = true',
          '',
        ]
      : []),
    '[model_providers.redgreen]',
    'name = "redgreen scripted"',
    `base_url = ${quote(`${options.serverUrl.replace(/\/+$/, '')}/v1`)}`,
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    'stream_idle_timeout_ms = 30000',
    ...httpHeaders(options),
    '',
  ].join('\n');
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}

/** The provider's `http_headers` line: the session key and the record token, when given. */
function httpHeaders(options: CodexHomeOptions): string[] {
  const quote = (value: string): string => JSON.stringify(value);
  const pairs = [
    ...(options.sessionKey === undefined
      ? []
      : [`"x-redgreen-session" = ${quote(options.sessionKey)}`]),
    ...(options.recordToken === undefined
      ? []
      : [`"${RECORD_TOKEN_HEADER}" = ${quote(options.recordToken)}`]),
  ];
  return pairs.length === 0 ? [] : [`http_headers = { ${pairs.join(', ')} }`];
}
