/**
 * The `dispatch` verb's `role` matcher: whether a dispatch is of the role a
 * check expects (an implementer, a reviewer, ...), read with patterns the
 * scenario declares, never with vocabulary of the score room. `is` holds the
 * patterns that say the dispatch has the role, `isNot` those that say it
 * has another, each over the dispatch's subagent_type, description and
 * prompt (case-insensitive; the prompt after markdown emphasis and code
 * spans are removed). The fields are read in that order and the first one
 * that says one thing decides: only `is` matches → the role, only `isNot`
 * matches → another role. A field where both or neither match says
 * nothing, and when no field says anything the matcher is undecided.
 */
import { z } from 'zod';
import type { Dispatch } from '../evidence.js';
import { withoutEmphasis } from '../extractors/language/markdown.js';
import type { Outcome } from '../kleene.js';
import { nonBlank, regexSource } from '../param-types.js';

const FIELDS = ['subagentType', 'description', 'prompt'] as const;
type RoleField = (typeof FIELDS)[number];

const roleRule = z
  .object({
    subagentType: regexSource.optional(),
    description: regexSource.optional(),
    prompt: regexSource.optional(),
  })
  .strict();

export const dispatchRoleParams = z
  .object({
    /** What the role is called in results ("implementer"). */
    name: nonBlank,
    is: roleRule.refine(
      (rule) => FIELDS.some((field) => rule[field] !== undefined),
      'give subagentType, description or prompt: with none, no dispatch could have the role',
    ),
    isNot: roleRule.default({}),
  })
  .strict();
export type DispatchRoleParams = z.infer<typeof dispatchRoleParams>;

function fieldText(dispatch: Dispatch, field: RoleField): string | null {
  if (field === 'subagentType') return dispatch.subagentType;
  if (field === 'description') return dispatch.description;
  return dispatch.prompt === null ? null : withoutEmphasis(dispatch.prompt);
}

function matches(source: string | undefined, text: string): boolean {
  return source !== undefined && new RegExp(source, 'im').test(text);
}

const LABEL: Readonly<Record<RoleField, string>> = {
  subagentType: 'subagent_type',
  description: 'description',
  prompt: 'prompt',
};

/** Whether `dispatch` has the role, with what decided it. */
export function matchRole(
  role: DispatchRoleParams,
  dispatch: Dispatch,
): { outcome: Outcome; said: string } {
  for (const field of FIELDS) {
    const text = fieldText(dispatch, field);
    if (text === null || text.trim() === '') continue;
    const yes = matches(role.is[field], text);
    const no = matches(role.isNot[field], text);
    if (yes && !no) return { outcome: 'pass', said: `${role.name} (by its ${LABEL[field]})` };
    if (no && !yes) return { outcome: 'fail', said: `not ${role.name} (by its ${LABEL[field]})` };
  }
  return { outcome: 'undecided', said: `role not readable as ${role.name} or not` };
}
