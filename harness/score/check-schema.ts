/**
 * The check language, derived from the verb table: a check is a verb with
 * its params, or `not` of a check, or `all-of` / `any-of` a non-empty list
 * of checks. `checkSchema` is the zod schema of that language (a
 * discriminated union on `verb` plus the three combinators, recursive via
 * z.lazy). `compileCheck` walks a check the same way, with the same leaf
 * schemas, so that a malformed check gets a one-line error naming the field
 * and the fix, and returns the tree the engine evaluates.
 *
 * Params may hold placeholders (see placeholders.ts); a leaf is validated
 * with sample facts here and parsed again with the rep's facts when it runs.
 */
import { z } from 'zod';
import { didYouMean } from '../lib/did-you-mean.js';
import { knownFields } from '../lib/zod-input-error.js';
import { nameSchema } from './param-types.js';
import {
  type FactShapes,
  type Facts,
  placeholderNames,
  sampleFacts,
  substitute,
} from './placeholders.js';
import { specificIssue } from './scenario-errors.js';
import { derived } from './score-registry.js';
import type { ParamProblem, ValidationContext } from './validation.js';
import { registeredVerbs, verbOf } from './verb-table.js';

const COMBINATORS = ['not', 'all-of', 'any-of'] as const;
export type Combinator = (typeof COMBINATORS)[number];

const checkMeta = {
  /** Names the check in results; required at the top level, optional inside a combinator. */
  id: nameSchema.optional(),
  /** Why the check matters, quoted after a failing detail. */
  why: z.string().min(1).optional(),
};

/** The name of every verb, the core's first, then each installed pack's. */
export const verbNames = derived(() => registeredVerbs().map((verb) => verb.name));

/** One strict schema per verb: its params plus `verb`, `id` and `why`. */
const leafCheckSchemas = derived(
  () =>
    new Map(
      registeredVerbs().map(({ name, entry }) => [
        name,
        entry.params.extend({ verb: z.literal(name), ...checkMeta }).strict() as z.ZodObject,
      ]),
    ),
);

type LeafCheckInput = { verb: string; id?: string; why?: string } & Record<string, unknown>;

export type CheckInput =
  | LeafCheckInput
  | { id?: string; why?: string; not: CheckInput }
  | { id?: string; why?: string; 'all-of': CheckInput[] }
  | { id?: string; why?: string; 'any-of': CheckInput[] };

/**
 * The check language as one zod schema, its top level allowed the fields of
 * `extra` too (an observation's `summary`); the checks inside combinators
 * are plain checks.
 */
export function checkSchemaWith(extra: z.ZodRawShape = {}): z.ZodType<CheckInput> {
  return z.lazy(() =>
    z.union([
      z.discriminatedUnion(
        'verb',
        [...leafCheckSchemas().values()].map((leaf) => leaf.extend(extra).strict()) as unknown as [
          z.ZodObject<{ verb: z.ZodLiteral<string> }>,
        ],
      ),
      z.object({ ...checkMeta, ...extra, not: checkSchema }).strict(),
      z.object({ ...checkMeta, ...extra, 'all-of': z.array(checkSchema).min(1) }).strict(),
      z.object({ ...checkMeta, ...extra, 'any-of': z.array(checkSchema).min(1) }).strict(),
    ]),
  ) as z.ZodType<CheckInput>;
}

/** The check language as one zod schema. */
export const checkSchema: z.ZodType<CheckInput> = checkSchemaWith();

/** A check ready to evaluate: its id (generated inside combinators when not given) and shape. */
export type CheckNode =
  | {
      readonly kind: 'leaf';
      readonly id: string;
      readonly why: string | undefined;
      readonly verb: string;
      /** The params as written, placeholders and all. */
      readonly params: Readonly<Record<string, unknown>>;
    }
  | {
      readonly kind: 'not';
      readonly id: string;
      readonly why: string | undefined;
      readonly child: CheckNode;
    }
  | {
      readonly kind: 'all-of' | 'any-of';
      readonly id: string;
      readonly why: string | undefined;
      readonly children: readonly CheckNode[];
    };

/** A problem found at a path inside the scenario file. */
export interface CheckProblem extends ParamProblem {}

