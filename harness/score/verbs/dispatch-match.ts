/**
 * The `dispatch` verb's params, the load-time problems with them (a selector
 * that can never match, a tier range that can never pass), and how one
 * dispatch is selected and matched. Kept apart so the verb itself stays a
 * page.
 */
import { z } from 'zod';
import type { Dispatch } from '../evidence.js';
import { withoutEmphasis } from '../extractors/language/markdown.js';
import { allOf, type Outcome } from '../kleene.js';
import { isModelTier, MODEL_TIERS, tierOf, tierRank } from '../model-tiers.js';
import { nonBlank, regexSource } from '../param-types.js';
import { derived, registeredDispatchReadings } from '../score-registry.js';
import { type ParamProblem, quotedPattern, type ValidationContext } from '../verb.js';
import { dispatchRoleParams, matchRole } from './dispatch-role.js';

const KINDS = ['fresh', 'resume'] as const;
const tier = z.string().refine(isModelTier, `use a tier of ${MODEL_TIERS.order.join(' < ')}`);

/** The core's params of the dispatch verb. */
const coreDispatchShape = {
  select: z
    .object({
      which: z.enum(['first', 'last', 'nth', 'any']).default('first'),
      n: z.number().int().positive().optional(),
      subagentType: nonBlank.optional(),
      /** A pattern the dispatch's description must match (a SendMessage's `summary`, when it gives one). */
      description: regexSource.optional(),
      kind: z.enum(KINDS).optional(),
      /**
       * A resume only: the agent it is sent to was created by a fresh
       * dispatch with this description pattern and/or subagent_type.
       */
      to: z
        .object({ description: regexSource.optional(), subagentType: nonBlank.optional() })
        .strict()
        .refine(
          (to) => to.description !== undefined || to.subagentType !== undefined,
          'give description or subagentType of the dispatch that created the agent',
        )
        .optional(),
    })
    .strict()
    .default({ which: 'first' }),
  prompt: regexSource.optional(),
  caseSensitive: z.boolean().default(false),
  model: z
    .object({
      atLeast: tier.optional(),
      atMost: tier.optional(),
      /** False: the dispatch must name its model; one it would inherit does not count. */
      inherit: z.boolean().default(true),
    })
    .strict()
    .optional(),
  kind: z.enum(KINDS).optional(),
  /** The role the dispatch must have, read with the scenario's patterns (dispatch-role.ts). */
  role: dispatchRoleParams.optional(),
};

/** The dispatch verb's params: the core's, then the fields each installed pack's dispatch reading adds. */
export const dispatchParams = derived(
  () =>
    z
      .object({
        ...coreDispatchShape,
        ...Object.assign({}, ...registeredDispatchReadings().map(({ entry }) => entry.params)),
      })
      .strict() as unknown as z.ZodObject<typeof coreDispatchShape, z.core.$strict>,
);
/** The params as the core reads them (a pack's fields are its reading's to read). */
export type DispatchParams = z.infer<z.ZodObject<typeof coreDispatchShape>>;

