/**
 * Named placeholders in check and extractor params: `{{name}}` inserts a
 * fact about the rep's fixture as written; `{{regex name}}` inserts it
 * escaped for use inside a regular expression. A fact is a string or a list
 * of strings. Inside an array, a string naming list facts becomes one string
 * per value (every combination when it names several); anywhere else a list
 * fact is an error, since one string cannot hold a list.
 *
 * Which facts exist is the caller's (the fixture room's) business: this
 * module only substitutes, so no scenario knowledge lives here.
 */

import { escapeRegExp } from '../lib/escape-reg-exp.js';
import { err, ok, type Result } from '../lib/result.js';

export type FactValue = string | readonly string[];
export type Facts = Readonly<Record<string, FactValue>>;

/** Which facts exist and whether each is a list: what a scenario may name before any rep runs. */
export type FactShapes = Readonly<Record<string, 'scalar' | 'list'>>;

const PLACEHOLDER = /\{\{\s*(?:(regex)\s+)?([A-Za-z][\w.-]*)\s*\}\}/g;

/** Every placeholder name a value's strings use. */
export function placeholderNames(value: unknown): string[] {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (typeof node === 'string') {
      for (const found of node.matchAll(PLACEHOLDER)) names.add(found[2] ?? '');
    } else if (Array.isArray(node)) {
      node.forEach(visit);
    } else if (node !== null && typeof node === 'object') {
      Object.values(node).forEach(visit);
    }
  };
  visit(value);
  return [...names];
}

/**
 * The first placeholder (in key order) whose name `matches`, with where it
 * stands: `checks.post[2].globs[0]`; undefined when none matches.
 */
export function firstPlaceholder(
  value: unknown,
  matches: (name: string) => boolean,
  where = '',
): { readonly where: string; readonly name: string } | undefined {
  if (typeof value === 'string') {
    for (const found of value.matchAll(PLACEHOLDER)) {
      const name = found[2] ?? '';
      if (matches(name)) return { where, name };
    }
    return undefined;
  }
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [`${where}[${index}]`, item])
    : value !== null && typeof value === 'object'
      ? Object.entries(value).map(([key, item]) => [where === '' ? key : `${where}.${key}`, item])
      : [];
  for (const [at, item] of entries) {
    const found = firstPlaceholder(item, matches, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

function render(text: string, pick: (name: string) => string): string {
  return text.replace(PLACEHOLDER, (_whole, helper: string | undefined, name: string) =>
    helper === 'regex' ? escapeRegExp(pick(name)) : pick(name),
  );
}

/** One string per combination of the list facts it names. */
function expand(text: string, facts: Facts): Result<string[], string> {
  const names = placeholderNames(text);
  const missing = names.find((name) => facts[name] === undefined);
  if (missing !== undefined) return err(`unknown placeholder {{${missing}}}`);
  let combinations: Record<string, string>[] = [{}];
  for (const name of names) {
    const value = facts[name] as FactValue;
    const values = typeof value === 'string' ? [value] : value;
    combinations = combinations.flatMap((chosen) => values.map((v) => ({ ...chosen, [name]: v })));
  }
  return ok(combinations.map((chosen) => render(text, (name) => chosen[name] ?? '')));
}

/** A value with its placeholders replaced, and the list facts that expanded to nothing in a list. */
export interface Substituted {
  readonly value: unknown;
  readonly emptied: readonly string[];
}

/** `value` with every placeholder replaced by its fact; an error names the placeholder. */
export function substitute(value: unknown, facts: Facts): Result<Substituted, string> {
  const emptied = new Set<string>();
  const walk = (node: unknown): Result<unknown, string> => {
    if (typeof node === 'string') {
      const names = placeholderNames(node);
      const list = names.find(
        (name) => facts[name] !== undefined && typeof facts[name] !== 'string',
      );
      if (list !== undefined) {
        return err(
          `{{${list}}} is a list and cannot stand in a single string: use it inside a list`,
        );
      }
      const expanded = expand(node, facts);
      return expanded.ok ? ok(expanded.value[0] ?? '') : expanded;
    }
    if (Array.isArray(node)) {
      const out: unknown[] = [];
      for (const item of node) {
        if (typeof item === 'string') {
          const expanded = expand(item, facts);
          if (!expanded.ok) return expanded;
          if (expanded.value.length === 0)
            for (const name of placeholderNames(item)) emptied.add(name);
          out.push(...expanded.value);
          continue;
        }
        const inner = walk(item);
        if (!inner.ok) return inner;
        out.push(inner.value);
      }
      return ok(out);
    }
    if (node !== null && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(node)) {
        const inner = walk(item);
        if (!inner.ok) return inner;
        out[key] = inner.value;
      }
      return ok(out);
    }
    return ok(node);
  };
  const result = walk(value);
  return result.ok ? ok({ value: result.value, emptied: [...emptied] }) : result;
}

/** Facts of the right shapes with harmless values, to validate params before any rep exists. */
export function sampleFacts(shapes: FactShapes): Facts {
  return Object.fromEntries(
    Object.entries(shapes).map(([name, shape]) => [name, shape === 'list' ? ['x'] : 'x']),
  );
}