function pathText(base: string, path: readonly PropertyKey[]): string {
  let text = base;
  for (const part of path) text += typeof part === 'number' ? `[${part}]` : `.${String(part)}`;
  return text;
}

function zodProblem(base: string, error: z.ZodError): CheckProblem {
  const first = error.issues[0];
  const issue = first === undefined ? undefined : specificIssue(first);
  const field = pathText(base, issue?.path ?? []);
  if (issue?.code === 'unrecognized_keys') {
    return {
      field,
      problem: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`,
      fix: 'remove it or fix its spelling (see the verb table in README.md)',
    };
  }
  return {
    field,
    problem: (issue?.message ?? 'is invalid').replace(/^Invalid input: /, ''),
    fix: 'fix the value (see the verb table in README.md)',
  };
}

export interface CompileContext extends ValidationContext {
  /** The facts params may name, and whether each is a list. */
  readonly facts: FactShapes;
  /** Facts already known when the scenario loads, used in place of sample values. */
  readonly knownFacts?: Facts | undefined;
  /**
   * The problem with using a verb or an extractor a pack brings (`owner`;
   * undefined: the core's) in this scenario: a pack it does not name.
   */
  readonly packProblem?:
    | ((
        what: 'verb' | 'extractor' | 'field' | 'fact',
        name: string,
        owner: string | undefined,
      ) => ParamProblem | undefined)
    | undefined;
}

/** How each combinator is written, for the errors that point at them. */
const COMBINATOR_FORMS =
  '{"id": …, "not": {check}}, {"id": …, "all-of": [checks]}, {"id": …, "any-of": [checks]}';

/** Validate one check as written and build its node; `where` names it (`checks.post[0]`). */
export function compileCheck(
  raw: unknown,
  where: string,
  context: CompileContext,
  fallbackId: string | undefined,
): { ok: true; node: CheckNode } | { ok: false; problem: CheckProblem } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      ok: false,
      problem: {
        field: where,
        problem: 'is not a check object',
        fix: 'write { "id": …, "verb": …, … }',
      },
    };
  }
  const record = raw as Record<string, unknown>;
  const forms = [
    ...(typeof record.verb === 'string' ? ['verb'] : []),
    ...COMBINATORS.filter((key) => key in record),
  ];
  if (forms.length !== 1) {
    return {
      ok: false,
      problem: {
        field: where,
        problem:
          forms.length === 0
            ? 'has no "verb" (nor "not", "all-of" or "any-of")'
            : `mixes ${forms.join(' and ')}`,
        fix: 'give exactly one of verb, not, all-of, any-of',
      },
    };
  }
  const meta = z.object(checkMeta).safeParse({ id: record.id, why: record.why });
  if (!meta.success) return { ok: false, problem: zodProblem(where, meta.error) };
  const id = meta.data.id ?? fallbackId;
  if (id === undefined) {
    return {
      ok: false,
      problem: {
        field: `${where}.id`,
        problem: 'is missing',
        fix: 'give every top-level check an id (lower case, digits, dashes)',
      },
    };
  }
  const why = meta.data.why;
  const form = forms[0] as 'verb' | Combinator;

  if (form === 'not') {
    const extra = Object.keys(record).filter((key) => !['id', 'why', 'not'].includes(key));
    if (extra.length > 0)
      return {
        ok: false,
        problem: {
          field: `${where}.${extra[0]}`,
          problem: 'is not a field of a "not" check',
          fix: 'move it into the negated check',
        },
      };
    const child = compileCheck(record.not, `${where}.not`, context, `${id}.not`);
    return child.ok ? { ok: true, node: { kind: 'not', id, why, child: child.node } } : child;
  }
  if (form === 'all-of' || form === 'any-of') {
    const list = record[form];
    const extra = Object.keys(record).filter((key) => !['id', 'why', form].includes(key));
    if (extra.length > 0)
      return {
        ok: false,
        problem: {
          field: `${where}.${extra[0]}`,
          problem: `is not a field of an "${form}" check`,
          fix: 'move it into one of the listed checks',
        },
      };
    if (!Array.isArray(list) || list.length === 0) {
      return {
        ok: false,
        problem: {
          field: `${where}.${form}`,
          problem: 'must be a non-empty list of checks',
          fix: 'list at least one check (an empty list would decide nothing)',
        },
      };
    }
    const children: CheckNode[] = [];
    for (const [index, item] of list.entries()) {
      const child = compileCheck(item, `${where}.${form}[${index}]`, context, `${id}.${index + 1}`);
      if (!child.ok) return child;
      children.push(child.node);
    }
    return { ok: true, node: { kind: form, id, why, children } };
  }

  const verb = record.verb as string;
  const known = verbOf(verb);
  const leafSchema = leafCheckSchemas().get(verb);
  if (known === undefined || leafSchema === undefined) {
    const combinator = (COMBINATORS as readonly string[]).includes(verb);
    return {
      ok: false,
      problem: {
        field: `${where}.verb`,
        problem: combinator ? `"${verb}" is a combinator, not a verb` : `unknown verb "${verb}"`,
        fix: combinator
          ? `write it as the key that holds the checks it combines: ${COMBINATOR_FORMS}`
          : `use one of ${verbNames().join(', ')}; or combine checks: ${COMBINATOR_FORMS}`,
      },
    };
  }
  const fieldOwner = Object.keys(record)
    .map((field) => ({ field, owner: known.entry.fieldOwner?.(field) }))
    .find(({ owner }) => owner !== undefined);
  const packProblem =
    context.packProblem?.('verb', verb, known.owner) ??
    (fieldOwner === undefined
      ? undefined
      : context.packProblem?.('field', `${verb}.${fieldOwner.field}`, fieldOwner.owner));
  if (packProblem !== undefined)
    return { ok: false, problem: { ...packProblem, field: `${where}.verb` } };
  const structure = leafSchema.safeParse(raw);
  if (!structure.success) {
    const problem = zodProblem(where, structure.error);
    const allowed = knownFields(leafSchema, raw, []);
    const unknown = structure.error.issues.find((issue) => issue.code === 'unrecognized_keys');
    return {
      ok: false,
      problem:
        unknown?.code === 'unrecognized_keys' && unknown.path.length === 0 && allowed !== undefined
          ? {
              ...problem,
              fix: `${didYouMean(unknown.keys[0] ?? '', allowed)}a ${verb} check takes ${allowed.map((name) => `"${name}"`).join(', ')}`,
            }
          : problem,
    };
  }
  // The params as written, with the verb's defaults filled in (a default may name a placeholder).
  const { verb: _verb, id: _id, why: _why, ...params } = structure.data as Record<string, unknown>;
  const unknown = placeholderNames(params).find((name) => context.facts[name] === undefined);
  if (unknown !== undefined) {
    return {
      ok: false,
      problem: {
        field: where,
        problem: `names the placeholder {{${unknown}}}, which is no fact of a fixture`,
        fix: `use one of ${Object.keys(context.facts)
          .map((name) => `{{${name}}}`)
          .join(', ')}`,
      },
    };
  }
  const sampled = substitute(params, { ...sampleFacts(context.facts), ...context.knownFacts });
  if (!sampled.ok)
    return {
      ok: false,
      problem: {
        field: where,
        problem: sampled.error,
        fix: 'put a list placeholder inside a list',
      },
    };
  const parsed = known.entry.params.safeParse(sampled.value.value);
  if (!parsed.success) return { ok: false, problem: zodProblem(where, parsed.error) };
  const validate = known.entry.validate as
    | ((p: unknown, c: ValidationContext) => ParamProblem | undefined)
    | undefined;
  const problem = validate?.(parsed.data, context);
  if (problem !== undefined)
    return { ok: false, problem: { ...problem, field: `${where}.${problem.field}` } };
  return { ok: true, node: { kind: 'leaf', id, why, verb, params } };
}

/** Every leaf of a check tree, depth first. */
export function leavesOf(node: CheckNode): Extract<CheckNode, { kind: 'leaf' }>[] {
  if (node.kind === 'leaf') return [node];
  if (node.kind === 'not') return leavesOf(node.child);
  return node.children.flatMap(leavesOf);
}
