/**
 * The fixed results of calls a session refuses, in a module of their own so
 * the score room reads them without the session room's capture.
 */

/**
 * The result a refused dispatch gets, in both stop modes. Plain and neutral:
 * it says what is true (no subagent will run) and nothing about why.
 */
export const DISPATCH_REFUSAL = 'Subagent dispatch is not available in this session.';

/** The result a refused question to the human gets: as plain, and as silent about why. */
export const QUESTION_REFUSAL = 'Asking the user is not available in this session.';

/** The result of a call that came after a captured dispatch in the same turn. */
export const NOT_RUN_RESULT = 'Not run.';

/** The refusal a call of a refused tool gets, and a call an event stop captured (the same on both backends). */
export function toolRefusal(tool: string): string {
  return `${tool} is not available in this session.`;
}
