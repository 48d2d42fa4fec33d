import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FixtureFingerprint } from '../fixture/index.js';
import { diffSnapshots, snapshotSchema } from '../fixture/index.js';
import { describeError } from '../lib/describe-error.js';
import type { InputError } from '../lib/input-error.js';
import { inputError } from '../lib/input-error.js';
import { readJson } from '../lib/read-json.js';
import { err, ok, type Result } from '../lib/result.js';
import { parseReplyFile } from '../score/reply-file.js';
import { type RepScore, scoreRep } from '../score/score-rep.js';
import type { ScoringSpec } from '../score/scoring-spec.js';
import { readTranscript } from '../score/transcript-reader.js';
import { type RepMeta, repMetaSchema } from './rep-meta.js';
import { REP_FILES } from './results-layout.js';

/**
 * Score one rep from what the runner wrote to its directory — reply,
 * transcript, snapshots, meta — and nothing else. The runner and
 * `redgreen score` both use this, so a rescore equals the original score.
 */
export async function scoreRepDirectory(
  repDir: string,
  spec: ScoringSpec,
  fingerprint: FixtureFingerprint,
): Promise<Result<{ score: RepScore; meta: RepMeta }, InputError>> {
  try {
    const meta = repMetaSchema.parse(await readJson(path.join(repDir, REP_FILES.meta)));
    const before = snapshotSchema.parse(
      await readJson(path.join(repDir, REP_FILES.snapshotBefore)),
    );
    const after = snapshotSchema.parse(await readJson(path.join(repDir, REP_FILES.snapshotAfter)));
    const reply = parseReplyFile(await readFile(path.join(repDir, REP_FILES.reply), 'utf8')).reply;
    const transcript = readTranscript(
      await readFile(path.join(repDir, REP_FILES.transcript), 'utf8'),
    );
    const score = scoreRep({
      spec,
      reply,
      fixtureFacts: { ownPlan: fingerprint.plan, ledgers: fingerprint.ledgers },
      snapshotDiff: diffSnapshots(before, after),
      toolCalls: transcript.toolCalls,
      runnerStatus: meta.status,
    });
    return ok({ score, meta });
  } catch (error) {
    return err(
      inputError(
        repDir,
        `cannot be scored (${describeError(error)})`,
        'rerun that rep (--resume reruns reps that are missing or incomplete)',
      ),
    );
  }
}
