/**
 * A recorded session as a brain: each turn makes the recorded session's next
 * tool call (its paths read as the live session's, path-map.ts), and the
 * outcome the live session got must be the one the recording got. The first
 * time it is not (other files, other command output, a tool the recording
 * used that this session does not offer, another prompt) the brain stops
 * with `replay diverged at turn N: …`, which makes the rep indeterminate:
 * a replay that no longer fits says nothing about the scorer. When every
 * call matched, the recorded reply ends the session.
 *
 * One recorded call is one turn: readers do not say which calls shared an
 * assistant message, and a call's outcome does not depend on it. Outputs are
 * compared with the engine's reminders removed, trailing white space
 * trimmed, and timings (`12.5ms`, `duration_ms 12.5`) masked.
 */
import { type BrainProgram, failure, reply } from '../data-policy/brain-program.js';
import { offeredName } from '../data-policy/session-fit.js';
import type { SessionView } from '../data-policy/session-view.js';
import { pathMapOf, remapText, remapValue } from './path-map.js';
import type { RecordedCall, Recording } from './recording.js';

const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/** A text as a replay compares it. */
export function comparable(text: string): string {
  return text
    .replace(REMINDER, '')
    .replace(/(duration_ms:?\s*)\d+(?:\.\d+)?/g, '$1<ms>')
    .replace(/\b\d+(?:\.\d+)?\s?ms\b/g, '<ms>')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
}

export function* replayProgram(
  recording: Recording,
  view: SessionView,
  offered: ReadonlySet<string>,
): BrainProgram {
  const map = pathMapOf(recording.cwd, view.cwd);
  if (recording.prompt !== undefined) {
    const expected = comparable(remapText(recording.prompt, map));
    const got = comparable(view.prompt);
    if (expected !== got) {
      return failure(
        `replay diverged at turn 1: the session was asked something else than the recording was (${firstDifference(expected, got)})`,
      );
    }
  }
  for (const [index, call] of recording.calls.entries()) {
    const turn = index + 1;
    const name = offeredName(call.name, offered);
    if (name === undefined) {
      return failure(
        `replay diverged at turn ${turn}: the recording calls ${call.name}, which this session does not offer (it offers ${[...offered].join(', ')})`,
      );
    }
    const [outcome] = yield [
      { name, input: remapValue(call.input, map) as Readonly<Record<string, unknown>> },
    ];
    const expected = comparable(remapText(call.output, map));
    const got = comparable(outcome?.text ?? '');
    if (expected !== got || call.isError !== (outcome?.isError ?? true)) {
      return failure(
        `replay diverged at turn ${turn}: ${describeCall(call, recording.cwd)} returned other output than the recording (${
          call.isError !== (outcome?.isError ?? true)
            ? outcome?.isError
              ? 'an error now, a result then'
              : 'a result now, an error then'
            : firstDifference(expected, got)
        })`,
      );
    }
  }
  if (recording.reply === undefined) {
    return failure(
      `replay diverged at turn ${recording.calls.length + 1}: the session goes on where the recording ends without a reply`,
    );
  }
  return reply(remapText(recording.reply, map));
}

/** A call as a reader knows it: its tool and its command or path (relative to the working directory). */
function describeCall(call: RecordedCall, cwd: string | undefined): string {
  const input = call.input;
  const detail =
    typeof input.command === 'string'
      ? input.command
      : typeof input.file_path === 'string'
        ? input.file_path
        : typeof input.pattern === 'string'
          ? input.pattern
          : typeof input.skill === 'string'
            ? input.skill
            : '';
  const shown = cwd === undefined ? detail : detail.split(`${cwd}/`).join('');
  return shown === '' ? call.name : `${call.name} ${clip(shown.split('\n')[0] ?? '', 80)}`;
}

/** Where two texts first differ, as a reader would want it: the line, then and now. */
function firstDifference(recorded: string, now: string): string {
  // Read results number their lines (`     7\t…`): the line number says where already.
  const lines = (text: string): string[] =>
    text.split('\n').map((line) => line.replace(/^\s*\d+(?:\t|\u2192)/, '').trim());
  const before = lines(recorded);
  const after = lines(now);
  for (let line = 0; line < Math.max(before.length, after.length); line += 1) {
    if (before[line] !== after[line]) {
      const then = before[line] === undefined ? 'nothing' : `'${clip(before[line] ?? '', 60)}'`;
      const got = after[line] === undefined ? 'nothing' : `'${clip(after[line] ?? '', 60)}'`;
      return `line ${line + 1}: recorded ${then}, now ${got}`;
    }
  }
  return 'they differ';
}

function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
