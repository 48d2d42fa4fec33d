/**
 * YAML read as data (scenario files, policy files): parsed, and refused when
 * an alias names a node that encloses it, so the value would contain itself.
 * Such a value has no end: a schema or a walk over it recurses until the
 * stack runs out, which is a crash where the user wrote a bad file. The
 * parser's own alias limit already stops exponential expansion.
 */
import { parse } from 'yaml';
import { err, ok, type Result } from './result.js';

export interface YamlDataProblem {
  /** Where, as `steps[0].branch[0].steps`; empty for the document itself. */
  readonly field: string;
  readonly problem: string;
}

export function parseYamlData(text: string): Result<unknown, YamlDataProblem> {
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    return err({ field: '', problem: message });
  }
  const loop = selfContaining(value, [], new Set());
  return loop === undefined
    ? ok(value)
    : err({ field: loop, problem: 'contains itself (a YAML alias of an enclosing node)' });
}

/** The path of the first node that is one of its own ancestors, if any. */
function selfContaining(
  value: unknown,
  at: readonly (string | number)[],
  ancestors: Set<object>,
): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (ancestors.has(value)) return fieldPath(at);
  ancestors.add(value);
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  for (const [key, child] of entries) {
    const found = selfContaining(child, [...at, key], ancestors);
    if (found !== undefined) return found;
  }
  ancestors.delete(value);
  return undefined;
}

function fieldPath(at: readonly (string | number)[]): string {
  return at
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? key : `.${key}`))
    .join('');
}
