/**
 * Read the parts of a rep's material from its directory in a results
 * directory: reply.md (the reply and any captured dispatch), the transcript's
 * tool calls, the before and after snapshots, the captured file texts, and
 * the arm's SKILL.md from the results directory's copy of the skill. A part
 * whose file is missing is left out (the material says it is unknown); a
 * file that exists but cannot be parsed is an error.
 */

import path from 'node:path';
import { snapshotSchema } from '../fixture/snapshot-schema.js';
import { readRegularText } from '../lib/contained-file.js';
import { REP_FILES } from '../results/results-layout.js';
import { capturedFilesSchema } from '../score/evidence.js';
import type { MaterialKind } from '../score/judge-spec.js';
import { parseReplyFile } from '../score/reply-file.js';
import { readTranscript } from '../score/transcripts/claude-messages.js';
import type { MaterialParts } from './material.js';

async function optionalText(file: string): Promise<string | undefined> {
  try {
    return await readRegularText(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function optionalJson<T>(file: string, parse: (value: unknown) => T): Promise<T | undefined> {
  const text = await optionalText(file);
  return text === undefined ? undefined : parse(JSON.parse(text));
}

/** The parts of one rep's material; `skillDir` is the arm's skill copy in the results directory. */
export async function readRepMaterialParts(
  repDir: string,
  skillDir: string,
  kinds: readonly MaterialKind[],
): Promise<MaterialParts> {
  const replyFile = parseReplyFile((await optionalText(path.join(repDir, REP_FILES.reply))) ?? '');
  const transcript = await optionalText(path.join(repDir, REP_FILES.transcript));
  const snapshot = (name: string) =>
    optionalJson(path.join(repDir, name), (value) => snapshotSchema.parse(value));
  const captured = async (name: string) =>
    (await optionalJson(path.join(repDir, name), (value) => capturedFilesSchema.parse(value)))
      ?.files;
  return {
    reply: replyFile.reply,
    capturedDispatch: replyFile.capturedDispatch,
    toolCalls: transcript === undefined ? undefined : readTranscript(transcript).toolCalls,
    before: await snapshot(REP_FILES.snapshotBefore),
    after: await snapshot(REP_FILES.snapshotAfter),
    filesBefore: await captured(REP_FILES.filesBefore),
    filesAfter: await captured(REP_FILES.filesAfter),
    skillText: kinds.includes('skill')
      ? await optionalText(path.join(skillDir, 'SKILL.md'))
      : undefined,
    ...(kinds.includes('prompt')
      ? { prompt: await optionalText(path.join(repDir, REP_FILES.prompt)) }
      : {}),
  };
}
