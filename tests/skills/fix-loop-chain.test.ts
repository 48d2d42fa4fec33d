/**
 * The fix-loop chain of reference texts: sdd-review-loop (RED of the
 * fix-loop-breaker change), sdd-fix-loop-breaker (its GREEN, and RED of the
 * rulings change), sdd-rulings (GREEN of rulings). Each adjacent pair differs
 * only where the mechanism its campaign measures lives; each text carries its
 * mechanism markers and the ledger line formats the fixtures and scenarios
 * rely on; the scripts are the plan-scoped skill's, byte for byte.
 */
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { findSuperpowersMirror } from '../helpers/superpowers-mirror.js';
import { skillsUnderTest } from './script-sandbox.js';
import {
  classifyMechanisms,
  differingBlocks,
  differingSections,
  loadMarkers,
  loadMarkersFile,
  markerProblems,
  parseSkillDocument,
  phraseProblems,
  readSkillText,
} from './skill-text-checks.js';

const chain = ['sdd-review-loop', 'sdd-fix-loop-breaker', 'sdd-rulings'] as const;
type ChainText = (typeof chain)[number];

const texts: Record<ChainText, string> = {
  'sdd-review-loop': readSkillText('sdd-review-loop'),
  'sdd-fix-loop-breaker': readSkillText('sdd-fix-loop-breaker'),
  'sdd-rulings': readSkillText('sdd-rulings'),
};
const markersFile = loadMarkersFile();
const { fixLoop, planConflicts } = markersFile.mechanisms;

function entry(dir: ChainText) {
  const found = loadMarkers().find((m) => m.dir === dir);
  if (found?.mechanisms === undefined) throw new Error(`markers.json has no mechanisms for ${dir}`);
  return { ...found, mechanisms: found.mechanisms };
}

describe('mechanism markers', () => {
  it.each(chain)('%s carries the markers of its own mechanism values', (dir) => {
    const { mechanisms, present, absent, behaviour } = entry(dir);
    expect(behaviour).toBe('structural');
    expect(markerProblems(texts[dir], { present, absent })).toEqual([]);
    expect(phraseProblems(texts[dir], fixLoop.values[mechanisms.fixLoop])).toEqual([]);
    expect(phraseProblems(texts[dir], planConflicts.values[mechanisms.planConflicts])).toEqual([]);
    expect(classifyMechanisms(texts[dir])).toEqual(mechanisms);
  });

  it('the chain moves one mechanism per step', () => {
    expect(chain.map((dir) => entry(dir).mechanisms)).toEqual([
      { fixLoop: 'unbounded', planConflicts: 'ask' },
      { fixLoop: 'breaker', planConflicts: 'ask' },
      { fixLoop: 'breaker', planConflicts: 'rule' },
    ]);
  });

  it("each text fails the other mechanism value's markers (planted negative)", () => {
    expect(phraseProblems(texts['sdd-review-loop'], fixLoop.values.breaker)).not.toEqual([]);
    expect(phraseProblems(texts['sdd-fix-loop-breaker'], fixLoop.values.unbounded)).not.toEqual([]);
    expect(phraseProblems(texts['sdd-fix-loop-breaker'], planConflicts.values.rule)).not.toEqual(
      [],
    );
    expect(phraseProblems(texts['sdd-rulings'], planConflicts.values.ask)).not.toEqual([]);
  });

  it('a breaker text that still asks, or a ruling text that lost its format, is caught (planted negative)', () => {
    const asking = `${texts['sdd-rulings']}\nPut it to the user and ask which governs.\n`;
    expect(phraseProblems(asking, planConflicts.values.rule)).toEqual([
      'must not contain: ask which governs',
    ]);
    const unformatted = texts['sdd-rulings'].replaceAll(
      'Ruling: <what you decided> — <why> — <what it costs if wrong>',
      'a ruling',
    );
    expect(classifyMechanisms(unformatted).planConflicts).toBe('unknown');
  });

  it('the older texts classify as unbounded/ask, as the real texts before #1998 do', () => {
    for (const dir of ['sdd-released', 'sdd-plan-scoped']) {
      expect(classifyMechanisms(readSkillText(dir)).fixLoop).toBe('unbounded');
    }
  });

  it('the README states every mechanism marker verbatim', () => {
    const readme = readFileSync(path.join(skillsUnderTest, 'README.md'), 'utf8');
    const phrases = [fixLoop, planConflicts].flatMap((mechanism) =>
      Object.values(mechanism.values).flatMap((value) => [...value.present, ...value.absent]),
    );
    for (const phrase of phrases) expect(readme).toContain(phrase);
  });
});

