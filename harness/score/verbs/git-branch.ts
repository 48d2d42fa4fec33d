/**
 * `git-branch`: the checked-out branch after the session. A snapshot taken by
 * an older redgreen records no branch, so the check is undecided there.
 */
import { z } from 'zod';
import { required } from '../evidence.js';
import { nonBlank } from '../param-types.js';
import { defineVerb } from '../verb.js';

export const gitBranch = defineVerb({
  summary: 'the checked-out branch has this name',
  params: z.object({ name: nonBlank }).strict(),
  reads: () => ['after'],
  run: (params, evidence) => {
    const branch = required(evidence.after, 'after').branch;
    if (branch === undefined) {
      return {
        outcome: 'undecided',
        detail: 'the snapshot records no branch (taken by an older redgreen)',
      };
    }
    if (branch === null)
      return { outcome: 'fail', observed: 'detached', detail: 'HEAD is detached' };
    return branch === params.name
      ? { outcome: 'pass', observed: branch, detail: `on branch ${branch}` }
      : { outcome: 'fail', observed: branch, detail: `on branch ${branch}, not ${params.name}` };
  },
});
