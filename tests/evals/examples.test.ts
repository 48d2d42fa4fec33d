/**
 * Every real eval file in ../shared/skill-evals/examples/ imports, or is
 * refused for the reason that is right. The examples are the files alone
 * (their repositories are not beside them), so each test recreates the
 * layout SOURCES.md records for its repository in a temp git repository:
 * where SKILL.md is (with its name), where the eval file is, and each input
 * file `files` names that SOURCES.md says exists (placeholder bytes: only
 * their existence matters to the import). Then, for each example with input
 * files to copy, one of them is removed: the import must refuse the file,
 * naming that entry (a missing file is a load error naming it).
 *
 * Skipped with a printed reason when ../shared is absent (users' checkouts).
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type EvalImport, importEvals } from '../../harness/evals/import-evals.js';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

function findExamples(): string | undefined {
  for (let at = repoRoot; at !== path.dirname(at); at = path.dirname(at)) {
    const candidate = path.join(at, 'shared', 'skill-evals', 'examples');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
const examples = findExamples();
if (examples === undefined) {
  console.log(
    'skipping tests/evals/examples.test.ts: no shared/skill-evals/examples above the checkout (it holds the real eval files)',
  );
}

interface Layout {
  /** The skill folder, relative to the repository root ('' = the root). */
  readonly skill: string;
  /** The SKILL.md name (when it differs from the folder's). */
  readonly name?: string;
  /** Where the eval file sits. */
  readonly evals: string;
  /** Where an input entry exists, relative to the repository root (default: the skill folder + entry). */
  readonly inputAt?: (entry: string) => string;
  /** What the import gives: cases and expectations by how they are decided, or the refusal. */
  readonly expect:
    | {
        readonly cases: number;
        readonly check?: number;
        readonly transcript?: number;
        readonly judge?: number;
        readonly note?: RegExp;
      }
    | { readonly refused: RegExp };
  /** An input the import copies, to remove for the missing-file refusal. */
  readonly removable?: string;
}

const LAYOUTS: Readonly<Record<string, Layout>> = {
  '0065paula__skill-inspector__skill-inspector.json': {
    skill: '',
    evals: 'evals/evals.json',
    expect: { cases: 3, judge: 9 },
  },
  'AvdLee__Xcode-Disk-Cleanup-Agent-Skill__xcode-disk-cleanup.json': {
    skill: 'xcode-disk-cleanup',
    evals: 'evals/evals.json',
    expect: { cases: 4, judge: 16 },
  },
  '1273984347__agent-session-loop__agent-session-loop.json': {
    skill: '',
    evals: 'evals/evals.json',
    expect: { cases: 4, judge: 16 },
    removable: 'evals/fixtures/eval-2-memory-audit',
  },
  '88lin__diataxis-docs-skill__diataxis-docs.json': {
    skill: '',
    evals: 'evals/evals.json',
    expect: { cases: 32, judge: 32 },
    removable: 'references/template-map.md',
  },
  '127-c__vhdl-to-sv-skill__vhdl-to-sv.json': {
    skill: '',
    evals: 'evals/evals.json',
    expect: { cases: 11, check: 84 },
    removable: 'evals/cases/comb.vhd',
  },
  '951050634__pdf-trans2md-SKILL__pdf-trans2md.json': {
    skill: '',
    evals: 'evals/evals.json',
    expect: { cases: 8, check: 16 },
    removable: 'test-materials/double_column_journal_fixture.pdf',
  },
  '0x2kNJ__cpo__product-strategy.json': {
    skill: '',
    name: 'cpo',
    evals: 'evals/evals.json',
    expect: {
      cases: 3,
      judge: 27,
      note: /skill_name "product-strategy" differs from the SKILL\.md name "cpo"/,
    },
  },
  '16Miku__auto-remotion__auto-remotion.json': {
    skill: '',
    evals: 'evals/evals.json',
    expect: { cases: 3, judge: 11 },
  },
  'b-open-io__prompts__humanize.json': {
    skill: 'skills/humanize',
    evals: 'skills/humanize/evals/evals.json',
    expect: { cases: 4, judge: 17 },
  },
  'matt-riley__agent-skills__go-build-and-test.json': {
    skill: 'skills/go-build-and-test',
    evals: 'skills/go-build-and-test/evals/evals.json',
    expect: { cases: 3, judge: 8 },
  },
  'wyattowalsh__agents__ffmpeg.json': {
    skill: 'skills/ffmpeg',
    evals: 'skills/ffmpeg/evals/evals.json',
    // Repository-relative and skill-relative entries mixed in one file (SOURCES.md).
    inputAt: (entry) => (entry.startsWith('skills/') ? entry : `skills/ffmpeg/${entry}`),
    expect: { cases: 10, transcript: 1, judge: 36 },
    removable: 'skills/ffmpeg/references/safety.md',
  },
  'dzs28__tidy-files-skill__tidy-files.json': {
    skill: '',
    evals: 'evals/evals.json',
    expect: {
      refused: /evals\[0\]\.prompt: holds the placeholder <SANDBOX>, which a runner must fill/,
    },
  },
  'architawr__claude-code-bpmn-skill__bpmn.json': {
    skill: 'skills/bpmn',
    evals: 'evals/evals.json',
    // `files/return.bpmn` is relative to the evals/ folder, not the skill (SOURCES.md).
    inputAt: (entry) => `evals/${entry}`,
    expect: { cases: 16, judge: 78 },
    removable: 'files/order.bpmn',
  },
  'melanie531__sample-agent-skill-eval__skill-eval.json': {
    skill: '',
    evals: 'evals/evals.json',
    expect: { cases: 5, check: 16 },
  },
  'jovd83__diagram-generator__diagram-generator.json': {
    skill: '',
    evals: 'evals/evals.json',
    expect: { cases: 4, check: 26 },
    removable: 'evals/files/password-reset-flow.md',
  },
};