describe('structure of the chain', () => {
  const docs = Object.fromEntries(
    chain.map((dir) => [dir, parseSkillDocument(texts[dir])]),
  ) as Record<ChainText, ReturnType<typeof parseSkillDocument>>;

  it('all three share frontmatter and the same sections in the same order', () => {
    const headings = docs['sdd-review-loop'].sections.map((s) => s.heading);
    expect(headings).toEqual([
      'Overview',
      'When to Use',
      'The Process',
      'Conflicts and Stops',
      'Dispatching the Implementer',
      'Implementer Statuses',
      'Reviews',
      'Fixing Findings',
      'Durable Progress',
      'Final Review',
      'Scripts and File Handoffs',
      'Red Flags',
      'Example Workflow',
    ]);
    for (const dir of chain) {
      expect(docs[dir].frontmatter).toEqual(docs['sdd-review-loop'].frontmatter);
      expect(docs[dir].sections.map((s) => s.heading)).toEqual(headings);
    }
  });

  const pairs = [
    {
      from: 'sdd-review-loop',
      to: 'sdd-fix-loop-breaker',
      sections: [
        'The Process',
        'Dispatching the Implementer',
        'Fixing Findings',
        'Durable Progress',
        'Final Review',
        'Scripts and File Handoffs',
        'Red Flags',
        'Example Workflow',
      ],
      vocabulary: /fix|round|breaker|park|resume|tier|re-review|agent|settled|\bcap\b|finding/i,
    },
    {
      from: 'sdd-fix-loop-breaker',
      to: 'sdd-rulings',
      sections: [
        'Conflicts and Stops',
        'Fixing Findings',
        'Durable Progress',
        'Final Review',
        'Red Flags',
      ],
      vocabulary: /\brul(?:e|es|ed|ing|ings)\b|\bask\b|\bstop\b|\buser\b/i,
    },
  ] as const;

  it.each(pairs)('$from -> $to differs only in the sections its mechanism lives in', (pair) => {
    const differing = differingSections(docs[pair.from], docs[pair.to]);
    expect(differing).toEqual([...pair.sections]);
  });

  it.each(pairs)('every paragraph $to adds or rewrites speaks of its mechanism', (pair) => {
    const { added } = differingBlocks(docs[pair.from], docs[pair.to]);
    expect(added.length).toBeGreaterThan(0);
    for (const block of added) expect(block).toMatch(pair.vocabulary);
  });

  it('a change to a shared section, or an off-topic paragraph, is caught (planted negative)', () => {
    const edited = parseSkillDocument(
      texts['sdd-rulings'].replace('**Core rule:**', '**Core rule, mostly:**'),
    );
    expect(differingSections(docs['sdd-fix-loop-breaker'], edited)).toContain('Overview');
    const offTopic = parseSkillDocument(
      texts['sdd-rulings'].replace(
        '## Final Review\n',
        '## Final Review\n\nPrefer tabs to spaces in every file you touch.\n',
      ),
    );
    const { added } = differingBlocks(docs['sdd-fix-loop-breaker'], offTopic);
    const vocabulary = pairs[1].vocabulary;
    expect(added.filter((block) => !vocabulary.test(block))).toEqual([
      'Prefer tabs to spaces in every file you touch.',
    ]);
  });

  it('each text stays under 340 lines', () => {
    for (const dir of chain) expect(texts[dir].split('\n').length).toBeLessThanOrEqual(340);
  });
});

