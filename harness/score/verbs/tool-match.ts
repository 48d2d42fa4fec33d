/**
 * What the transcript verbs share: which tool calls a check is about. A call
 * matches when every matcher given holds: its tool name, its seat (the
 * controller, inside a subagent, or inside one subagent chosen by the
 * dispatch that created it: its subagent_type, a pattern its description
 * matches), its input fields against patterns, the
 * program a Bash command runs, a path it reads, or a commit whose content it
 * prints (see extractors/language/shell-reads.ts).
 */
import { z } from 'zod';
import { didYouMean } from '../../lib/did-you-mean.js';
import {
  type Dispatch,
  type Evidence,
  PARTIAL_ABSENCE,
  required,
  seatOf,
  type TranscriptEvidence,
  UNDESCRIBED_DISPATCH_ABSENCE,
  UNKNOWN_SEAT_ABSENCE,
} from '../evidence.js';
import {
  citedHashes,
  readsCommitContent,
  readsPath,
  runsProgram,
} from '../extractors/language/shell-reads.js';
import { MODEL_TIERS, tierOf } from '../model-tiers.js';
import { nonBlank, regexSource, seatSelectorSchema } from '../param-types.js';
import type { ToolCall } from '../tool-call.js';
import {
  callTurns,
  NO_TURNS_RECORDED,
  selectsTurn,
  type TurnSelector,
  turnProblem,
  turnSelectorSchema,
} from '../turn-selector.js';
import { counted, listed, type ParamProblem, type ValidationContext } from '../verb.js';

/**
 * The seat of the subagent a fresh dispatch created, chosen by that dispatch:
 * its subagent_type, and a pattern its description matches (both when given).
 */
export const dispatchSeatSelectorSchema = z
  .object({
    subagentType: nonBlank.optional(),
    description: regexSource.optional(),
    /**
     * The tier the seat ran on (haiku < sonnet < opus < fable), read from the
     * model its replies name: a call whose reply names no model, or one off the
     * ladder, is in no such seat.
     */
    model: z.enum(MODEL_TIERS.order).optional(),
  })
  .strict()
  .refine(
    (selector) =>
      selector.subagentType !== undefined ||
      selector.description !== undefined ||
      selector.model !== undefined,
    'give subagentType, description or model (or write "subagent" for any subagent)',
  );
export type DispatchSeatSelector = z.infer<typeof dispatchSeatSelectorSchema>;

export const toolMatchShape = {
  /** A tool name, or several (any of them). */
  tool: z.union([nonBlank, z.array(nonBlank).min(1)]).optional(),
  seat: z
    .union([seatSelectorSchema, dispatchSeatSelectorSchema], {
      error:
        'must be "controller", "subagent", "any", or one dispatch\'s subagent as { "subagentType", "description", "model" }',
    })
    .default('any'),
  /** Input fields and a regular expression each must match (a non-string field as JSON). */
  input: z.record(z.string().min(1), regexSource).optional(),
  /**
   * A program a Bash command runs, by its exact name (`git`, `sdd-workspace`;
   * `/x/bin/name` counts as `name`): not a pattern, unlike `reads`.
   */
  runs: nonBlank.optional(),
  /** A path pattern a reading program or a Read/Glob/Grep/LS call reads. */
  reads: regexSource.optional(),
  /** Commits (hashes, or `base..head` ranges) whose content the call prints. */
  readsCommit: z.array(z.string().min(1)).min(1).optional(),
  /** The shortest hash prefix that names a commit in readsCommit. */
  minHashPrefix: z.number().int().min(4).max(40).default(7),
  /** Only calls of this conversation turn (turn-selector.ts): its number, or a declared turn's id. */
  turn: turnSelectorSchema.optional(),
};

const toolMatchSchema = z.object(toolMatchShape).strict();
export type ToolMatch = z.infer<typeof toolMatchSchema>;

