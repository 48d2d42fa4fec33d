/**
 * The import graph of harness/ and packs/, and the rule it must keep: the
 * layers of the README's "Architecture" section. Pure but for reading the
 * tree, so a test can hold it against the real tree and against a planted one.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One import of one file: both paths relative to the checkout, with forward slashes. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
}

function sourceFiles(root: string, dir: string): string[] {
  const abs = path.join(root, dir);
  if (!existsSync(abs)) return [];
  const out: string[] = [];
  for (const name of readdirSync(abs).sort()) {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...sourceFiles(root, rel));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/**
 * Every relative import of every .ts file under harness/ and packs/: static
 * imports, `export … from`, dynamic `import()` and `require()` (the compiler's
 * own pre-processor reads them, so comments and strings are no imports).
 * A `.js` specifier names the `.ts` file it is compiled from.
 */
export function readImports(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of [...sourceFiles(root, 'harness'), ...sourceFiles(root, 'packs')]) {
    const info = ts.preProcessFile(readFileSync(path.join(root, file), 'utf8'), true, true);
    for (const imported of info.importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const target = path.posix
        .normalize(path.posix.join(path.posix.dirname(file), imported.fileName))
        .replace(/\.js$/, '.ts');
      edges.push({ from: file, to: target });
    }
  }
  return edges;
}

/**
 * The room of a file: a folder of harness/ (`harness/run/x.ts` → `run`),
 * the composition root `harness/cli.ts`, a pack (`packs/sdd/…` → `packs/sdd`),
 * the shipped-pack list `packs/index.ts` → `packs`, and `tests` for anything
 * under tests/.
 */
export function roomOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'harness') return parts.length > 2 ? (parts[1] ?? '') : 'harness/cli.ts';
  if (parts[0] === 'packs') return parts.length > 2 ? `packs/${parts[1]}` : 'packs';
  return parts[0] ?? '';
}

export interface Layers {
  /** Floors from the ground up; a room may import only rooms on lower floors. */
  readonly floors: readonly (readonly string[])[];
  /** Imports that break the rule today, each with who is to remove it: every one must still exist. */
  readonly allowedUpward: readonly {
    readonly from: string;
    readonly to: string;
    readonly why: string;
  }[];
  /** Rooms whose files still import each other in a circle, with who is to open it. */
  readonly allowedFileCycles: readonly { readonly room: string; readonly why: string }[];
  /**
   * The core's public interface for packs: the harness/ files a pack may
   * import. Every one must be imported by some pack, so the list says what
   * the packs use today, no more.
   */
  readonly packInterface: readonly string[];
}

export interface Violation {
  readonly kind:
    | 'upward import'
    | 'room cycle'
    | 'file cycle'
    | 'core imports a pack'
    | 'pack imports another pack'
    | 'pack imports tests'
    | 'pack imports past the interface'
    | 'room not in the layers'
    | 'stale allowance';
  readonly file: string;
  readonly import: string;
}

/** Strongly connected components of more than one node (Tarjan). */
function circles(nodes: readonly string[], next: (node: string) => readonly string[]): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next(node)) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}

function adjacency(edges: readonly ImportEdge[]): Map<string, string[]> {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const list = next.get(edge.from) ?? [];
    list.push(edge.to);
    next.set(edge.from, list);
  }
  return next;
}

