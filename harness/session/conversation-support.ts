/**
 * Which backends can hold a scripted user's declared turns
 * (harness/score/user-turns.ts), checked when a scenario loads so that a
 * conversation is never run as something it is not:
 *
 * - claude-code: every turn, over the engine's streamed input; `/compact`
 *   is the engine's own compaction;
 * - messages: every turn but a compaction one (the backend is redgreen's
 *   own tool loop: it has no compaction to trigger);
 * - codex: none (`codex exec` takes one prompt and ends; the backend has no
 *   scripted user).
 */
import type { ScriptedUser } from '../score/scripted-user.js';
import { compactTurn } from '../score/user-turns.js';
import type { BackendName } from './session-tool-table.js';

/** Why a scenario's declared turns cannot run on a backend, or undefined. */
export function conversationProblem(
  backend: BackendName,
  user: ScriptedUser | undefined,
): { readonly field: string; readonly problem: string; readonly fix: string } | undefined {
  const turns = user?.turns ?? [];
  if (turns.length === 0) return undefined;
  if (backend === 'codex') {
    return {
      field: 'user.turns',
      problem:
        'the codex backend runs one prompt per session (codex exec), so it cannot send turns',
      fix: 'drop the turns',
    };
  }
  const compact = turns.findIndex(compactTurn);
  if (backend === 'messages' && compact >= 0) {
    return {
      field: `user.turns[${compact}]`,
      problem: 'the messages backend has no engine compaction for a /compact turn to trigger',
      fix: 'drop the compaction turn',
    };
  }
  return undefined;
}
