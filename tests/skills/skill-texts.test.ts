/**
 * The two reference SKILL.md texts as text: each carries its own markers and
 * not the other's, they differ only where the ledger mechanism lives, they
 * name the scripts with the signatures the scripts really have, and they share
 * their prompt templates byte for byte.
 */
import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { seedsDir } from '../../harness/fixture/seed-generator.js';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { type SkillName, skillsUnderTest } from './script-sandbox.js';
import {
  classifySkillText,
  differingSections,
  loadMarkers,
  markerProblems,
  parseSkillDocument,
  readSkillText,
  type TextMarkers,
} from './skill-text-checks.js';

const skills: readonly SkillName[] = ['sdd-released', 'sdd-plan-scoped'];
const released = readSkillText('sdd-released');
const planScoped = readSkillText('sdd-plan-scoped');
const markers = loadMarkers();

function markersFor(dir: SkillName): TextMarkers {
  const found = markers.find((m) => m.dir === dir);
  if (found === undefined) throw new Error(`markers.json has no entry for ${dir}`);
  return found;
}

describe('markers', () => {
  it('markers.json names both texts, one literal and one structural', () => {
    expect(markersFor('sdd-released').behaviour).toBe('literal');
    expect(markersFor('sdd-plan-scoped').behaviour).toBe('structural');
  });

  it('each text carries its own markers', () => {
    expect(markerProblems(released, markersFor('sdd-released'))).toEqual([]);
    expect(markerProblems(planScoped, markersFor('sdd-plan-scoped'))).toEqual([]);
  });

  it("each text fails the other's markers (planted negative)", () => {
    expect(markerProblems(planScoped, markersFor('sdd-released'))).not.toEqual([]);
    expect(markerProblems(released, markersFor('sdd-plan-scoped'))).not.toEqual([]);
  });

  it('a text stripped of one marker, or given a forbidden one, fails (planted negative)', () => {
    const withoutIdentity = planScoped.replaceAll('# SDD ledger — plan:', '# SDD ledger:');
    expect(markerProblems(withoutIdentity, markersFor('sdd-plan-scoped'))).toEqual([
      'missing: # SDD ledger — plan:',
    ]);
    const withSignature = `${released}\nRun scripts/sdd-workspace PLAN_FILE first.\n`;
    expect(markerProblems(withSignature, markersFor('sdd-released'))).toEqual([
      'must not contain: sdd-workspace PLAN_FILE',
    ]);
  });

  it("puts the released flat path in the start-of-skill instruction, under 'At skill start'", () => {
    const durable = parseSkillDocument(released).sections.find(
      (s) => s.heading === 'Durable Progress',
    );
    const start = durable?.body.split('\n- ').find((item) => item.includes('At skill start'));
    expect(start).toContain('.superpowers/sdd/progress.md');
    expect(start).not.toContain('sdd-workspace');
  });

  it('the README states every marker verbatim', () => {
    const readme = readFileSync(path.join(skillsUnderTest, 'README.md'), 'utf8');
    for (const phrase of markers.flatMap((m) => [...m.present, ...m.absent])) {
      expect(readme).toContain(phrase);
    }
  });

  it('the stated decision rule reads released as literal and plan-scoped as structural', () => {
    expect(classifySkillText(released)).toBe('literal');
    expect(classifySkillText(planScoped)).toBe('structural');
    expect(classifySkillText('# A skill with no ledger at all\n')).toBe('unknown');
  });
});

describe('markers against the real superpowers texts (from the seed diff)', () => {
  const seedDir = seedsDir(repoRoot);
  const seedFile = existsSync(seedDir)
    ? readdirSync(seedDir).find((name) => name.startsWith('000_'))
    : undefined;
  if (seedFile === undefined) {
    console.log(
      `skipping seed marker checks: no seed 000 under ${seedDir} (users' checkouts lack it)`,
    );
  }

  /** Old and new side of the seed diff's SKILL.md hunk that holds the start-of-skill ledger check. */
  function durableProgressHunk(): { before: string; after: string } {
    const seed = readFileSync(path.join(seedDir, seedFile ?? ''), 'utf8').split('\n');
    const fileAt = seed.indexOf('skills/subagent-driven-development/SKILL.md');
    expect(fileAt).toBeGreaterThan(-1);
    const hunks: string[][] = [];
    for (const line of seed.slice(fileAt + 1)) {
      if (line.startsWith('@@')) hunks.push([]);
      else if (/^[ +-]/.test(line)) hunks.at(-1)?.push(line);
      else if (hunks.length > 0 && line !== '') break; // the next file's name: SKILL.md is over
    }
    const body = hunks.find((hunk) => hunk.some((line) => line.includes('At skill start')));
    if (body === undefined) throw new Error('seed 000 has no SKILL.md hunk with "At skill start"');
    const side = (keep: string): string =>
      body
        .filter((l) => l.startsWith(' ') || l.startsWith(keep))
        .map((l) => l.slice(1))
        .join('\n');
    return { before: side('-'), after: side('+') };
  }

  it.skipIf(seedFile === undefined)(
    'released 4118245 reads as literal and the e90e40fb branch as structural',
    () => {
      const { before, after } = durableProgressHunk();
      expect(before).toContain('At skill start, check for a ledger');
      expect(classifySkillText(before)).toBe('literal');
      expect(before).toContain(markersFor('sdd-released').present[1]);
      expect(classifySkillText(after)).toBe('structural');
      expect(markerProblems(after, markersFor('sdd-plan-scoped'))).toEqual([]);
    },
  );
});

