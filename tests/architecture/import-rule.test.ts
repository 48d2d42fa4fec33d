/**
 * The import rule: the layers of the README's "Architecture" section, as
 * data. A room (a folder of harness/) imports only rooms on lower floors; no
 * files import each other in a circle; the core (harness/) imports no pack
 * but through the composition root harness/cli.ts; a pack imports the core
 * and itself, never another pack or tests/. The planted tree proves each
 * part of the rule can fail, naming the file and the import.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkImportRule, computedImports, type Layers, readImports } from './import-graph.js';

const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Bottom floor first. A room may import any room on a floor below its own. */
const LAYERS: Layers = {
  floors: [
    ['lib', 'schedule'],
    ['sandbox'],
    ['fixture'],
    ['library'],
    ['score'],
    ['model-server'],
    ['session'],
    ['results'],
    ['scenario'],
    ['campaign'],
    ['estimate'],
    ['judge'],
    ['report'],
    ['evals'],
    ['run'],
    ['check', 'authoring', 'export', 'judging'],
    ['cli'],
    ['pack'],
    ['harness/cli.ts'],
  ],
  allowedUpward: [],
  allowedFileCycles: [],
  // What packs may import: the rooms' registries and the types and helpers a pack's
  // contributions are written with. A new one is added here, in review.
  packInterface: [
    'harness/authoring/scenario-templates.ts',
    'harness/check/check-extensions.ts',
    'harness/cli/check-flags.ts',
    'harness/cli/cli-extensions.ts',
    'harness/fixture/commit-template.ts',
    'harness/fixture/extensions.ts',
    'harness/fixture/gate-finding.ts',
    'harness/fixture/inspect-repository.ts',
    'harness/fixture/recipe-schema.ts',
    'harness/lib/escape-reg-exp.ts',
    'harness/lib/input-error.ts',
    'harness/lib/package-root.ts',
    'harness/lib/result.ts',
    'harness/lib/zod-input-error.ts',
    'harness/model-server/conversation-text.ts',
    'harness/model-server/policies/policy.ts',
    'harness/model-server/policies/program.ts',
    'harness/model-server/policies/tools.ts',
    'harness/model-server/rng.ts',
    'harness/pack/pack.ts',
    'harness/scenario/scenario-extensions.ts',
    'harness/score/dispatch-reading.ts',
    'harness/score/dispatches.ts',
    'harness/score/evidence.ts',
    'harness/score/extractors/extractor.ts',
    'harness/score/extractors/language/clauses.ts',
    'harness/score/extractors/language/markdown.ts',
    'harness/score/extractors/language/prose-names.ts',
    'harness/score/pack-metric.ts',
    'harness/score/param-types.ts',
    'harness/score/placeholders.ts',
    'harness/score/scenario-schema.ts',
    'harness/score/score-registry.ts',
    'harness/score/tool-call.ts',
    'harness/score/validation.ts',
    'harness/score/verb.ts',
    'harness/score/verbs/glob.ts',
    'harness/score/verbs/reply-value.ts',
  ],
};

function allowance(edge: string, why: string): Layers['allowedUpward'][number] {
  const [from = '', to = ''] = edge.split(' > ');
  return { from, to, why };
}