/** What zod cannot see: a selector or matcher that could never match or pass. */
export function dispatchProblem(
  params: DispatchParams,
  context: ValidationContext,
): ParamProblem | undefined {
  const { select } = params;
  if ((select.which === 'nth') !== (select.n !== undefined)) {
    return {
      field: 'select.n',
      problem: 'n goes with which: "nth" and only with it',
      fix: 'give which: "nth" and n (1 = first)',
    };
  }
  if (select.subagentType !== undefined && select.kind === 'resume') {
    return {
      field: 'select.subagentType',
      problem: 'a resume (SendMessage) has no subagent_type, so it could never match',
      fix: 'drop subagentType or select fresh dispatches',
    };
  }
  if (select.to !== undefined && (select.kind === 'fresh' || params.kind === 'fresh')) {
    return {
      field: 'select.to',
      problem:
        'names the agent a resume is sent to, but the check selects or expects fresh dispatches',
      fix: 'drop select.to or select resumes (kind: "resume")',
    };
  }
  if (select.kind !== undefined && params.kind !== undefined && select.kind !== params.kind) {
    return {
      field: 'kind',
      problem: `selects ${select.kind} dispatches but expects ${params.kind}, so it could never pass`,
      fix: 'make them agree',
    };
  }
  const { atLeast, atMost } = params.model ?? {};
  if (params.model !== undefined && atLeast === undefined && atMost === undefined) {
    return { field: 'model', problem: 'has neither atLeast nor atMost', fix: 'give one or both' };
  }
  if (
    atLeast !== undefined &&
    atMost !== undefined &&
    isModelTier(atLeast) &&
    isModelTier(atMost) &&
    tierRank(atLeast) > tierRank(atMost)
  ) {
    return {
      field: 'model',
      problem: `atLeast ${atLeast} is above atMost ${atMost}, so it could never pass`,
      fix: 'swap or fix them',
    };
  }
  for (const { entry } of registeredDispatchReadings()) {
    const problem = entry.validate?.(params, context);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The dispatches the selector picks: one for first/last/nth, every candidate for any. */
export function selectedDispatches(
  params: DispatchParams,
  all: readonly Dispatch[],
): readonly Dispatch[] {
  const { select } = params;
  const reachesChosenAgent = (dispatch: Dispatch): boolean => {
    const to = select.to;
    if (to === undefined) return true;
    if (dispatch.kind !== 'resume' || dispatch.agentId === undefined || dispatch.agentId === null) {
      return false;
    }
    const creator = all.find(
      (one) =>
        one.kind === 'fresh' &&
        (one.agentId === dispatch.agentId || one.agentName === dispatch.agentId),
    );
    return (
      creator !== undefined &&
      (to.subagentType === undefined || creator.subagentType === to.subagentType) &&
      (to.description === undefined ||
        (creator.description !== null && new RegExp(to.description).test(creator.description)))
    );
  };
  const pool = all.filter(
    (dispatch) =>
      reachesChosenAgent(dispatch) &&
      (select.kind === undefined || dispatch.kind === select.kind) &&
      (select.subagentType === undefined || dispatch.subagentType === select.subagentType) &&
      (select.description === undefined ||
        (dispatch.description !== null &&
          new RegExp(select.description).test(dispatch.description))),
  );
  if (select.which === 'any') return pool;
  const one =
    select.which === 'first'
      ? pool[0]
      : select.which === 'last'
        ? pool[pool.length - 1]
        : pool[(select.n ?? 1) - 1];
  return one === undefined ? [] : [one];
}

/** Each matcher's outcome on one dispatch, with what it saw. */
export function matchDispatch(
  params: DispatchParams,
  dispatch: Dispatch,
  sessionModel: string | null,
): { outcome: Outcome; said: string[] } {
  const outcomes: Outcome[] = [];
  const said: string[] = [];
  if (params.kind !== undefined) {
    outcomes.push(dispatch.kind === params.kind ? 'pass' : 'fail');
    said.push(dispatch.kind);
  }
  if (params.prompt !== undefined) {
    if (dispatch.prompt === null) {
      outcomes.push('undecided');
      said.push('no prompt');
    } else {
      const hit = new RegExp(params.prompt, params.caseSensitive ? 'm' : 'im').test(
        withoutEmphasis(dispatch.prompt),
      );
      outcomes.push(hit ? 'pass' : 'fail');
      said.push(
        hit
          ? `prompt matches ${quotedPattern(params.prompt ?? '')}`
          : `prompt does not match ${quotedPattern(params.prompt ?? '')}`,
      );
    }
  }
  if (params.model !== undefined && dispatch.model === null && !params.model.inherit) {
    outcomes.push('fail');
    said.push('names no model');
  } else if (params.model !== undefined) {
    const model = dispatch.model ?? sessionModel;
    const tierSeen = model === null ? undefined : tierOf(model);
    if (tierSeen === undefined) {
      outcomes.push('undecided');
      said.push(model === null ? 'no model given or known' : `model ${model} is on no tier`);
    } else {
      const { atLeast, atMost } = params.model;
      const low =
        atLeast !== undefined && isModelTier(atLeast) && tierRank(tierSeen) < tierRank(atLeast);
      const high =
        atMost !== undefined && isModelTier(atMost) && tierRank(tierSeen) > tierRank(atMost);
      outcomes.push(low || high ? 'fail' : 'pass');
      said.push(`model ${model} (${tierSeen}${dispatch.model === null ? ', inherited' : ''})`);
    }
  }
  for (const { owner, entry } of registeredDispatchReadings()) {
    const matched = entry.match(params, dispatch.readings[owner]);
    if (matched === undefined) continue;
    outcomes.push(matched.outcome);
    said.push(matched.said);
  }
  if (params.role !== undefined) {
    const role = matchRole(params.role, dispatch);
    outcomes.push(role.outcome);
    said.push(role.said);
  }
  return { outcome: allOf(outcomes), said };
}
