/**
 * The templates of a data policy (tool inputs, replies, questions, patterns):
 * Handlebars, in an environment of their own with a fixed set of helpers,
 * no partials and no HTML escaping. Before anything runs, analyseTemplate
 * says which values a template reads, so a template naming a value that is
 * not defined at that step is a load error rather than a broken session.
 *
 * Values are text or lists of text (an `all` capture). Blocks: `#each`,
 * `#if`, `#unless` (with `else`). Helpers: `join list sep`, `first list`,
 * `last list`, `count list`, `without list other` (the items of list not in
 * other), `lines text` (its non-blank lines), `shell text` (quoted for
 * bash), `regex text` (escaped for a pattern), `eq a b`. Inside `#each` the
 * item is `this` (and `@index`); a value outside is `@root.<name>`.
 */
import Handlebars from 'handlebars';
import { err, ok, type Result } from '../../lib/result.js';
import { shellQuote } from '../policies/tools.js';
import { HELPER_NAMES } from './policy-schema.js';

export type Value = string | readonly string[];

const BLOCK_HELPERS = new Set(['each', 'if', 'unless']);
const HELPERS = new Set<string>(HELPER_NAMES);
const EACH_DATA = new Set(['index', 'first', 'last', 'key']);

const asList = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.map(String)
    : value === undefined || value === null || value === ''
      ? []
      : [String(value)];

/** The helpers' bodies: Handlebars passes its options object last, never a value. */
const helperBodies: Readonly<
  Record<(typeof HELPER_NAMES)[number], (...args: unknown[]) => unknown>
> = {
  join: (list, separator) => asList(list).join(typeof separator === 'string' ? separator : ', '),
  first: (list) => asList(list)[0] ?? '',
  last: (list) => asList(list).at(-1) ?? '',
  count: (list) => asList(list).length,
  without: (list, other) => {
    const gone = new Set(asList(other));
    return asList(list).filter((item) => !gone.has(item));
  },
  lines: (text) =>
    asList(text)
      .join('\n')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  shell: (text) => shellQuote(asList(text).join(' ')),
  regex: (text) =>
    asList(text)
      .join('\n')
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  eq: (a, b) => String(a) === String(b),
};

const environment = Handlebars.create();
for (const [name, body] of Object.entries(helperBodies)) {
  environment.registerHelper(name, (...args: unknown[]) => body(...args.slice(0, -1)));
}

const compileOptions = {
  noEscape: true,
  strict: true,
  knownHelpersOnly: true,
  knownHelpers: Object.fromEntries(HELPER_NAMES.map((name) => [name, true])),
} as const;

/** What a template reads: the values it names at the top level. */
export interface TemplateReads {
  readonly names: ReadonlySet<string>;
}

/** Parse a template and say which values it reads; a problem is one sentence. */
export function analyseTemplate(source: string): Result<TemplateReads, string> {
  let program: hbs.AST.Program;
  try {
    program = environment.parse(source);
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    return err(`is not a valid template (${message})`);
  }
  const names = new Set<string>();
  const problems: string[] = [];
  visitProgram(program, 0, names, problems);
  if (problems.length > 0) return err(problems[0] ?? 'is not a valid template');
  try {
    environment.precompile(source, compileOptions);
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    return err(`is not a valid template (${message})`);
  }
  return ok({ names });
}