describe('the import rule', () => {
  it('holds for harness/ and packs/ as they stand', () => {
    const violations = checkImportRule(readImports(checkout), LAYERS);
    expect(violations).toEqual([]);
  });

  it('reads every import: no import() or require() of a computed path in harness/ or packs/', () => {
    expect(computedImports(checkout)).toEqual([]);
  });

  describe('a planted tree', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-import-rule-'));
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const write = (file: string, text: string): void => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };
    const layers: Layers = {
      floors: [['lib'], ['score'], ['run'], ['harness/cli.ts']],
      allowedUpward: [],
      allowedFileCycles: [],
      packInterface: ['harness/score/verb.ts'],
    };

    write('harness/lib/a.ts', "import { b } from './b.js';\nexport const a = b;\n");
    write('harness/lib/b.ts', "export { a } from './a.js';\nexport const b = 1;\n");
    write(
      'harness/score/verb.ts',
      "// import { x } from '../run/x.js' is a comment\nexport const v = 1;\n",
    );
    write(
      'harness/score/up.ts',
      "export async function up() {\n  return import('../run/runner.js');\n}\n",
    );
    write('harness/run/runner.ts', "import { v } from '../score/verb.js';\nexport const r = v;\n");
    write(
      'harness/run/uses-pack.ts',
      "import { sdd } from '../../packs/sdd/index.js';\nexport const p = sdd;\n",
    );
    write(
      'harness/cli.ts',
      "import { SHIPPED } from '../packs/index.js';\nexport const s = SHIPPED;\n",
    );
    write(
      'packs/index.ts',
      "import { sdd } from './sdd/index.js';\nexport const SHIPPED = [sdd];\n",
    );
    write(
      'packs/sdd/index.ts',
      "import { v } from '../../harness/score/verb.js';\nexport const sdd = v;\n",
    );
    write(
      'packs/other/index.ts',
      "import { sdd } from '../sdd/index.js';\nexport const other = sdd;\n",
    );
    write(
      'packs/other/helper.ts',
      "import { h } from '../../tests/helpers/h.js';\nexport const x = h;\n",
    );
    write(
      'packs/sdd/deep.ts',
      "import { a } from '../../harness/lib/a.js';\nexport const d = a;\n",
    );
    write('harness/stray/thing.ts', "import { a } from '../lib/a.js';\nexport const t = a;\n");
    write(
      'harness/lib/hidden.ts',
      [
        "import { createRequire } from 'node:module';",
        "export const viaImport = () => import(['..', '..', 'pa' + 'cks', 'sdd', 'index.js'].join('/'));",
        'export const viaRequire = (name: string) => createRequire(import.meta.url)(`../${name}`);',
        "export const plain = () => require(process.env.X ?? '');",
        "export const fine = () => [import('./a.js'), createRequire(import.meta.url).resolve(`${'x'}/package.json`)];",
        '',
      ].join('\n'),
    );

    const violations = checkImportRule(readImports(root), layers);
    const named = (kind: string) => violations.filter((violation) => violation.kind === kind);

    it('reports an import or require of a computed path, and no literal one or require.resolve', () => {
      expect(computedImports(root).map(({ file, line }) => `${file}:${line}`)).toEqual([
        'harness/lib/hidden.ts:2',
        'harness/lib/hidden.ts:3',
        'harness/lib/hidden.ts:4',
      ]);
    });

    it('reports a file cycle with its files and an import of it', () => {
      expect(named('file cycle')).toEqual([
        {
          kind: 'file cycle',
          file: 'harness/lib/a.ts, harness/lib/b.ts',
          import: 'harness/lib/a.ts > harness/lib/b.ts',
        },
      ]);
    });

    it('reports an upward import (a dynamic one too) and the room cycle it makes, and reads no comment as an import', () => {
      expect(named('upward import')).toEqual([
        { kind: 'upward import', file: 'harness/score/up.ts', import: 'harness/run/runner.ts' },
      ]);
      expect(named('room cycle').map((violation) => violation.file)).toEqual(['run -> score']);
    });

    it('reports the core importing a pack, but not the composition root', () => {
      expect(named('core imports a pack')).toEqual([
        {
          kind: 'core imports a pack',
          file: 'harness/run/uses-pack.ts',
          import: 'packs/sdd/index.ts',
        },
      ]);
    });

    it('reports a pack importing another pack or tests/', () => {
      expect(named('pack imports another pack')).toEqual([
        {
          kind: 'pack imports another pack',
          file: 'packs/other/index.ts',
          import: 'packs/sdd/index.ts',
        },
      ]);
      expect(named('pack imports tests')).toEqual([
        { kind: 'pack imports tests', file: 'packs/other/helper.ts', import: 'tests/helpers/h.ts' },
      ]);
    });

    it('reports a room the layers do not place', () => {
      expect(named('room not in the layers')).toEqual([
        {
          kind: 'room not in the layers',
          file: 'harness/stray/thing.ts',
          import: 'harness/lib/a.ts',
        },
      ]);
    });

    it('reports a pack importing a core file outside the packs’ interface', () => {
      expect(named('pack imports past the interface')).toEqual([
        {
          kind: 'pack imports past the interface',
          file: 'packs/sdd/deep.ts',
          import: 'harness/lib/a.ts',
        },
      ]);
    });

    it('reports an allowance whose import is gone', () => {
      const stale = checkImportRule(readImports(root), {
        ...layers,
        allowedUpward: [{ from: 'harness/run/runner.ts', to: 'harness/cli.ts', why: 'planted' }],
        allowedFileCycles: [{ room: 'run', why: 'planted' }],
        packInterface: ['harness/score/verb.ts', 'harness/run/runner.ts'],
      });
      expect(stale.filter((violation) => violation.kind === 'stale allowance')).toEqual([
        { kind: 'stale allowance', file: 'harness/run/runner.ts', import: 'harness/cli.ts' },
        { kind: 'stale allowance', file: 'packs/', import: 'harness/run/runner.ts' },
        { kind: 'stale allowance', file: 'run', import: 'file cycle' },
      ]);
    });
  });
});
