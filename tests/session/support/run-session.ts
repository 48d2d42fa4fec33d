/**
 * One session through a real backend's public `run`, the way the rep runner
 * starts one: the real Claude Code engine (through the Agent SDK) or
 * redgreen's own loop on the real `@anthropic-ai/sdk`, in a widget-v3 fixture
 * copy, with a rendered campaign prompt template, against a model endpoint
 * on 127.0.0.1 (the model server, or a script brain). Returns the outcome and
 * the transcript's lines.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { detectSandbox } from '../../../harness/sandbox/sandbox.js';
import { loadPromptTemplate } from '../../../harness/scenario/prompt-template.js';
import type { EventSelector } from '../../../harness/score/event-selector.js';
import type { ScriptedUser } from '../../../harness/score/scripted-user.js';
import type { StopMode } from '../../../harness/score/stop-mode.js';
import { claudeCodeBackend } from '../../../harness/session/claude-code-backend.js';
import type { InstalledLibrary } from '../../../harness/session/installed-library.js';
import { locateClaudeCodeBinary } from '../../../harness/session/locate-engine.js';
import { messagesBackend } from '../../../harness/session/messages-backend.js';
import type { UserModelEndpoint } from '../../../harness/session/played-user.js';
import type { ProjectInstruction } from '../../../harness/session/project-instructions.js';
import type { ProjectSkill } from '../../../harness/session/project-skills.js';
import { SecretRedactor } from '../../../harness/session/secret-redactor.js';
import type { Limits } from '../../../harness/session/session-limits.js';
import type { ToolChanges } from '../../../harness/session/session-tool-table.js';
import type { Clock, PriceModel, SessionOutcome } from '../../../harness/session/session-types.js';
import { TranscriptSink } from '../../../harness/session/transcript-sink.js';
import { repoRoot } from '../../helpers/cli.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

export type BackendName = 'claude-code' | 'messages';

export const planScopedSkill = path.join(repoRoot, 'skills-under-test', 'sdd-plan-scoped');
export const widgetPlan = 'docs/plans/2026-07-06-widget-export.md';
export const sessionApiKey = 'sk-redgreen-session-test-key';

/** Why the claude-code backend cannot run here, or undefined when it can. */
export function engineUnavailable(): string | undefined {
  return locateClaudeCodeBinary() === undefined
    ? 'the Claude Code binary of @anthropic-ai/claude-agent-sdk is not installed'
    : undefined;
}

/** A campaign prompt template (scenarios/prompts/<name>.hbs) rendered for one session. */
export async function renderPrompt(
  template: 'compaction-resume' | 'compaction-resume-continue',
  fixtureRepo: string,
  skillDir: string = planScopedSkill,
): Promise<string> {
  const loaded = await loadPromptTemplate(
    path.join(repoRoot, 'scenarios', 'prompts', `${template}.hbs`),
    template,
  );
  if (!loaded.ok) throw new Error(`${template}: ${loaded.error.problem}`);
  return loaded.value.render({ skillDir, fixtureRepo, planPath: widgetPlan });
}

export interface SessionRun {
  readonly outcome: SessionOutcome;
  /** transcript.jsonl, one parsed message per line. */
  readonly transcript: readonly Record<string, unknown>[];
}

