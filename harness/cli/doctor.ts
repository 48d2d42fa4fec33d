import type { Command } from 'commander';
import { z } from 'zod';
import { failWithInputError } from './exit.js';

interface DoctorFlags {
  json?: boolean;
  check?: boolean;
  model?: string;
}

const checkSchema = z.object({ name: z.string(), ok: z.boolean(), detail: z.string() }).strict();
type Check = z.infer<typeof checkSchema>;

/** `doctor --json`: the envelope every command's JSON has, then the checks. */
export const doctorJsonSchema = z
  .object({
    schemaVersion: z.literal(1),
    command: z.literal('doctor'),
    /** `ok` when every check passes, `warn` when one does not. */
    outcome: z.enum(['ok', 'warn']),
    exitCode: z.union([z.literal(0), z.literal(1)]),
    /** The campaign file given (absolute), or null. */
    campaign: z.string().nullable(),
    checks: z.array(checkSchema),
  })
  .strict();

async function versionOf(command: string, args: readonly string[]): Promise<string | undefined> {
  const { execa } = await import('execa');
  const result = await execa(command, args, { reject: false, timeout: 20_000 });
  return result.exitCode === 0 ? String(result.stdout).trim().split('\n')[0] : undefined;
}

/** `redgreen doctor`: what this machine can run, and what is missing. */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'report what this machine can run: Node and git versions, the Claude Code and Codex engines, which sandbox confines model-issued commands, and whether an API key is set (never its value); given a campaign file, its models and endpoint profiles.',
    )
    .option(
      '--json',
      'print one JSON object: schemaVersion, command, outcome (ok | warn), exitCode, campaign and the checks',
    )
    .option(
      '--check',
      'also send one cheap request (a one-token message) to the endpoint with the key, to prove the key, the endpoint and the model work; offline (no key) there is nothing to check',
    )
    .option('--model <id>', "the model --check asks for (default: the default campaign's model)")
    .argument(
      '[campaign]',
      "also list this campaign file's models and endpoint profiles, whether each key variable is set (never its value), and whether a run of it is live or offline; with --check, one request per endpoint",
    )
    .action(async (campaignArg: string | undefined, flags: DoctorFlags) => {
      // A campaign that cannot be found or read is bad input (exit 2), before any check.
      let campaign: string | undefined;
      let engines: readonly string[] | undefined;
      if (campaignArg !== undefined) {
        const { locateCampaignFile, readCampaignFile } = await import(
          '../campaign/load-campaign.js'
        );
        campaign = locateCampaignFile(campaignArg, process.cwd());
        const readable = readCampaignFile(campaign);
        if (!readable.ok) {
          process.exitCode = failWithInputError(readable.error);
          return;
        }
        engines = readable.value.engines ?? [readable.value.backend];
      }
      const { detectSandbox } = await import('../sandbox/sandbox.js');
      const { binaryLabel } = await import('../session/locate-engine.js');
      const { locateClaudeCodeBinary } = await import('../session/locate-engine.js');
      const checks: Check[] = [];
      checks.push({ name: 'node', ok: true, detail: process.version });
      const git = await versionOf('git', ['--version']);
      checks.push({
        name: 'git',
        ok: git !== undefined,
        detail: git ?? 'not found: apt-get install git',
      });
      // Each engine's version and binary; one missing warns when the campaign runs on it
      // (without a campaign: claude-code, the default engine).
      const binary = locateClaudeCodeBinary();
      const engine = binary === undefined ? undefined : await versionOf(binary, ['--version']);
      checks.push({
        name: 'claude-code engine',
        ok: engine !== undefined || !(engines ?? ['claude-code']).includes('claude-code'),
        detail:
          engine === undefined || binary === undefined
            ? 'not installed: npm install (ships in @anthropic-ai/claude-agent-sdk); --backend messages works without it'
            : `${engine} (${binaryLabel(binary)})`,
      });
      const { codexVersion, locateCodexBinary } = await import('../session/codex-home.js');
      const codexBinary = locateCodexBinary();
      const codex = codexBinary === undefined ? undefined : await codexVersion(codexBinary);
      checks.push({
        name: 'codex engine',
        ok: codex !== undefined || !(engines ?? []).includes('codex'),
        detail:
          codex === undefined || codexBinary === undefined
            ? 'not installed: npm install (ships in @openai/codex); --backend codex and --engine codex need it'
            : `${codex} (${binaryLabel(codexBinary)})`,
      });
      const sandbox = await detectSandbox();
      const { SOCAT } = await import('../session/codex-bridge.js');
      const { existsSync } = await import('node:fs');
      checks.push(socatCheck(existsSync(SOCAT), SOCAT, engines ?? []));
      checks.push({
        name: 'sandbox',
        ok: sandbox.kind === 'bubblewrap',
        detail: sandbox.description,
      });
      const key = (process.env.ANTHROPIC_API_KEY ?? '').trim() !== '';
      checks.push({
        name: 'ANTHROPIC_API_KEY',
        ok: true,
        detail:
          campaign !== undefined
            ? `${key ? 'set' : 'not set'} (the key of models on the default endpoint)`
            : key
              ? 'set (live runs use the campaign model)'
              : 'not set (runs are offline, with scripted policies)',
      });
      const baseUrl = process.env.ANTHROPIC_BASE_URL?.trim();
      if (baseUrl !== undefined && baseUrl !== '') {
        const { displayBaseUrl } = await import('../campaign/model-choice.js');
        checks.push({ name: 'ANTHROPIC_BASE_URL', ok: true, detail: displayBaseUrl(baseUrl) });
      }
      if (campaign === undefined) {
        if (flags.check) checks.push(await endpointCheck(key, baseUrl, flags.model));
      } else {
        const { campaignModelChecks } = await import('../campaign/model-doctor.js');
        const listed = await campaignModelChecks(campaign, process.env, !!flags.check);
        checks.push(...listed);
      }
      const ok = checks.every((check) => check.ok);
      if (flags.json) {
        const document = doctorJsonSchema.parse({
          schemaVersion: 1,
          command: 'doctor',
          outcome: ok ? 'ok' : 'warn',
          exitCode: ok ? 0 : 1,
          campaign: campaign ?? null,
          checks,
        });
        process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
      } else {
        const width = Math.max(...checks.map((check) => check.name.length));
        for (const check of checks) {
          process.stdout.write(
            `${check.ok ? 'ok  ' : 'WARN'}  ${check.name.padEnd(width)}  ${check.detail}\n`,
          );
        }
      }
      process.exitCode = ok ? 0 : 1;
    });
}

