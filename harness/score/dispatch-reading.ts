/**
 * What a pack may read from every subagent dispatch, and match in the
 * `dispatch` verb: the unit of its own work a dispatch addresses, say. The
 * core reads a dispatch as "a seat was started (or resumed) with this
 * input"; a contribution reads each dispatch once per rep, with the
 * scenario's fields and the rep's facts, and the verb compares the reading
 * with the params the contribution adds to it.
 */
import type { z } from 'zod';
import type { Outcome } from './kleene.js';
import type { Facts } from './placeholders.js';
import type { ParamProblem, ValidationContext } from './validation.js';

/** The parts of a dispatch's input a reader reads. */
export interface DispatchInput {
  readonly description: string | null;
  readonly prompt: string | null;
  readonly subagentType: string | null;
}

/** One dispatch's reading, as read for a rep. */
export type DispatchReader = (dispatch: DispatchInput) => unknown;

export interface DispatchReading {
  /** Fields this adds to the `dispatch` verb's params. */
  readonly params: z.ZodRawShape;
  /** The reader of a rep's dispatches, from the scenario file's fields and the rep's facts. */
  readonly reader: (scenario: Readonly<Record<string, unknown>>, facts: Facts) => DispatchReader;
  /**
   * The verb's params against one dispatch's reading: undefined when the
   * check gives none of the fields this adds, else the outcome and what it saw.
   */
  readonly match: (
    params: Readonly<Record<string, unknown>>,
    reading: unknown,
  ) => { readonly outcome: Outcome; readonly said: string } | undefined;
  /** What zod cannot see in those fields at load. */
  readonly validate?:
    | ((
        params: Readonly<Record<string, unknown>>,
        context: ValidationContext,
      ) => ParamProblem | undefined)
    | undefined;
}
