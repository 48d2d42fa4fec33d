/**
 * Evaluate check trees against one rep's evidence. A leaf's params get the
 * rep's facts, are parsed with its verb's schema, and the verb runs only
 * when every evidence kind it reads is present ("not assessed" otherwise).
 * A verb that throws is a bug: its check is undecided and marked broken,
 * never a pass. `not`, `all-of` and `any-of` combine by strong Kleene logic
 * (kleene.ts). Every detail starts with its check's id.
 */
import { z } from 'zod';
import type { CheckNode } from './check-schema.js';
import { type Evidence, presentKinds } from './evidence.js';
import { allOf, anyOf, notOf, type Outcome, outcomeSchema } from './kleene.js';
import { type Facts, substitute } from './placeholders.js';
import type { VerbResult } from './verb.js';
import { verbOf } from './verb-table.js';

export interface CheckResult {
  readonly id: string;
  /** The verb, or the combinator (`not`, `all-of`, `any-of`, `classify`). */
  readonly verb: string;
  /** The params with the rep's facts in place (empty for combinators). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly outcome: Outcome;
  readonly observed?: string | undefined;
  /** Starts with the id: `first-dispatch: expected …`. */
  readonly detail: string;
  /** The verb threw (a bug in redgreen): undecided, never a pass. */
  readonly broken?: true | undefined;
  /** Evidence the check reads was not given (no transcript, no repository). */
  readonly notAssessed?: true | undefined;
  /** With `notAssessed`: the evidence kinds it lacked (`transcript`, `reply`, `after`, …). */
  readonly missingEvidence?: readonly string[] | undefined;
  readonly children?: readonly CheckResult[] | undefined;
}

export const checkResultSchema: z.ZodType<CheckResult> = z.lazy(() =>
  z
    .object({
      id: z.string(),
      verb: z.string(),
      params: z.record(z.string(), z.unknown()),
      outcome: outcomeSchema,
      observed: z.string().optional(),
      detail: z.string(),
      broken: z.literal(true).optional(),
      notAssessed: z.literal(true).optional(),
      missingEvidence: z.array(z.string()).optional(),
      children: z.array(checkResultSchema).optional(),
    })
    .strict(),
) as z.ZodType<CheckResult>;

/** The body of a detail without its `id: ` prefix. */
function body(result: CheckResult): string {
  const prefix = `${result.id}: `;
  return result.detail.startsWith(prefix) ? result.detail.slice(prefix.length) : result.detail;
}

function finish(
  node: CheckNode,
  partial: Omit<CheckResult, 'id' | 'detail'> & { readonly body: string },
): CheckResult {
  const { body: text, ...rest } = partial;
  const why = node.why !== undefined && partial.outcome === 'fail' ? ` (${node.why})` : '';
  return { id: node.id, ...rest, detail: `${node.id}: ${text}${why}` };
}

function runLeaf(
  node: Extract<CheckNode, { kind: 'leaf' }>,
  evidence: Evidence,
  facts: Facts,
  present: ReadonlySet<string>,
): CheckResult {
  const known = verbOf(node.verb);
  if (known === undefined)
    throw new Error(`check ${node.id} names the verb ${node.verb}, which no installed pack brings`);
  const verb = known.entry;
  const substituted = substitute(node.params, facts);
  if (!substituted.ok) {
    return finish(node, {
      verb: node.verb,
      params: node.params,
      outcome: 'undecided',
      broken: true,
      body: `broken: ${substituted.error}`,
    });
  }
  const parsed = verb.params.safeParse(substituted.value.value);
  const params = (substituted.value.value ?? {}) as Record<string, unknown>;
  if (!parsed.success) {
    const emptied = substituted.value.emptied;
    if (emptied.length > 0) {
      return finish(node, {
        verb: node.verb,
        params,
        outcome: 'undecided',
        body: `${emptied.map((name) => `{{${name}}}`).join(', ')} holds no value for this fixture, so there is nothing to check`,
      });
    }
    const issue = parsed.error.issues[0];
    return finish(node, {
      verb: node.verb,
      params,
      outcome: 'undecided',
      broken: true,
      body: `broken: params invalid for this fixture at ${issue?.path.join('.') ?? '?'}: ${issue?.message ?? ''}`,
    });
  }
  const reads = (verb.reads as (p: unknown) => readonly string[])(parsed.data);
  const missing = reads.filter((kind) => !present.has(kind));
  if (missing.length > 0) {
    return finish(node, {
      verb: node.verb,
      params,
      outcome: 'undecided',
      notAssessed: true,
      missingEvidence: missing,
      body: `not assessed: no ${missing.join(', ')} evidence`,
    });
  }
  let result: VerbResult;
  try {
    result = (verb.run as (p: unknown, e: Evidence) => VerbResult)(parsed.data, evidence);
  } catch (error) {
    return finish(node, {
      verb: node.verb,
      params,
      outcome: 'undecided',
      broken: true,
      body: `broken: the ${node.verb} verb threw (a bug in redgreen, please report it): ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  return finish(node, {
    verb: node.verb,
    params,
    outcome: result.outcome,
    observed: result.observed,
    body: result.detail,
  });
}

/** The children that explain a combined outcome: the failing ones of a failed all-of, and so on. */
function explaining(children: readonly CheckResult[], outcome: Outcome): readonly CheckResult[] {
  const same = children.filter((child) => child.outcome === outcome);
  return same.length > 0 ? same : children;
}

/** Evaluate one check tree. Pure. */
export function evaluateCheck(node: CheckNode, evidence: Evidence, facts: Facts): CheckResult {
  return evaluateNode(node, evidence, facts, presentKinds(evidence));
}

function evaluateNode(
  node: CheckNode,
  evidence: Evidence,
  facts: Facts,
  present: ReadonlySet<string>,
): CheckResult {
  if (node.kind === 'leaf') return runLeaf(node, evidence, facts, present);
  const children =
    node.kind === 'not'
      ? [evaluateNode(node.child, evidence, facts, present)]
      : node.children.map((child) => evaluateNode(child, evidence, facts, present));
  const outcomes = children.map((child) => child.outcome);
  const outcome =
    node.kind === 'not'
      ? notOf(outcomes[0] ?? 'undecided')
      : node.kind === 'all-of'
        ? allOf(outcomes)
        : anyOf(outcomes);
  const undecided = children.filter((child) => child.outcome === 'undecided');
  const text = [
    ...new Set(
      explaining(children, node.kind === 'not' ? (outcomes[0] ?? 'undecided') : outcome).map(body),
    ),
  ].join('; ');
  const notAssessed =
    outcome === 'undecided' &&
    undecided.length > 0 &&
    undecided.every((child) => child.notAssessed === true);
  return finish(node, {
    verb: node.kind,
    params: {},
    outcome,
    observed: node.kind === 'not' ? children[0]?.observed : undefined,
    body: text,
    broken: children.some((child) => child.broken === true) ? true : undefined,
    notAssessed: notAssessed ? true : undefined,
    missingEvidence: notAssessed
      ? [...new Set(undecided.flatMap((child) => child.missingEvidence ?? []))]
      : undefined,
    children,
  });
}

/** Every broken check in a result tree, depth first. */
export function brokenChecks(result: CheckResult): CheckResult[] {
  const own = result.broken === true && result.children === undefined ? [result] : [];
  return [...own, ...(result.children ?? []).flatMap(brokenChecks)];
}