/** The `files` entries of an example, as paths (strings or {path}). */
function entriesOf(json: unknown): string[] {
  const list = Array.isArray(json) ? json : ((json as { evals?: unknown[] }).evals ?? []);
  return [
    ...new Set(
      list.flatMap((item) =>
        ((item as { files?: unknown[] }).files ?? []).map((entry) =>
          typeof entry === 'string' ? entry : String((entry as { path: string }).path),
        ),
      ),
    ),
  ];
}

/** Where an input entry sits in the recreated repository. */
function inputPath(root: string, layout: Layout, entry: string): string {
  return path.join(root, layout.inputAt?.(entry) ?? path.join(layout.skill, entry));
}

/** The example's repository as SOURCES.md records it; returns its root. */
function recreate(file: string, layout: Layout): string {
  const root = makeTempDir('redgreen-example-');
  const json: unknown = JSON.parse(readFileSync(path.join(examples as string, file), 'utf8'));
  const skillDir = path.join(root, layout.skill);
  mkdirSync(skillDir, { recursive: true });
  const named = (json as { skill_name?: string }).skill_name;
  const name = layout.name ?? named ?? path.basename(file, '.json').split('__')[2] ?? 'skill';
  writeFileSync(
    path.join(skillDir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: the skill of ${file}\n---\n\n# ${name}\n`,
  );
  mkdirSync(path.dirname(path.join(root, layout.evals)), { recursive: true });
  copyFileSync(path.join(examples as string, file), path.join(root, layout.evals));
  for (const entry of entriesOf(json)) {
    const at = inputPath(root, layout, entry);
    if (existsSync(at)) continue; // SKILL.md itself
    if (/\.[A-Za-z0-9]{1,8}$/.test(entry)) {
      mkdirSync(path.dirname(at), { recursive: true });
      writeFileSync(at, `input ${entry}\n`);
    } else {
      // A directory of fixtures: SOURCES.md says it exists; its content is the author's.
      mkdirSync(at, { recursive: true });
      writeFileSync(path.join(at, 'state.md'), `fixture ${entry}\n`);
    }
  }
  execFileSync('git', ['init', '-q', root], {
    env: { PATH: process.env.PATH ?? '', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });
  return root;
}

function counts(imported: EvalImport): Record<string, number> {
  const out: Record<string, number> = {};
  for (const plan of imported.cases.flatMap((item) => item.compiled))
    out[plan.decidedBy] = (out[plan.decidedBy] ?? 0) + 1;
  return out;
}

describe.skipIf(examples === undefined)(
  'the real eval files of ../shared/skill-evals/examples',
  () => {
    it('are fifteen, each with a layout here', () => {
      expect(readdirSync(examples as string).sort()).toEqual(Object.keys(LAYOUTS).sort());
    });

    for (const [file, layout] of Object.entries(LAYOUTS)) {
      it(`${file} ${'refused' in layout.expect ? 'is refused for the right reason' : 'imports whole'}`, async () => {
        const root = recreate(file, layout);
        const skillDir = path.join(root, layout.skill);
        const imported = await importEvals(skillDir);
        if ('refused' in layout.expect) {
          expect(imported.ok).toBe(false);
          if (imported.ok) return;
          expect(`${imported.error.input}: ${imported.error.problem}`).toMatch(
            layout.expect.refused,
          );
          expect(imported.error.input).toContain(layout.evals);
          return;
        }
        expect(
          imported.ok,
          imported.ok ? '' : `${imported.error.input}: ${imported.error.problem}`,
        ).toBe(true);
        if (!imported.ok || imported.value.kind !== 'evals') return;
        const expected = layout.expect;
        expect(imported.value.cases).toHaveLength(expected.cases);
        expect(counts(imported.value)).toEqual({
          ...(expected.check === undefined ? {} : { check: expected.check }),
          ...(expected.transcript === undefined ? {} : { transcript: expected.transcript }),
          ...(expected.judge === undefined ? {} : { judge: expected.judge }),
        });
        // The skill's own SKILL.md is never copied into a work tree.
        expect(
          imported.value.cases.flatMap((item) =>
            item.files.flatMap((entry) => entry.files.map((one) => one.workPath)),
          ),
        ).not.toContain('SKILL.md');
        if (expected.note !== undefined)
          expect(imported.value.notes.join('\n')).toMatch(expected.note);
        if (layout.removable !== undefined) {
          rmSync(inputPath(root, layout, layout.removable), { recursive: true, force: true });
          const refused = await importEvals(skillDir);
          expect(refused.ok).toBe(false);
          if (refused.ok) return;
          expect(refused.error.input).toMatch(/\.files\[\d+\]$/);
          expect(refused.error.problem).toContain(
            `"${layout.removable}" does not exist: looked in the skill directory`,
          );
        }
      });
    }
  },
);