/** Every way `edges` breaks `layers`, each with the importing file and what it imports. */
export function checkImportRule(edges: readonly ImportEdge[], layers: Layers): Violation[] {
  const violations: Violation[] = [];
  const floorOf = new Map<string, number>();
  layers.floors.forEach((rooms, floor) => {
    for (const room of rooms) floorOf.set(room, floor);
  });
  const allowed = new Set(layers.allowedUpward.map((entry) => `${entry.from} > ${entry.to}`));
  const used = new Set<string>();
  const packUses = new Set<string>();
  const roomEdges: ImportEdge[] = [];
  for (const edge of edges) {
    const from = roomOf(edge.from);
    const to = roomOf(edge.to);
    const fromPack = from.startsWith('packs/');
    const toPack = to === 'packs' || to.startsWith('packs/');
    if (to === 'tests') {
      violations.push({ kind: 'pack imports tests', file: edge.from, import: edge.to });
      continue;
    }
    if (toPack) {
      if (fromPack && from !== to) {
        violations.push({ kind: 'pack imports another pack', file: edge.from, import: edge.to });
      } else if (!fromPack && from !== 'packs' && from !== 'harness/cli.ts') {
        violations.push({ kind: 'core imports a pack', file: edge.from, import: edge.to });
      }
      continue;
    }
    if (fromPack && to !== 'packs' && !to.startsWith('packs/')) {
      if (edge.to.startsWith('harness/') && !layers.packInterface.includes(edge.to)) {
        violations.push({
          kind: 'pack imports past the interface',
          file: edge.from,
          import: edge.to,
        });
      }
      if (edge.to.startsWith('harness/')) packUses.add(edge.to);
    }
    if (from === to || fromPack || from === 'packs') continue;
    const fromFloor = floorOf.get(from);
    const toFloor = floorOf.get(to);
    if (fromFloor === undefined || toFloor === undefined) {
      violations.push({ kind: 'room not in the layers', file: edge.from, import: edge.to });
      continue;
    }
    const key = `${edge.from} > ${edge.to}`;
    if (allowed.has(key)) {
      used.add(key);
      continue;
    }
    if (toFloor >= fromFloor) {
      violations.push({ kind: 'upward import', file: edge.from, import: edge.to });
    }
    roomEdges.push({ from, to });
  }
  for (const entry of layers.allowedUpward) {
    if (!used.has(`${entry.from} > ${entry.to}`)) {
      violations.push({ kind: 'stale allowance', file: entry.from, import: entry.to });
    }
  }
  for (const file of layers.packInterface) {
    if (!packUses.has(file)) {
      violations.push({ kind: 'stale allowance', file: 'packs/', import: file });
    }
  }
  // Rooms that import each other (outside the allowances), whatever the floors say.
  const roomNext = adjacency(roomEdges);
  for (const circle of circles([...roomNext.keys()], (room) => roomNext.get(room) ?? [])) {
    violations.push({ kind: 'room cycle', file: circle.join(' -> '), import: circle[0] ?? '' });
  }
  const fileNext = adjacency(edges);
  const cycleRooms = new Set<string>();
  for (const circle of circles([...fileNext.keys()], (file) => fileNext.get(file) ?? [])) {
    const rooms = new Set(circle.map(roomOf));
    const room = rooms.size === 1 ? [...rooms][0] : undefined;
    if (room !== undefined && layers.allowedFileCycles.some((entry) => entry.room === room)) {
      cycleRooms.add(room);
      continue;
    }
    const first = circle[0] ?? '';
    const into = (fileNext.get(first) ?? []).find((target) => circle.includes(target)) ?? '';
    violations.push({ kind: 'file cycle', file: circle.join(', '), import: `${first} > ${into}` });
  }
  for (const entry of layers.allowedFileCycles) {
    if (!cycleRooms.has(entry.room)) {
      violations.push({ kind: 'stale allowance', file: entry.room, import: 'file cycle' });
    }
  }
  return violations;
}

/** An import whose target the rule cannot read: `import(x)` or `require(x)` with a computed argument. */
export interface ComputedImport {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/**
 * Every `import(…)` and `require(…)` call (a `createRequire(…)` result
 * called too) under harness/ and packs/ whose argument is not a string
 * literal: such an import could reach any room, so the rule refuses it.
 * `require.resolve` loads nothing and is not an import.
 */
export function computedImports(root: string): ComputedImport[] {
  const found: ComputedImport[] = [];
  for (const file of [...sourceFiles(root, 'harness'), ...sourceFiles(root, 'packs')]) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const loads = (callee: ts.Expression): boolean =>
      callee.kind === ts.SyntaxKind.ImportKeyword ||
      (ts.isIdentifier(callee) && callee.text === 'require') ||
      (ts.isCallExpression(callee) &&
        ts.isIdentifier(callee.expression) &&
        callee.expression.text === 'createRequire');
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && loads(node.expression)) {
        const [first] = node.arguments;
        if (first === undefined || !ts.isStringLiteralLike(first)) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
          found.push({ file, line: line + 1, text: node.getText(source) });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
