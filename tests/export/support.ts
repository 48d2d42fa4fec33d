import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import type { AtifTrajectory } from '../../harness/export/atif-document.js';
import { atifInvariantProblems } from '../../harness/export/atif-invariants.js';
import { cleanEnv, repoRoot, runCli } from '../helpers/cli.js';

/**
 * The JSON Schema (draft 2020-12) other tools would validate against, compiled
 * with ajv in strict mode; union types (`["integer", "null"]`) are allowed
 * because ATIF's optional values may be null.
 */
const schemaFile = path.join(repoRoot, 'schemas/atif-v1.4.schema.json');
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
const validateAgainstSchema = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')));

/** Schema errors of a document (empty when it is valid ATIF v1.4 by the JSON Schema). */
export function schemaErrors(document: unknown): ErrorObject[] {
  return validateAgainstSchema(document) ? [] : [...(validateAgainstSchema.errors ?? [])];
}

/** Everything wrong with a document: JSON Schema errors, then the cross-field rules. */
export function atifProblems(document: unknown): string[] {
  const errors = schemaErrors(document).map(
    (error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`,
  );
  if (errors.length > 0) return errors;
  return atifInvariantProblems(document as AtifTrajectory);
}

/** Run `redgreen run` offline (no API key): one rep, the first quarter of the plan. */
export async function generateRun(
  outDir: string,
  backend: 'claude-code' | 'messages',
): Promise<void> {
  const result = await runCli(
    ['run', '--reps', '1', '--shard', '1/4', '--backend', backend, '--out', outDir, '--no-report'],
    { env: cleanEnv(), timeoutMs: 180_000 },
  );
  if (result.exitCode !== 0) {
    throw new Error(`redgreen run (${backend}) exited ${result.exitCode}: ${result.stderr}`);
  }
}

export function readJson<T = unknown>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** Rep directories of a results dir (reps/<arm>/<scenario>-rep<N>), superseded attempts left out. */
export function repDirs(resultsDir: string): string[] {
  const reps = path.join(resultsDir, 'reps');
  const out: string[] = [];
  for (const arm of readdirSync(reps)) {
    for (const rep of readdirSync(path.join(reps, arm))) {
      if (/-rep\d+$/.test(rep)) out.push(path.join(reps, arm, rep));
    }
  }
  return out.sort();
}

/** Every .json file under a directory, recursively. */
export function jsonFilesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...jsonFilesUnder(full));
    else if (entry.endsWith('.json')) out.push(full);
  }
  return out.sort();
}

/** The tool_result contents of a transcript, by tool_use id, read independently of the exporter. */
export function transcriptToolResults(transcript: string): Map<string, string> {
  const results = new Map<string, string>();
  for (const line of transcript.split('\n')) {
    if (line.trim() === '') continue;
    const message = JSON.parse(line) as {
      type?: string;
      parent_tool_use_id?: string | null;
      message?: { content?: unknown };
    };
    if (message.type !== 'user' || (message.parent_tool_use_id ?? null) !== null) continue;
    const content = message.message?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content as { type?: string; tool_use_id?: string; content?: unknown }[]) {
      if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        if (typeof block.content === 'string') results.set(block.tool_use_id, block.content);
      }
    }
  }
  return results;
}

/**
 * The facts an exported trajectory must keep from its rep directory: the
 * prompt is step 1, the tool calls are as many as meta.json's toolUses, the
 * last agent step says what reply.md says (minus its tool_uses first line),
 * each observation is the transcript's tool_result for that call, and the
 * totals are meta.json's. Returns one line per fact that does not hold.
 */
export function roundTripProblems(trajectory: AtifTrajectory, repDir: string): string[] {
  const problems: string[] = [];
  const meta = readJson<{
    toolUses: number;
    tokens: { input: number; output: number; cacheWrite: number; cacheRead: number } | null;
    costUsd: number | null;
  }>(path.join(repDir, 'meta.json'));
  const replyFile = readFileSync(path.join(repDir, 'reply.md'), 'utf8');
  const reply = replyFile.slice(replyFile.indexOf('\n') + 1);
  const prompt = readFileSync(path.join(repDir, 'prompt.md'), 'utf8');
  const transcript = readFileSync(path.join(repDir, 'transcript.jsonl'), 'utf8');

  const first = trajectory.steps[0];
  if (first?.source !== 'user' || first.message !== prompt) {
    problems.push('step 1 is not the user prompt from prompt.md');
  }
  const calls = trajectory.steps.flatMap((step) => step.tool_calls ?? []);
  if (calls.length !== meta.toolUses) {
    problems.push(`${calls.length} tool calls exported, meta.json toolUses is ${meta.toolUses}`);
  }
  const lastAgent = trajectory.steps.filter((step) => step.source === 'agent').at(-1);
  if (reply.trim() !== '' && lastAgent?.message !== reply) {
    problems.push('the last agent step is not the reply in reply.md');
  }
  const results = transcriptToolResults(transcript);
  for (const step of trajectory.steps) {
    for (const call of step.tool_calls ?? []) {
      const expected = results.get(call.tool_call_id);
      if (expected === undefined) continue;
      const observed = step.observation?.results.find(
        (result) => result.source_call_id === call.tool_call_id,
      );
      if (observed === undefined) {
        problems.push(`the result of ${call.tool_call_id} is not in its step's observation`);
      } else if (observed.content !== expected) {
        problems.push(`observation for ${call.tool_call_id} differs from its tool_result`);
      }
    }
  }
  const totals = trajectory.final_metrics;
  if (meta.tokens !== null) {
    const prompted = meta.tokens.input + meta.tokens.cacheWrite + meta.tokens.cacheRead;
    if (totals?.total_prompt_tokens !== prompted) problems.push('total_prompt_tokens differs');
    if (totals?.total_completion_tokens !== meta.tokens.output) {
      problems.push('total_completion_tokens differs');
    }
    if (totals?.total_cached_tokens !== meta.tokens.cacheRead) {
      problems.push('total_cached_tokens differs');
    }
  }
  if (totals?.total_cost_usd !== meta.costUsd) problems.push('total_cost_usd differs');
  return problems;
}
