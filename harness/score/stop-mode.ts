/**
 * How a scenario's sessions end: `report` (the model works, then replies),
 * `first-dispatch` (the controller's first subagent dispatch is captured,
 * refused, and ends the session) or `complete` (a full session: the
 * controller's dispatches really run as subagents, each its own seat, and the
 * session ends with the controller's reply). A leaf module: the scenario
 * file's schema, the campaign room, the session room and rep meta all read it.
 */
import { z } from 'zod';

export const STOP_MODES = ['report', 'first-dispatch', 'complete'] as const;
export const stopModeSchema = z.enum(STOP_MODES);
export type StopMode = z.infer<typeof stopModeSchema>;