function tools(params: ToolMatch): readonly string[] | undefined {
  return params.tool === undefined
    ? undefined
    : typeof params.tool === 'string'
      ? [params.tool]
      : params.tool;
}

/** What a program name may be: `runs` compares it with the program a command runs, exactly. */
const PROGRAM_NAME = /^[A-Za-z0-9._+-]+$/;

/** An MCP tool's name (`mcp__<server>__<tool>`), known by its prefix whatever servers a session has. */
const MCP_TOOL = /^mcp__[A-Za-z0-9_-]+?__[A-Za-z0-9_-]+$/;

/** A tool name no session of the scenario is offered, with the nearest one it may have meant. */
export function unknownToolProblem(
  named: readonly string[] | undefined,
  context: ValidationContext | undefined,
): ParamProblem | undefined {
  const offered = context?.tools;
  if (named === undefined || offered === undefined) return undefined;
  const unknown = named.find((name) => !offered.names.includes(name) && !MCP_TOOL.test(name));
  if (unknown === undefined) return undefined;
  return {
    field: 'tool',
    problem: `"${unknown}" is no tool a session of this scenario is offered (${offered.stop}), so no call of it could ever be seen`,
    fix: `${didYouMean(unknown, offered.names)}use one of ${offered.names.join(', ')}, or an MCP tool as mcp__<server>__<tool>`,
  };
}

/** A matcher combination no call could ever satisfy. */
export function toolMatchProblem(
  params: ToolMatch,
  context?: ValidationContext,
): ParamProblem | undefined {
  const named = tools(params);
  const unknown = unknownToolProblem(named, context) ?? turnProblem(params.turn, 'turn', context);
  if (unknown !== undefined) return unknown;
  if (params.runs !== undefined && !PROGRAM_NAME.test(params.runs)) {
    return {
      field: 'runs',
      problem: `"${params.runs}" is not a program name: runs matches the name of the program a Bash command runs exactly (git, rm, sdd-workspace), not a pattern, so it could never match`,
      fix: 'give the bare program name, or match the command with input: { "command": "<pattern>" } (reads takes a path pattern)',
    };
  }
  if (
    named !== undefined &&
    (params.runs !== undefined || params.readsCommit !== undefined) &&
    !named.includes('Bash')
  ) {
    return {
      field: 'tool',
      problem:
        'runs and readsCommit look at Bash commands, but tool excludes Bash, so it could never match',
      fix: 'add Bash to tool, or drop tool',
    };
  }
  return undefined;
}