/**
 * socat joins a Codex engine in the bubblewrap sandbox to the model server
 * (session/codex-bridge.ts); missing, it warns when the campaign runs on
 * codex (without a campaign: noted, never a warning).
 */
export function socatCheck(found: boolean, file: string, engines: readonly string[]): Check {
  return {
    name: 'socat',
    ok: found || !engines.includes('codex'),
    detail: found
      ? `${file} (the codex engine in the bubblewrap sandbox reaches the model server through it)`
      : `not found at ${file}: apt-get install socat (the codex engine in the bubblewrap sandbox needs it; claude-code and messages do not)`,
  };
}

/** `doctor --check`: the endpoint, key and model answer a one-token request (the key is never shown). */
async function endpointCheck(
  keySet: boolean,
  baseUrl: string | undefined,
  model: string | undefined,
): Promise<Check> {
  if (!keySet) {
    return {
      name: 'endpoint',
      ok: true,
      detail: 'nothing to check: no ANTHROPIC_API_KEY, so runs are offline',
    };
  }
  const { readFile } = await import('node:fs/promises');
  const { defaultCampaignFile } = await import('../campaign/load-campaign.js');
  const { preflightEndpoint, endpointName } = await import('../campaign/preflight.js');
  const { formatInputError } = await import('../lib/input-error.js');
  const campaignFile = defaultCampaignFile();
  const campaignModel =
    campaignFile === undefined
      ? undefined
      : (JSON.parse(await readFile(campaignFile, 'utf8')) as { model: string }).model;
  const chosen = model ?? campaignModel;
  if (chosen === undefined) {
    return {
      name: 'endpoint',
      ok: false,
      detail: 'no model to ask: pass --model (no installed pack names a default campaign)',
    };
  }
  const target = {
    model: chosen,
    baseUrl: baseUrl === '' ? undefined : baseUrl,
    apiKey: process.env.ANTHROPIC_API_KEY ?? '',
  };
  const answered = await preflightEndpoint(target);
  if (!answered.ok) {
    return { name: 'endpoint', ok: false, detail: formatInputError(answered.error) };
  }
  return {
    name: 'endpoint',
    ok: true,
    detail:
      answered.value.note ??
      `${endpointName(target.baseUrl)} accepted the key and answered for ${target.model}`,
  };
}