describe('structure', () => {
  const releasedDoc = parseSkillDocument(released);
  const scopedDoc = parseSkillDocument(planScoped);
  const mayDiffer = [
    'The Process',
    'Durable Progress',
    'Scripts and File Handoffs',
    'Red Flags',
    'Example Workflow',
  ];

  it('both texts share frontmatter and the same sections in the same order', () => {
    expect(releasedDoc.frontmatter).toEqual(scopedDoc.frontmatter);
    expect(releasedDoc.frontmatter.name).toBe('subagent-driven-development');
    expect(releasedDoc.sections.map((s) => s.heading)).toEqual([
      'Overview',
      'When to Use',
      'The Process',
      'Dispatching the Implementer',
      'Implementer Statuses',
      'Reviews',
      'Durable Progress',
      'Scripts and File Handoffs',
      'Red Flags',
      'Example Workflow',
    ]);
    expect(scopedDoc.sections.map((s) => s.heading)).toEqual(
      releasedDoc.sections.map((s) => s.heading),
    );
  });

  it('they differ only where the ledger mechanism lives, once signatures are normalised', () => {
    const differing = differingSections(releasedDoc, scopedDoc);
    expect(differing).toContain('Durable Progress');
    expect(differing.filter((heading) => !mayDiffer.includes(heading))).toEqual([]);
  });

  it('a change to a shared section is caught (planted negative)', () => {
    const edited = parseSkillDocument(
      planScoped.replace('**Core rule:**', '**Core rule, mostly:**'),
    );
    expect(differingSections(releasedDoc, edited)).toContain('Overview');
  });

  it('each text stays under 220 lines and within 15% of the other', () => {
    const lines = (text: string): number => text.split('\n').length;
    expect(lines(released)).toBeLessThanOrEqual(220);
    expect(lines(planScoped)).toBeLessThanOrEqual(220);
    expect(Math.abs(lines(released) - lines(planScoped)) / lines(released)).toBeLessThan(0.15);
  });

  it.each([
    ['sdd-released', released],
    ['sdd-plan-scoped', planScoped],
  ])('%s keeps the ledger contract both texts share', (_dir, text) => {
    const flowed = text.replace(/\s+/g, ' ');
    for (const phrase of [
      'Task N: complete (commits <base7>..<head7>, review clean)',
      'never dispatch it again; pick up at the first task',
      'trust the ledger and `git log` over your own recollection',
      '`git clean -fdx`',
      'DONE_WITH_CONCERNS',
      'NEEDS_CONTEXT',
      'BLOCKED',
    ]) {
      expect(flowed).toContain(phrase);
    }
  });

  it('only the plan-scoped text deletes its workspace, and never its siblings', () => {
    expect(planScoped).toContain('rm -rf <workspace>');
    expect(planScoped).toContain('siblings under `.superpowers/sdd/` belong to other plans');
    expect(released).not.toContain('rm -rf');
  });
});

describe('prompt templates', () => {
  it.each(skills)('%s references only templates that exist', (dir) => {
    const text = readSkillText(dir);
    const referenced = [...text.matchAll(/`\.\/([a-z-]+\.md)`/g)].map((m) => m[1] ?? '');
    expect(new Set(referenced)).toEqual(
      new Set(['implementer-prompt.md', 'task-reviewer-prompt.md']),
    );
    for (const file of referenced)
      expect(existsSync(path.join(skillsUnderTest, dir, file))).toBe(true);
  });

  it.each(['implementer-prompt.md', 'task-reviewer-prompt.md'])(
    '%s is identical in both',
    (file) => {
      const a = readFileSync(path.join(skillsUnderTest, 'sdd-released', file), 'utf8');
      const b = readFileSync(path.join(skillsUnderTest, 'sdd-plan-scoped', file), 'utf8');
      expect(a).toBe(b);
      expect(a).not.toContain('PLAN_FILE');
    },
  );
});

describe('scripts as files', () => {
  const scripts = ['sdd-workspace', 'task-brief', 'review-package'] as const;

  /** The `usage:` line a script prints when given too many arguments. */
  async function usageOf(dir: SkillName, script: string): Promise<string> {
    const result = await execa(
      path.join(skillsUnderTest, dir, 'scripts', script),
      ['a', 'b', 'c', 'd', 'e'],
      { cwd: makeTempDir(), env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, reject: false },
    );
    expect(result.exitCode).toBe(2);
    const usage = /^usage: (.+)$/m.exec(result.stderr)?.[1];
    if (usage === undefined) throw new Error(`${dir}/${script} printed no usage line`);
    return usage;
  }

  it.each(skills.flatMap((dir) => scripts.map((script) => [dir, script] as const)))(
    '%s/scripts/%s is executable, strict bash and parses',
    async (dir, script) => {
      const file = path.join(skillsUnderTest, dir, 'scripts', script);
      accessSync(file, constants.X_OK);
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith('#!/usr/bin/env bash\n')).toBe(true);
      expect(text).toContain('\nset -euo pipefail\n');
      const syntax = await execa('bash', ['-n', file], { reject: false });
      expect(syntax.stderr).toBe('');
      expect(syntax.exitCode).toBe(0);
    },
  );

  it.each(skills.flatMap((dir) => scripts.map((script) => [dir, script] as const)))(
    "%s's SKILL.md names %s with the signature the script prints",
    async (dir, script) => {
      const usage = await usageOf(dir, script);
      expect(readSkillText(dir)).toContain(`scripts/${usage}`);
    },
  );

  it("a text does not carry the other skill's review-package signature (planted negative)", async () => {
    const releasedUsage = await usageOf('sdd-released', 'review-package');
    const scopedUsage = await usageOf('sdd-plan-scoped', 'review-package');
    expect(planScoped).not.toContain(`scripts/${releasedUsage}`);
    expect(released).not.toContain(`scripts/${scopedUsage}`);
  });
});