/** Render a template with values (the caller has checked every name it reads is there). */
export function renderTemplate(
  source: string,
  values: ReadonlyMap<string, Value>,
): Result<string, string> {
  if (!source.includes('{{')) return ok(source);
  try {
    const compiled = compiledTemplate(source);
    return ok(compiled(Object.fromEntries(values)));
  } catch (error) {
    return err(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
  }
}

const compiledCache = new Map<string, HandlebarsTemplateDelegate>();

function compiledTemplate(source: string): HandlebarsTemplateDelegate {
  let compiled = compiledCache.get(source);
  if (compiled === undefined) {
    compiled = environment.compile(source, compileOptions);
    compiledCache.set(source, compiled);
  }
  return compiled;
}

type Node = hbs.AST.Node;

function visitProgram(
  program: hbs.AST.Program,
  eachDepth: number,
  names: Set<string>,
  problems: string[],
): void {
  for (const statement of program.body) visitNode(statement, eachDepth, names, problems);
}

function visitNode(node: Node, eachDepth: number, names: Set<string>, problems: string[]): void {
  switch (node.type) {
    case 'ContentStatement':
    case 'CommentStatement':
    case 'StringLiteral':
    case 'NumberLiteral':
    case 'BooleanLiteral':
    case 'UndefinedLiteral':
    case 'NullLiteral':
      return;
    case 'MustacheStatement':
    case 'SubExpression': {
      const call = node as hbs.AST.MustacheStatement | hbs.AST.SubExpression;
      const isCall = call.params.length > 0 || (call.hash?.pairs.length ?? 0) > 0;
      if (isCall) visitCall(call.path, call.params, eachDepth, names, problems, false);
      else visitNode(call.path, eachDepth, names, problems);
      return;
    }
    case 'BlockStatement': {
      const block = node as hbs.AST.BlockStatement;
      visitCall(block.path, block.params, eachDepth, names, problems, true);
      const helper = pathName(block.path);
      const inner = helper === 'each' ? eachDepth + 1 : eachDepth;
      if (block.program !== undefined) visitProgram(block.program, inner, names, problems);
      if (block.inverse !== undefined) visitProgram(block.inverse, eachDepth, names, problems);
      return;
    }
    case 'PathExpression':
      visitPath(node as hbs.AST.PathExpression, eachDepth, names, problems);
      return;
    default:
      problems.push(
        `uses ${node.type}, which policy templates do not support (no partials or decorators)`,
      );
  }
}

function visitCall(
  path: hbs.AST.PathExpression | hbs.AST.Literal,
  params: readonly hbs.AST.Expression[],
  eachDepth: number,
  names: Set<string>,
  problems: string[],
  block: boolean,
): void {
  const helper = pathName(path);
  const known = block ? BLOCK_HELPERS : HELPERS;
  if (helper === undefined || !known.has(helper)) {
    problems.push(
      block
        ? `uses the block {{#${helper ?? '?'}}}: use #each, #if or #unless`
        : `calls {{${helper ?? '?'} …}}, which is no helper: use ${[...HELPERS].join(', ')}`,
    );
    return;
  }
  for (const param of params) visitNode(param, eachDepth, names, problems);
}

function visitPath(
  path: hbs.AST.PathExpression,
  eachDepth: number,
  names: Set<string>,
  problems: string[],
): void {
  const [head] = path.parts;
  if (path.data) {
    if (head === 'root') {
      if (path.parts[1] !== undefined) names.add(path.parts[1]);
      return;
    }
    if (eachDepth > 0 && head !== undefined && EACH_DATA.has(head)) return;
    problems.push(
      `reads {{${path.original}}}: only @index, @first, @last inside #each, or @root.<name>`,
    );
    return;
  }
  if (head === undefined) {
    // `this` (or `..`): the current item, which only #each gives.
    if (eachDepth - path.depth > 0) return;
    problems.push(`reads {{${path.original}}} outside #each: name a value instead`);
    return;
  }
  if (path.depth === eachDepth) {
    names.add(head);
    return;
  }
  problems.push(
    path.depth < eachDepth
      ? `reads {{${path.original}}} inside #each, where the item is {{this}}: write {{@root.${head}}} for a value outside`
      : `reads {{${path.original}}}, which climbs out of the template`,
  );
}

function pathName(path: hbs.AST.PathExpression | hbs.AST.Literal): string | undefined {
  return path.type === 'PathExpression' ? (path as hbs.AST.PathExpression).original : undefined;
}