export async function runBackendSession(options: {
  readonly backend: BackendName;
  readonly stop: StopMode;
  readonly baseUrl: string;
  readonly model: string;
  readonly prompt: string;
  readonly fixtureRepo: string;
  /** A linked worktree inside `fixtureRepo` the session starts in. */
  readonly startDir?: string;
  readonly skillDir?: string;
  readonly limits?: Partial<Limits>;
  readonly signal?: AbortSignal;
  readonly repId?: string;
  /** Prices replies for the cost limits (absent: unpriced, as a scripted model is). */
  readonly price?: PriceModel;
  /** The clock the per-seat time limit reads. */
  readonly clock?: Clock;
  /** False: the endpoint stands for a live model (default true: a scripted brain). */
  readonly scripted?: boolean;
  /** `stop: complete`: the scenario's scripted user (the defaults when absent). */
  readonly user?: ScriptedUser;
  /** The model playing the user (played-user.ts), as a live run's rep gets it. */
  readonly userModel?: UserModelEndpoint;
  /** An installed skills library (library-install.ts), an event stop, instruction files, tool changes. */
  readonly library?: InstalledLibrary;
  readonly stopAt?: readonly EventSelector[];
  readonly instructions?: readonly ProjectInstruction[];
  /** The fixture's opted-in project skills (project-skills.ts). */
  readonly projectSkills?: readonly ProjectSkill[];
  readonly tools?: ToolChanges;
}): Promise<SessionRun> {
  const sandbox = await detectSandbox();
  const binary = locateClaudeCodeBinary();
  const backend =
    options.backend === 'messages'
      ? messagesBackend({ sandbox, maxRetries: 0 })
      : claudeCodeBackend({
          binary: binary ?? 'claude-not-installed',
          sandbox,
          maxRetries: 0,
        });
  const dir = makeTempDir('redgreen-session-');
  const transcriptFile = path.join(dir, 'transcript.jsonl');
  const transcript = new TranscriptSink(transcriptFile, new SecretRedactor([sessionApiKey]));
  let outcome: SessionOutcome;
  try {
    outcome = await backend.run({
      repId: options.repId ?? `test/${options.backend}-${options.stop}`,
      prompt: options.prompt,
      fixtureRepo: options.fixtureRepo,
      ...(options.startDir === undefined ? {} : { startDir: options.startDir }),
      skillDir: options.skillDir ?? planScopedSkill,
      privateDir: path.join(dir, 'private'),
      model: {
        id: options.model,
        baseUrl: options.baseUrl,
        apiKey: sessionApiKey,
        scripted: options.scripted ?? true,
      },
      limits: {
        maxTurns: 40,
        sessionTimeoutSeconds: 120,
        toolTimeoutSeconds: 60,
        toolOutputMaxBytes: 30_000,
        maxCostUsd: null,
        ...options.limits,
      },
      stop: options.stop,
      ...(options.user === undefined ? {} : { user: options.user }),
      ...(options.userModel === undefined ? {} : { userModel: options.userModel }),
      ...(options.library === undefined ? {} : { library: options.library }),
      ...(options.stopAt === undefined ? {} : { stopAt: options.stopAt }),
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      ...(options.projectSkills === undefined ? {} : { projectSkills: options.projectSkills }),
      ...(options.tools === undefined ? {} : { tools: options.tools }),
      transcript,
      engineLog: () => {},
      signal: options.signal ?? new AbortController().signal,
      ...(options.price === undefined ? {} : { price: options.price }),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    });
  } finally {
    await transcript.close();
  }
  const lines = readFileSync(transcriptFile, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { outcome, transcript: lines };
}

interface Block {
  readonly type: string;
  readonly id?: string;
  readonly name?: string;
  readonly input?: unknown;
  readonly tool_use_id?: string;
  readonly content?: unknown;
  readonly is_error?: boolean;
}

function blocksOf(message: Record<string, unknown>): Block[] {
  const content = (message.message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? (content as Block[]) : [];
}

/** The controller's tool_use blocks in the transcript, in order, deduplicated by id. */
export function controllerToolUses(
  transcript: readonly Record<string, unknown>[],
): { id: string; name: string; input: unknown }[] {
  const seen = new Map<string, { id: string; name: string; input: unknown }>();
  for (const message of transcript) {
    if (message.type !== 'assistant' || message.parent_tool_use_id != null) continue;
    for (const block of blocksOf(message)) {
      if (block.type === 'tool_use' && block.id !== undefined && !seen.has(block.id)) {
        seen.set(block.id, { id: block.id, name: String(block.name), input: block.input });
      }
    }
  }
  return [...seen.values()];
}

/** The tool_result blocks of the transcript's user messages, by tool_use id. */
export function toolResults(
  transcript: readonly Record<string, unknown>[],
): Map<string, { text: string; isError: boolean }> {
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const message of transcript) {
    if (message.type !== 'user') continue;
    for (const block of blocksOf(message)) {
      if (block.type !== 'tool_result' || block.tool_use_id === undefined) continue;
      const text =
        typeof block.content === 'string' ? block.content : JSON.stringify(block.content ?? '');
      results.set(block.tool_use_id, { text, isError: block.is_error === true });
    }
  }
  return results;
}