function fieldText(input: unknown, field: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[field];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Whether a call was made in the seat a selector names; `dispatches` are the controller's. */
export function inSeat(
  selector: ToolMatch['seat'],
  call: ToolCall,
  dispatches: readonly Dispatch[],
): boolean {
  if (selector === 'any') return true;
  if (typeof selector === 'string') return seatOf(call) === selector;
  if (seatOf(call) !== 'subagent') return false;
  const creator = dispatches.find(
    (dispatch) => dispatch.kind === 'fresh' && dispatch.callId === call.parentToolUseId,
  );
  if (creator === undefined) return false;
  if (selector.subagentType !== undefined && creator.subagentType !== selector.subagentType) {
    return false;
  }
  if (
    selector.model !== undefined &&
    (call.model === undefined || tierOf(call.model) !== selector.model)
  ) {
    return false;
  }
  return (
    selector.description === undefined ||
    (creator.description !== null && new RegExp(selector.description).test(creator.description))
  );
}

/**
 * Whether a seat whose calls the files do not hold (`unknownSeats`: the
 * controller, or a subagent by its dispatch) is one the selector looks at.
 * A subagent seat whose dispatch is not among the controller's, or whose
 * tier is unknown, may be any: it counts.
 */
function looksAt(
  selector: ToolMatch['seat'],
  unknown: string,
  dispatches: readonly Dispatch[],
): boolean {
  if (selector === 'any') return true;
  if (typeof selector === 'string')
    return (unknown === 'controller') === (selector === 'controller');
  if (unknown === 'controller') return false;
  const creator = dispatches.find((one) => one.kind === 'fresh' && one.callId === unknown);
  if (creator === undefined || selector.model !== undefined) return true;
  return (
    (selector.subagentType === undefined || creator.subagentType === selector.subagentType) &&
    (selector.description === undefined ||
      (creator.description !== null && new RegExp(selector.description).test(creator.description)))
  );
}

/**
 * Why calls in the seats a check looks at may be missing (lines that could
 * not be read, or a seat the files do not hold), so that an absence there
 * decides nothing; undefined when every such call is there.
 */
export function missingCalls(
  selector: ToolMatch['seat'],
  transcript: TranscriptEvidence,
  turn?: TurnSelector | undefined,
): string | undefined {
  if (transcript.partial === true) return PARTIAL_ABSENCE;
  if (turn !== undefined && transcript.turns === undefined) return NO_TURNS_RECORDED;
  const unknown = transcript.unknownSeats ?? [];
  if (unknown.some((seat) => looksAt(selector, seat, transcript.dispatches))) {
    return UNKNOWN_SEAT_ABSENCE;
  }
  return undescribedDispatches(selector, transcript.dispatches);
}

/**
 * A seat selected by description cannot be told apart from the others when
 * a fresh dispatch records no description: an absence there decides nothing.
 */
export function undescribedDispatches(
  selector: ToolMatch['seat'],
  dispatches: readonly Dispatch[],
): string | undefined {
  if (typeof selector !== 'object' || selector.description === undefined) return undefined;
  return dispatches.some((dispatch) => dispatch.kind === 'fresh' && dispatch.description === null)
    ? UNDESCRIBED_DISPATCH_ABSENCE
    : undefined;
}

/** Why a call matches every matcher, or undefined. */
export function callMatch(
  params: ToolMatch,
  call: ToolCall,
  dispatches: readonly Dispatch[] = [],
): string | undefined {
  const named = tools(params);
  if (named !== undefined && !named.includes(call.name)) return undefined;
  if (!inSeat(params.seat, call, dispatches)) return undefined;
  const reasons: string[] = [];
  for (const [field, pattern] of Object.entries(params.input ?? {})) {
    const text = fieldText(call.input, field);
    if (text === undefined || !new RegExp(pattern).test(text)) return undefined;
  }
  if (params.runs !== undefined) {
    const why = runsProgram(call, params.runs);
    if (why === undefined) return undefined;
    reasons.push(why);
  }
  if (params.reads !== undefined) {
    const why = readsPath(call, new RegExp(params.reads));
    if (why === undefined) return undefined;
    reasons.push(why);
  }
  if (params.readsCommit !== undefined) {
    const cited = citedHashes(params.readsCommit, params.minHashPrefix);
    const why = readsCommitContent(call, cited, params.minHashPrefix);
    if (why === undefined) return undefined;
    reasons.push(why);
  }
  return reasons.length > 0 ? reasons.join('; ') : call.name;
}

/** The calls that match, in transcript order, each with why. */
export function matchingCalls(
  params: ToolMatch,
  evidence: Evidence,
): { readonly call: ToolCall; readonly why: string }[] {
  const transcript = required(evidence.transcript, 'transcript');
  const turns = params.turn === undefined ? undefined : callTurns(transcript);
  return transcript.calls.flatMap((call, index) => {
    if (params.turn !== undefined && !selectsTurn(params.turn, turns?.[index])) return [];
    const why = callMatch(params, call, transcript.dispatches);
    return why === undefined ? [] : [{ call, why }];
  });
}

/** `2 calls: git show 4b84f94 (toolu_1), …` */
export function describeCalls(found: readonly { call: ToolCall; why: string }[]): string {
  const count = counted(found.length, 'matching call');
  return found.length === 0
    ? count
    : `${count}: ${listed(
        found.map(({ call, why }) => `${why} (${call.id})`),
        3,
      )}`;
}
