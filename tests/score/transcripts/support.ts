/**
 * Hand-built transcripts in the shapes the real tools write (the real files
 * in ../shared/transcripts/ are the reference; these are small enough to
 * vary one thing at a time): Claude Code session-log lines, Codex rollout
 * lines, and the evidence a check reads from a read transcript.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { dispatchesOf } from '../../../harness/score/dispatches.js';
import type { Evidence } from '../../../harness/score/evidence.js';
import {
  type SessionTranscript,
  unknownSeatsOf,
} from '../../../harness/score/transcripts/session-transcript.js';

export type Line = Record<string, unknown>;

export const SESSION = '55604662-cf2a-4331-851a-ec234028f8ca';

let uuid = 0;
/** The envelope every message line of a Claude Code session log carries. */
function envelope(sidechain: boolean, agentId?: string): Line {
  uuid++;
  return {
    parentUuid: uuid === 1 ? null : `uuid-${uuid - 1}`,
    isSidechain: sidechain,
    userType: 'external',
    cwd: '/home/user/project',
    sessionId: SESSION,
    version: '2.1.177',
    gitBranch: 'main',
    ...(agentId === undefined ? {} : { agentId }),
    uuid: `uuid-${uuid}`,
    timestamp: '2026-06-12T03:15:20.000Z',
  };
}

/** Session-log lines, for the controller (`agent` undefined) or in a subagent's own log. */
export function logLines(agent?: string) {
  const sidechain = agent !== undefined;
  return {
    prompt: (text: string): Line => ({
      ...envelope(sidechain, agent),
      type: 'user',
      message: { role: 'user', content: text },
    }),
    text: (messageId: string, text: string, model = 'claude-sonnet-4-6'): Line => ({
      ...envelope(sidechain, agent),
      type: 'assistant',
      message: {
        model,
        id: messageId,
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text }],
        stop_reason: null,
      },
    }),
    call: (
      messageId: string,
      id: string,
      name: string,
      input: Record<string, unknown>,
      model = 'claude-sonnet-4-6',
    ): Line => ({
      ...envelope(sidechain, agent),
      type: 'assistant',
      message: {
        model,
        id: messageId,
        type: 'message',
        role: 'assistant',
        content: [{ type: 'tool_use', id, name, input }],
        stop_reason: null,
      },
    }),
    result: (id: string, content: string, toolUseResult?: unknown, isError = false): Line => ({
      ...envelope(sidechain, agent),
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }],
      },
      ...(toolUseResult === undefined ? {} : { toolUseResult }),
    }),
    skillLoaded: (id: string, dir: string): Line => ({
      ...envelope(sidechain, agent),
      type: 'user',
      isMeta: true,
      sourceToolUseID: id,
      message: {
        role: 'user',
        content: [{ type: 'text', text: `Base directory for this skill: ${dir}\n\n# The skill` }],
      },
    }),
  };
}

/** A line Claude Code writes beside the messages. */
export const snapshotLine: Line = {
  type: 'file-history-snapshot',
  messageId: 'm0',
  snapshot: { trackedFileBackups: {} },
  isSnapshotUpdate: false,
};

export function jsonl(lines: readonly (Line | string)[]): string {
  return `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`;
}

export function writeLines(dir: string, name: string, lines: readonly (Line | string)[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, jsonl(lines));
  return file;
}

/** A Codex rollout line. */
export function rollout(type: string, payload: Record<string, unknown>): Line {
  return { timestamp: '2026-07-17T18:01:32.528Z', type, payload };
}

/** The evidence a check reads from a read transcript (no plan catalogue: no task readings). */
export function evidenceOf(
  transcript: SessionTranscript,
  skillDir: string | null = null,
): Evidence {
  return {
    transcript: {
      calls: transcript.toolCalls,
      dispatches: dispatchesOf(transcript.toolCalls),
      model: transcript.model ?? null,
      skillDir,
      partial: transcript.malformed.length > 0,
      unknownSeats: unknownSeatsOf(transcript),
    },
  };
}
