/**
 * Compile one observation: any check (recorded, never gating), or a
 * `classify` of labelled checks, each with an optional summary for the
 * Results table's Notes.
 */
import { err, ok, type Result } from '../lib/result.js';
import {
  type CheckNode,
  type CheckProblem,
  type CompileContext,
  compileCheck,
} from './check-schema.js';
import { type ObservationSummary, summarySchema } from './observation-summary.js';
import { nameSchema } from './param-types.js';

export type ObservationNode =
  | {
      readonly kind: 'check';
      readonly id: string;
      readonly node: CheckNode;
      readonly summary: ObservationSummary | undefined;
    }
  | {
      readonly kind: 'classify';
      readonly id: string;
      readonly labels: readonly { readonly label: string; readonly node: CheckNode }[];
      readonly summary: ObservationSummary | undefined;
    };

export function compileObservation(
  raw: unknown,
  where: string,
  context: CompileContext,
): Result<ObservationNode, CheckProblem> {
  const record = (raw ?? {}) as Record<string, unknown>;
  const summary = summarySchema.optional().safeParse(record.summary);
  if (!summary.success)
    return err({
      field: `${where}.summary`,
      problem: 'must be { "tally": "…" } or { "passes": "…" }',
      fix: 'fix the summary',
    });
  const { summary: _summary, ...rest } = record;
  if (typeof raw === 'object' && raw !== null && 'classify' in raw) {
    const id = nameSchema.safeParse(record.id);
    if (!id.success)
      return err({
        field: `${where}.id`,
        problem: 'is missing or not a name',
        fix: 'give the observation an id',
      });
    const extra = Object.keys(rest).filter((key) => !['id', 'why', 'classify'].includes(key));
    if (extra.length > 0)
      return err({
        field: `${where}.${extra[0]}`,
        problem: 'is not a field of a classify observation',
        fix: 'remove it',
      });
    const entries = Object.entries((record.classify ?? {}) as Record<string, unknown>);
    if (entries.length < 2)
      return err({
        field: `${where}.classify`,
        problem: 'needs at least two labelled checks',
        fix: 'label two or more checks',
      });
    const labels: { label: string; node: CheckNode }[] = [];
    for (const [label, check] of entries) {
      if (!nameSchema.safeParse(label).success)
        return err({
          field: `${where}.classify.${label}`,
          problem: 'is not a valid label',
          fix: 'use lower case, digits and dashes',
        });
      const node = compileCheck(
        check,
        `${where}.classify.${label}`,
        context,
        `${id.data}.${label}`,
      );
      if (!node.ok) return err(node.problem);
      labels.push({ label, node: node.node });
    }
    return ok({ kind: 'classify', id: id.data, labels, summary: summary.data });
  }
  const node = compileCheck(rest, where, context, undefined);
  if (!node.ok) return err(node.problem);
  return ok({ kind: 'check', id: node.node.id, node: node.node, summary: summary.data });
}