describe('ledger line formats the fixtures and scenarios rely on', () => {
  const flowed = (dir: ChainText): string => texts[dir].replace(/\s+/g, ' ');

  it.each(chain)('%s keeps the shared ledger contract', (dir) => {
    for (const phrase of [
      '# SDD ledger — plan: <plan file path>',
      'Task N: complete (commits <base7>..<head7>, review clean)',
      'Task <N>: minor (deferred): <one line>',
      'never dispatch it again; pick up at the first task',
      '`git clean -fdx`',
      'rm -rf <workspace>',
    ]) {
      expect(flowed(dir)).toContain(phrase);
    }
  });

  it.each(['sdd-fix-loop-breaker', 'sdd-rulings'] as const)(
    '%s prescribes the fix-loop lines exactly',
    (dir) => {
      for (const phrase of [
        'Task <N>: implementer <agent-id> on <model>',
        'Task <N>: fix round <R>/5 (<X> addressed, <Y> open — <finding one-liners>; commits <a7>..<b7>)',
        'Task <N>: complete (commits <base7>..<head7>, <K> parked)',
        'haiku, sonnet, opus',
        'at least one tier above',
        'SendMessage',
        './re-review-prompt.md',
      ]) {
        expect(flowed(dir)).toContain(phrase);
      }
    },
  );

  it('the parked line says ruling: before rulings and Ruling: after, as the real texts do', () => {
    expect(texts['sdd-fix-loop-breaker']).toContain(
      'Task <N>: parked — <finding> — ruling: <why the code stands>',
    );
    expect(texts['sdd-rulings']).toContain(
      'Task <N>: parked — <finding> — Ruling: <why the code stands>',
    );
  });

  it('only the breaker text stops on a load-bearing finding; only the rulings text rules on it', () => {
    expect(texts['sdd-fix-loop-breaker']).toContain('Task <N>: BLOCKED — <reason>');
    expect(texts['sdd-rulings']).not.toContain('Task <N>: BLOCKED — <reason>');
    expect(texts['sdd-rulings']).toContain(
      'Task <N>: Ruling: <what you decided> — <why> — <what it costs if wrong>',
    );
    expect(texts['sdd-review-loop']).not.toMatch(/fix round|parked|breaker/i);
  });

  it('the rulings text names exactly four things that still stop it', () => {
    const conflicts = parseSkillDocument(texts['sdd-rulings']).sections.find(
      (s) => s.heading === 'Conflicts and Stops',
    );
    const stops = /Only four things stop you[^:]*:([^.]*)\./.exec(
      conflicts?.body.replace(/\s+/g, ' ') ?? '',
    )?.[1];
    expect(stops?.split(';').map((item) => item.trim())).toHaveLength(4);
  });

  it('the review-loop text contradicts itself on who fixes, as the released text did', () => {
    const text = flowed('sdd-review-loop');
    expect(text).toContain('Dispatch a fix subagent with the open findings');
    expect(text).toContain('the implementer (the same subagent that wrote the task) fixes them');
  });
});

