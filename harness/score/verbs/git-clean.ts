/**
 * `git-clean`: no file git tracks (before or after) was added, modified or
 * removed by the session; with `untracked: true`, no untracked file was
 * added or changed either.
 */
import { z } from 'zod';
import { diffSnapshots } from '../../fixture/snapshot-schema.js';
import { required } from '../evidence.js';
import { defineVerb, listed } from '../verb.js';

export const gitClean = defineVerb({
  summary:
    'no tracked file changed since before the session (untracked: true also counts untracked files)',
  params: z.object({ untracked: z.boolean().default(false) }).strict(),
  reads: () => ['before', 'after'],
  run: (params, evidence) => {
    const changes = diffSnapshots(
      required(evidence.before, 'before'),
      required(evidence.after, 'after'),
    ).fileChanges.filter(
      (change) => params.untracked || change.trackedBefore || change.trackedAfter,
    );
    return changes.length === 0
      ? { outcome: 'pass', observed: 'clean', detail: 'no tracked file changed' }
      : {
          outcome: 'fail',
          observed: String(changes.length),
          detail: `files changed: ${listed(changes.map((change) => `${change.path} (${change.kind})`))}`,
        };
  },
});
