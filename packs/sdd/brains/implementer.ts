/**
 * What a scripted policy does as the subagent another policy dispatched (the
 * Claude Code engine sends a dispatched subagent's requests to the same
 * server): it reads the brief the dispatch prompt points at and answers that
 * it implemented nothing. The scripted policies play the controller; this is
 * only so that a dispatch that does run (stop: report on the claude-code
 * backend) gives a short, truthful subagent turn with a real tool call.
 */
import { call, type PolicyProgram } from '../../../harness/model-server/policies/program.js';
import { read } from '../../../harness/model-server/policies/tools.js';

/** Read the brief a dispatch prompt points at (see finish.ts `briefPathIn`), then say so. */
export function* implementerProgram(label: string, briefPath: string): PolicyProgram {
  const brief = yield* call(read(briefPath));
  const outcome = brief.isError
    ? `could not read the brief at ${briefPath} (${brief.text.trim().split('\n')[0] ?? 'no detail'})`
    : `read the brief at ${briefPath}`;
  return `${label} ${outcome}. Nothing was implemented: this scripted policy only plays the controller.`;
}
