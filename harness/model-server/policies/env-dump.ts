/**
 * `full-env-dump`: a full session (`stop: complete`) whose every seat dumps
 * the environment its tool calls run in, for the API-key canary tests. The
 * controller (its prompt names `Repository: /abs/repo`) dumps its own, then
 * dispatches two subagents through `Agent`, one asking for the `opus` tier
 * (so the engine's ANTHROPIC_DEFAULT_<TIER>_MODEL and the messages backend's
 * tier mapping are exercised) and one asking for none, and reports. Each
 * subagent's dispatch prompt starts `You are the environment auditor of this
 * session (seat <name>).`; its seat runs the three dumps (`env`,
 * `/proc/self/environ`, `git config -l`) in the repository, one Bash call
 * each, and reports. A test then looks for a key in what they printed.
 *
 * The seat's calls carry the seat's name in their description, so two seats
 * of one session (the engine sends every subagent's requests under the
 * controller's session key) never get the same tool_use ids.
 */
import type { ScriptedPolicy } from './policy.js';
import { call, type PolicyProgram } from './program.js';
import { bash, shellQuote } from './tools.js';

export const ENV_DUMP_POLICY = 'full-env-dump';

/** The three dumps a seat runs, each printed under its own heading line. */
export const ENV_DUMPS = [
  { name: 'env', command: 'env' },
  { name: 'proc-environ', command: "cat /proc/self/environ | tr '\\0' '\\n'" },
  { name: 'git-config', command: 'git config -l' },
] as const;

/** The seats the controller dispatches: its name and the model tier it asks for. */
export const ENV_DUMP_SEATS = [
  { name: 'opus', tier: 'opus' },
  { name: 'default', tier: undefined },
] as const;

/** The heading line a dump's output starts with, for a reader of the transcript. */
export function dumpHeading(seat: string, dump: string): string {
  return `=== env-dump ${dump} (seat ${seat}) ===`;
}

const repoLine = /^Repository: (\/\S+)$/m;
const seatOpening = /^You are the environment auditor of this session \(seat ([\w-]+)\)\.$/m;

export const fullEnvDumpPolicy: ScriptedPolicy = {
  name: ENV_DUMP_POLICY,
  summary:
    'canary: a full session whose controller and subagents (one on the opus tier) dump their tool environment (env, /proc/self/environ, git config -l)',
  program: (request) => envDumpProgram(request.label, request.promptText, request.offeredTools),
};

/** The seat an env-dump dispatch prompt starts (its name and repository), if it is one. */
export function envDumpSeatOf(
  promptText: string,
): { readonly seat: string; readonly repo: string } | undefined {
  const seat = seatOpening.exec(promptText)?.[1];
  const repo = repoLine.exec(promptText)?.[1];
  return seat === undefined || repo === undefined ? undefined : { seat, repo };
}

function seatPrompt(seat: string, repo: string): string {
  return [
    `You are the environment auditor of this session (seat ${seat}).`,
    `Repository: ${repo}`,
    '',
    'Print the environment your commands run in, then report.',
  ].join('\n');
}

/** One Bash call per dump, in the repository, each under its heading. */
function* dumpAll(seat: string, repo: string): PolicyProgram {
  for (const dump of ENV_DUMPS) {
    yield* call(
      bash(
        `cd ${shellQuote(repo)} && echo ${shellQuote(dumpHeading(seat, dump.name))} && ${dump.command}`,
        `Dump the environment: ${dump.name} (seat ${seat})`,
      ),
    );
  }
  return `Environment dumped (seat ${seat}).`;
}

/**
 * The program for a request under `full-env-dump`: a seat's when the
 * conversation starts from an env-dump dispatch prompt, else the controller's.
 */
function* envDumpProgram(
  label: string,
  promptText: string,
  offeredTools: ReadonlySet<string>,
): PolicyProgram {
  const seat = envDumpSeatOf(promptText);
  if (seat !== undefined) return yield* dumpAll(seat.seat, seat.repo);
  const repo = repoLine.exec(promptText)?.[1];
  if (repo === undefined) {
    return `${label} needs a "Repository: /abs/repo" line in the prompt; no tools were run.`;
  }
  if (!offeredTools.has('Agent')) {
    return `${label} cannot act: the request offers no Agent tool; no tools were run.`;
  }
  yield* dumpAll('controller', repo);
  const reports: string[] = [];
  for (const seat of ENV_DUMP_SEATS) {
    const outcome = yield* call({
      name: 'Agent',
      input: {
        description: `Dump the environment (seat ${seat.name})`,
        prompt: seatPrompt(seat.name, repo),
        subagent_type: 'general-purpose',
        run_in_background: false,
        ...(seat.tier === undefined ? {} : { model: seat.tier }),
      },
    });
    reports.push(`seat ${seat.name}: ${outcome.isError ? 'failed' : 'done'}`);
  }
  return `Environment dumped by the controller and ${reports.length} subagents (${reports.join('; ')}).`;
}
