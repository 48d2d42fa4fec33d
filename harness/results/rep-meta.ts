import { z } from 'zod';
import { apiReportedModel } from '../score/reported-model.js';
import { stopModeSchema } from '../score/stop-mode.js';
import { BACKEND_NAMES } from '../session/session-tool-table.js';
import { seatCountsSchema } from './seat-counts.js';

/**
 * `meta.json` of one rep: how the session ran (not what it decided; that is
 * score.json). Written by the runner, read back by the scorer and reports.
 */
export const tokenUsageSchema = z
  .object({
    input: z.number().int().nonnegative(),
    output: z.number().int().nonnegative(),
    cacheWrite: z.number().int().nonnegative(),
    cacheRead: z.number().int().nonnegative(),
  })
  .strict();

export const sessionStatusSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('completed') }).strict(),
  z
    .object({
      kind: z.literal('indeterminate'),
      stage: z.enum([
        'api',
        'engine',
        'timeout',
        'limit',
        'aborted',
        'reply',
        'harness',
        'pre-check',
        // A scripted brain that is data could not go on: a replay diverged from its recording.
        'brain',
      ]),
      reason: z.string(),
    })
    .strict(),
]);

export const repMetaSchema = z
  .object({
    id: z.string(),
    arm: z.string(),
    scenario: z.string(),
    rep: z.number().int().positive(),
    attempt: z.number().int().positive(),
    status: sessionStatusSchema,
    /** tool_use blocks the main session emitted, deduplicated by id. */
    toolUses: z.number().int().nonnegative(),
    /** tool_use blocks emitted inside subagents (counted apart from toolUses). */
    subagentToolUses: z.number().int().nonnegative(),
    subagentDispatches: z.number().int().nonnegative(),
    /** Each subagent seat and its tool calls (seat-counts.ts); absent in files written before per-seat counts. */
    seats: seatCountsSchema.optional(),
    toolCallsByName: z.record(z.string(), z.number().int().nonnegative()),
    /** What the session left written in the fixture (added and changed files, their bytes after); absent in files written before it was recorded. */
    written: z
      .object({ files: z.number().int().nonnegative(), bytes: z.number().int().nonnegative() })
      .strict()
      .optional(),
    turns: z.number().int().nonnegative(),
    tokens: tokenUsageSchema.nullable(),
    /** True when the token numbers are estimates (the local model server's). */
    tokensEstimated: z.boolean(),
    /** At the repository's price table; null when the model is unpriced or usage unknown. */
    costUsd: z.number().nonnegative().nullable(),
    pricingAsOf: z.string(),
    engineCostEstimateUsd: z.number().nonnegative().nullable(),
    /** Wall time of the session itself (engine and model turns). */
    durationMs: z.number().nonnegative(),
    /** The harness's own time for this rep outside the session: fixture and skill copy, snapshots, writing the record. */
    harnessOverheadMs: z.number().nonnegative(),
    model: z
      .object({
        requested: z.string(),
        /** What the API reported back; null when none answered (the engine's `<synthetic>`, recorded by older runs, reads as null). */
        reported: z.string().nullable().transform(apiReportedModel),
        scripted: z.boolean(),
        /** The model's name in a campaign of several models (absent: its only model). */
        name: z.string().optional(),
        /** The endpoint profile the model ran on, when its entry names one. */
        endpoint: z.string().optional(),
      })
      .strict(),
    backend: z.enum(BACKEND_NAMES),
    engine: z.string(),
    sandbox: z.string(),
    stopReason: z.string().nullable(),
    /** The scenario's stop mode (absent in files written before stop modes existed: report). */
    stop: stopModeSchema.default('report'),
    /** An event stop's selectors (`stop: { at: … }`; `stop` is then report); absent for the named modes. */
    stopAt: z.array(z.unknown()).optional(),
    /** Whether the session ended at a captured first dispatch (its input is in reply.md). */
    dispatchCaptured: z.boolean().default(false),
    harnessVersion: z.string(),
    fixture: z
      .object({ recipe: z.string(), scenario: z.string(), layout: z.string(), head: z.string() })
      .strict(),
    skill: z.object({ tree: z.string() }).strict(),
    /** A library arm: what was installed (plugin name, each skill's content hash) and the hooks run. */
    library: z
      .object({
        pluginName: z.string(),
        skills: z.array(z.object({ name: z.string(), sha256: z.string() }).strict()),
        hooks: z.array(
          z
            .object({
              event: z.literal('SessionStart'),
              command: z.string(),
              exitCode: z.number().int().nullable(),
              timedOut: z.boolean(),
              stdoutBytes: z.number().int().nonnegative(),
              stdoutSha256: z.string(),
            })
            .strict(),
        ),
        hooksNotRun: z.array(z.string()),
      })
      .strict()
      .optional(),
    /** The project instruction files the session was given (paths in the repository, content hashes). */
    instructions: z.array(z.object({ path: z.string(), sha256: z.string() }).strict()).optional(),
    /** The fixture's `.claude/` files the scenario opted in to and the session was given (claudeDir). */
    claudeDir: z
      .object({
        skills: z.array(
          z.object({ name: z.string(), path: z.string(), sha256: z.string() }).strict(),
        ),
      })
      .strict()
      .optional(),
    /** How many times the API key was found (and replaced) in what the session produced. */
    secretRedactions: z.number().int().nonnegative(),
    /** `readable`, or what git could not do with the repository after the session (a session may damage it). */
    repositoryAfterSession: z.string(),
    transcriptMalformedLines: z.number().int().nonnegative(),
  })
  .strict();

export type RepMeta = z.infer<typeof repMetaSchema>;
export type SessionStatus = z.infer<typeof sessionStatusSchema>;
