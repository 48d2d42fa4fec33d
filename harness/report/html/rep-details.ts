import path from 'node:path';
import { readRegularText } from '../../lib/contained-file.js';
import { describeError } from '../../lib/describe-error.js';
import { REP_FILES } from '../../results/results-layout.js';
import type { CheckResult } from '../../score/evaluate.js';
import type { ToolCall } from '../../score/tool-call.js';
import { readTranscript } from '../../score/transcripts/claude-messages.js';
import { type RecordedQuestion, readQuestions } from '../../score/user-question-record.js';
import type { RecordedRep } from '../load-results.js';

/**
 * What the page shows when a rep is opened, beyond its results row: the reply,
 * the tool calls read back from its transcript, and every check's outcome.
 * Loaded from the results directory; the page builder itself reads no files.
 */
export interface RepDetail {
  readonly id: string;
  /** The rep's directory relative to the results root, with `/` separators (for links). */
  readonly relativeDir: string;
  readonly reply: string;
  readonly transcript:
    | {
        readonly kind: 'read';
        readonly toolCalls: readonly ToolCall[];
        readonly malformedLines: number;
      }
    | { readonly kind: 'unavailable'; readonly why: string };
  /** The scorer's reasons for its verdict (before any override). */
  readonly reasons: readonly string[];
  /** For a rep left indeterminate by its runner or a pre-check: the checks that would fail it. */
  readonly wouldFail: readonly string[];
  /** Every check and observation with its outcome (what the page lists, and marks on the calls it cites). */
  readonly checks: readonly CheckResult[];
  readonly observations: readonly CheckResult[];
  /** What a scripted user was asked and answered (`stop: complete`); undefined when no scripted user ran. */
  readonly questions?: readonly RecordedQuestion[] | undefined;
}

export type RepDetails = ReadonlyMap<string, RepDetail>;

/** Read every recorded rep's transcript; a missing or unreadable one is shown as such, never fatal. */
export async function loadRepDetails(
  root: string,
  reps: readonly RecordedRep[],
): Promise<Map<string, RepDetail>> {
  const details = new Map<string, RepDetail>();
  for (const rep of reps) {
    // A rep's files are untrusted input: only a regular file is read (a FIFO would block the report).
    const text = await readRegularText(path.join(rep.dir, REP_FILES.transcript)).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error: { problem: describeError(error) } }),
    );
    const read = text.ok ? { ok: true as const, value: readTranscript(text.value) } : text;
    details.set(rep.id, {
      id: rep.id,
      relativeDir: path.relative(root, rep.dir).split(path.sep).join('/'),
      reply: rep.reply,
      transcript: read.ok
        ? {
            kind: 'read',
            toolCalls: read.value.toolCalls,
            malformedLines: read.value.malformed.length,
          }
        : { kind: 'unavailable', why: read.error.problem },
      reasons: rep.score.reasons,
      wouldFail: rep.score.wouldFail,
      checks: [...rep.score.pre, ...rep.score.checks],
      observations: rep.score.observations,
      questions:
        text.ok && text.value.includes('"user_script"')
          ? readQuestions(text.value).questions
          : undefined,
    });
  }
  return details;
}
