/**
 * How a scenario's sessions end: `report` (the model works, then replies),
 * `first-dispatch` (the controller's first subagent dispatch is captured,
 * refused, and ends the session) or `complete` (a full session: the
 * controller's dispatches really run as subagents, each its own seat, and the
 * session ends with the controller's reply). A leaf module: the scenario
 * file's schema, the campaign room, the session room and rep meta all read it.
 *
 * `{ "at": <event selector> }` (or a list of them, any of which stops) is an
 * event stop: the session works as under `report`, and the first call that
 * makes an event a selector picks (a Skill call, the first write of an
 * implementation file, a dispatch: event-selector.ts) is captured, refused
 * with a neutral result, and ends the session. `first-dispatch` is the
 * dispatch-or-question case of it, kept by name.
 */
import { z } from 'zod';
import { type EventSelector, eventSelectorSchema } from './event-selector.js';

export const STOP_MODES = ['report', 'first-dispatch', 'complete'] as const;
export const stopModeSchema = z.enum(STOP_MODES);
export type StopMode = z.infer<typeof stopModeSchema>;

/** A scenario's `stop`: a mode by name, or an event stop. */
export const stopSpecSchema = z.union(
  [
    stopModeSchema,
    z
      .object({
        at: z.union([eventSelectorSchema, z.array(eventSelectorSchema).min(1)], {
          error: (issue) =>
            issue.input === undefined || typeof issue.input !== 'object'
              ? 'give an event selector ({ "event": "skill" | "write" | "tool" | "dispatch" | "question", … }) or a list of them'
              : undefined,
        }),
      })
      .strict(),
  ],
  {
    // A mode misspelt: name the modes, not only "invalid input".
    error: (issue) =>
      typeof issue.input !== 'object' || issue.input === null
        ? `${JSON.stringify(issue.input)} is no stop: use "${STOP_MODES.join('", "')}" or { "at": <event selector> }`
        : undefined,
  },
);
export type StopSpec = z.infer<typeof stopSpecSchema>;

/** A stop spec as a session runs it: the base mode, and the event selectors that stop it (if any). */
export interface SessionStop {
  readonly mode: StopMode;
  readonly at: readonly EventSelector[] | undefined;
}

export function sessionStopOf(stop: StopSpec): SessionStop {
  if (typeof stop === 'string') return { mode: stop, at: undefined };
  return { mode: 'report', at: Array.isArray(stop.at) ? stop.at : [stop.at] };
}

/** How a stop reads in a line of text: `report`, `first-dispatch`, `stop at skill`. */
export function stopText(stop: StopSpec): string {
  const { mode, at } = sessionStopOf(stop);
  return at === undefined ? mode : `stop at ${at.map((selector) => selector.event).join('|')}`;
}