describe('templates and scripts', () => {
  const templatesOf = (dir: ChainText): Set<string> =>
    new Set([...texts[dir].matchAll(/`\.\/([a-z-]+\.md)`/g)].map((m) => m[1] ?? ''));

  it('each text references only templates that exist', () => {
    expect(templatesOf('sdd-review-loop')).toEqual(
      new Set(['implementer-prompt.md', 'task-reviewer-prompt.md']),
    );
    for (const dir of ['sdd-fix-loop-breaker', 'sdd-rulings'] as const) {
      expect(templatesOf(dir)).toEqual(
        new Set(['implementer-prompt.md', 'task-reviewer-prompt.md', 're-review-prompt.md']),
      );
    }
    for (const dir of chain) {
      for (const file of templatesOf(dir)) {
        expect(existsSync(path.join(skillsUnderTest, dir, file))).toBe(true);
      }
    }
  });

  const read = (dir: string, file: string): string =>
    readFileSync(path.join(skillsUnderTest, dir, file), 'utf8');

  it('the review-loop templates are the plan-scoped ones; the breaker and rulings share theirs', () => {
    for (const file of ['implementer-prompt.md', 'task-reviewer-prompt.md']) {
      expect(read('sdd-review-loop', file)).toBe(read('sdd-plan-scoped', file));
    }
    for (const file of [
      'implementer-prompt.md',
      'task-reviewer-prompt.md',
      're-review-prompt.md',
    ]) {
      expect(read('sdd-rulings', file)).toBe(read('sdd-fix-loop-breaker', file));
    }
    expect(read('sdd-fix-loop-breaker', 'task-reviewer-prompt.md')).toBe(
      read('sdd-review-loop', 'task-reviewer-prompt.md'),
    );
  });

  it('the breaker implementer template only adds the resumed-with-findings paragraph', () => {
    const before = read('sdd-review-loop', 'implementer-prompt.md');
    const after = read('sdd-fix-loop-breaker', 'implementer-prompt.md');
    const added = after.split('\n').filter((line) => !before.split('\n').includes(line));
    expect(added.join(' ')).toMatch(/sent the findings in a later message/);
    expect(added.join(' ')).toMatch(/fix report/);
    expect(added.length).toBeLessThanOrEqual(6);
  });

  it('the re-review template verdicts each finding and stays inside the fix diff', () => {
    const template = read('sdd-fix-loop-breaker', 're-review-prompt.md');
    for (const phrase of ['ADDRESSED or NOT ADDRESSED', '[FIX_BASE_SHA]', '[DIFF_FILE]']) {
      expect(template).toContain(phrase);
    }
    expect(template).not.toContain('PLAN_FILE BASE HEAD');
  });

  it.each(
    chain.flatMap((dir) =>
      ['sdd-workspace', 'task-brief', 'review-package'].map((script) => [dir, script] as const),
    ),
  )('%s/scripts/%s is the plan-scoped script, byte for byte and executable', (dir, script) => {
    const file = path.join(skillsUnderTest, dir, 'scripts', script);
    accessSync(file, constants.X_OK);
    expect(readFileSync(file)).toEqual(
      readFileSync(path.join(skillsUnderTest, 'sdd-plan-scoped', 'scripts', script)),
    );
  });

  it.each(chain)('%s names every script with the signature it prints', async (dir) => {
    for (const script of ['sdd-workspace', 'task-brief', 'review-package']) {
      const result = await execa(
        path.join(skillsUnderTest, dir, 'scripts', script),
        ['a', 'b', 'c', 'd', 'e'],
        { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, reject: false },
      );
      const usage = /^usage: (.+)$/m.exec(result.stderr)?.[1];
      expect(usage).toBeDefined();
      expect(texts[dir]).toContain(`scripts/${usage}`);
    }
  });
});

describe('markers against the real superpowers texts (from a local mirror)', () => {
  const mirror = findSuperpowersMirror();
  if (mirror === undefined) {
    console.log(
      'skipping real-text marker checks: no obra/superpowers mirror (set SUPERPOWERS_REPO to a clone)',
    );
  }

  async function realText(ref: string): Promise<string | undefined> {
    const result = await execa(
      'git',
      ['--git-dir', mirror ?? '', 'show', `${ref}:skills/subagent-driven-development/SKILL.md`],
      {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1' },
        extendEnv: false,
        reject: false,
      },
    );
    return result.exitCode === 0 ? result.stdout : undefined;
  }

  it.skipIf(mirror === undefined).each([
    ['4118245', 'unbounded', 'ask'],
    ['e90e40fb', 'unbounded', 'ask'],
    ['0aff9eb8', 'unbounded', 'ask'],
    ['78bbfdae', 'breaker', 'ask'],
    ['8acf8e5f', 'breaker', 'ask'],
    ['2b195749', 'breaker', 'rule'],
  ])('%s reads as %s / %s', async (ref, fix, conflicts) => {
    const text = await realText(ref);
    if (text === undefined) {
      console.log(`skipping ${ref}: the mirror does not hold it`);
      return;
    }
    expect(classifyMechanisms(text)).toEqual({ fixLoop: fix, planConflicts: conflicts });
    const values = fix === 'breaker' ? fixLoop.values.breaker : fixLoop.values.unbounded;
    expect(phraseProblems(text, values)).toEqual([]);
  });
});
