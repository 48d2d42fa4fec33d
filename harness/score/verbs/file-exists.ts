/** `file-exists`: a file is in the work tree (absence is what it tests, so a missing file fails). */
import { z } from 'zod';
import { fileEntry, required } from '../evidence.js';
import { repoPathSchema } from '../param-types.js';
import { defineVerb } from '../verb.js';

export const fileExists = defineVerb({
  summary: 'the file is in the work tree',
  params: z.object({ path: repoPathSchema }).strict(),
  reads: () => ['after'],
  run: (params, evidence) => {
    const present = fileEntry(required(evidence.after, 'after').files, params.path) !== undefined;
    return present
      ? { outcome: 'pass', observed: 'present', detail: `${params.path} exists` }
      : { outcome: 'fail', observed: 'absent', detail: `${params.path} does not exist` };
  },
});
