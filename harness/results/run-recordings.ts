/**
 * The sessions a results directory recorded, as the brain of a replay
 * campaign (`replay: <results dir>`): each rep's newest attempt in the
 * journal, its transcript read by the transcript readers and its prompt from
 * `prompt.md`, keyed by rep id, which is the session key every rep of the
 * replay run sends. A results directory is untrusted input: a rep directory
 * outside it is refused, and a rep whose transcript cannot be read is left
 * out (its replayed rep comes out indeterminate: no recording of it).
 */
import path from 'node:path';
import { readRegularFile, readRegularText } from '../lib/contained-file.js';
import { describeError } from '../lib/describe-error.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import type { Brain } from '../model-server/index.js';
import { type Recording, recordingOf } from '../model-server/replay/recording.js';
import { readSessionTranscript } from '../score/transcripts/read-transcript.js';
import { MAX_TRANSCRIPT_BYTES } from '../score/transcripts/transcript-input.js';
import { readJournal } from './rep-journal.js';
import { recordedRepDirProblem } from './results-dir.js';
import { REP_FILES, resultsLayout } from './results-layout.js';

/** The scripted policy of a replay campaign: each rep's recorded session. */
export const REPLAY_POLICY = 'replay';

export interface RunRecordings {
  /** The results directory, absolute. */
  readonly dir: string;
  readonly recordings: ReadonlyMap<string, Recording>;
  /** Reps of the journal whose transcript could not be read, with why. */
  readonly unreadable: readonly string[];
}

export async function loadRunRecordings(
  dir: string,
  input: string,
): Promise<Result<RunRecordings, InputError>> {
  const layout = resultsLayout(dir);
  const journal = await readJournal(layout.journalFile);
  if (!journal.ok) {
    return err(
      inputError(
        input,
        journal.error.kind === 'missing'
          ? `${layout.root} holds no ledger.jsonl, so it is no results directory`
          : `${layout.journalFile} is damaged at line ${journal.error.line} (${journal.error.detail})`,
        'name the results directory of a run (redgreen run --record writes a replay campaign into it)',
      ),
    );
  }
  const recordings = new Map<string, Recording>();
  const unreadable: string[] = [];
  for (const line of journal.value.reps.values()) {
    const repDir = path.resolve(layout.root, line.dir);
    if (!repDir.startsWith(`${layout.root}${path.sep}`)) {
      return err(
        inputError(
          layout.journalFile,
          `rep ${line.id} names a directory outside the results directory (${line.dir})`,
          'replay only results directories redgreen wrote',
        ),
      );
    }
    const tampered = await recordedRepDirProblem(layout.root, line);
    if (tampered !== undefined) return err(tampered);
    const file = path.join(repDir, REP_FILES.transcript);
    let text: string;
    try {
      text = (await readRegularFile(file, MAX_TRANSCRIPT_BYTES)).toString('utf8');
    } catch (error) {
      unreadable.push(`${line.id}: ${describeError(error)}`);
      continue;
    }
    const transcript = readSessionTranscript(text, file);
    if (!transcript.ok) {
      unreadable.push(`${line.id}: ${transcript.error.problem}`);
      continue;
    }
    const prompt = await readRegularText(path.join(repDir, REP_FILES.prompt)).catch(
      () => undefined,
    );
    recordings.set(
      line.id,
      recordingOf(transcript.value, path.relative(layout.root, repDir), prompt),
    );
  }
  return ok({ dir: layout.root, recordings, unreadable });
}

/** The replay brain of a run's recordings: each session answered by the rep its key names. */
export function replayBrain(recordings: RunRecordings): Brain {
  return {
    kind: 'replay',
    name: REPLAY_POLICY,
    recordingFor: (sessionKey) => recordings.recordings.get(sessionKey),
  };
}
