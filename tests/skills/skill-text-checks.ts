/**
 * Checks on the reference SKILL.md texts as text: which behaviour their
 * markers select (the ledger mechanism, and for the fix-loop chain the fix
 * loop and plan-conflict mechanisms), their frontmatter, and which sections
 * and paragraphs differ between them. Pure functions, so each check can be
 * shown to fail on a planted bad text.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { skillsUnderTest } from './script-sandbox.js';

const mechanismValuesSchema = z
  .object({
    fixLoop: z.enum(['unbounded', 'breaker']),
    planConflicts: z.enum(['ask', 'rule']),
  })
  .strict();

const textMarkersSchema = z
  .object({
    dir: z.enum([
      'sdd-released',
      'sdd-plan-scoped',
      'sdd-review-loop',
      'sdd-fix-loop-breaker',
      'sdd-rulings',
    ]),
    behaviour: z.enum(['literal', 'structural']),
    present: z.array(z.string().min(1)).min(1),
    absent: z.array(z.string().min(1)).min(1),
    mechanisms: mechanismValuesSchema.optional(),
  })
  .strict();

const phrasesSchema = z
  .object({ present: z.array(z.string().min(1)).min(1), absent: z.array(z.string().min(1)) })
  .strict();

const markersFileSchema = z
  .object({
    description: z.string().min(1),
    texts: z.array(textMarkersSchema).min(2),
    mechanisms: z
      .object({
        fixLoop: z
          .object({
            description: z.string().min(1),
            values: z.object({ unbounded: phrasesSchema, breaker: phrasesSchema }).strict(),
          })
          .strict(),
        planConflicts: z
          .object({
            description: z.string().min(1),
            values: z.object({ ask: phrasesSchema, rule: phrasesSchema }).strict(),
          })
          .strict(),
      })
      .strict(),
  })
  .strict();

export type TextMarkers = z.infer<typeof textMarkersSchema>;
export type MechanismValues = z.infer<typeof mechanismValuesSchema>;
export type MarkersFile = z.infer<typeof markersFileSchema>;
export type Phrases = z.infer<typeof phrasesSchema>;

/** skills-under-test/markers.json, validated. Throws on a malformed file: that is a bug here. */
export function loadMarkersFile(): MarkersFile {
  const raw: unknown = JSON.parse(readFileSync(path.join(skillsUnderTest, 'markers.json'), 'utf8'));
  return markersFileSchema.parse(raw);
}

/** The per-text entries of markers.json. */
export function loadMarkers(): readonly TextMarkers[] {
  return loadMarkersFile().texts;
}

/** Every way `text` breaks a phrase list: a missing present-phrase or a forbidden one. */
export function phraseProblems(text: string, phrases: Phrases): string[] {
  return markerProblems(text, { present: phrases.present, absent: phrases.absent });
}

/**
 * The decision rules the README states for the two later mechanisms: the
 * breaker's fix-round line format means a capped fix loop; the ruling line
 * format means conflicts are ruled on; "ask which governs" without it means
 * they are asked.
 */
export function classifyMechanisms(text: string): {
  fixLoop: 'breaker' | 'unbounded';
  planConflicts: 'rule' | 'ask' | 'unknown';
} {
  return {
    fixLoop: text.includes('fix round <R>/5') ? 'breaker' : 'unbounded',
    planConflicts: text.includes('Ruling: <what you decided> — <why> — <what it costs if wrong>')
      ? 'rule'
      : text.includes('ask which governs')
        ? 'ask'
        : 'unknown',
  };
}

export function readSkillText(dir: string): string {
  return readFileSync(path.join(skillsUnderTest, dir, 'SKILL.md'), 'utf8');
}

/** Every way `text` breaks `markers`: a missing present-phrase or a forbidden one. Empty = ok. */
export function markerProblems(
  text: string,
  markers: { readonly present: readonly string[]; readonly absent: readonly string[] },
): string[] {
  const missing = markers.present
    .filter((phrase) => !text.includes(phrase))
    .map((phrase) => `missing: ${phrase}`);
  const forbidden = markers.absent
    .filter((phrase) => text.includes(phrase))
    .map((phrase) => `must not contain: ${phrase}`);
  return [...missing, ...forbidden];
}

/**
 * The decision rule the README states for a reader of SKILL.md: the
 * plan-scoped signature wins; otherwise the flat ledger path means literal.
 */
export function classifySkillText(text: string): 'structural' | 'literal' | 'unknown' {
  if (text.includes('sdd-workspace PLAN_FILE')) return 'structural';
  if (text.includes('.superpowers/sdd/progress.md')) return 'literal';
  return 'unknown';
}

const frontmatterSchema = z.object({
  name: z.string().regex(/^[a-z0-9-]+$/),
  description: z.string().min(40),
});

export type Frontmatter = z.infer<typeof frontmatterSchema>;

export interface SkillDocument {
  readonly frontmatter: Frontmatter;
  /** `## ` sections in order: heading text and body (up to the next `## ` heading). */
  readonly sections: readonly { readonly heading: string; readonly body: string }[];
}

/** Split a SKILL.md into validated frontmatter and its level-2 sections. Throws if malformed. */
export function parseSkillDocument(text: string): SkillDocument {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (match?.[1] === undefined) throw new Error('SKILL.md has no --- frontmatter block');
  const frontmatter = frontmatterSchema.parse(parseYaml(match[1]));
  const sections: { heading: string; body: string }[] = [];
  let inFence = false;
  for (const line of text.slice(match[0].length).split('\n')) {
    if (/^(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? undefined : /^## (.+)$/.exec(line)?.[1];
    const current = sections.at(-1);
    if (heading !== undefined) sections.push({ heading, body: '' });
    else if (current !== undefined) current.body += `${line}\n`;
  }
  return { frontmatter, sections };
}

/**
 * Rewrite the plan-scoped script signatures to the released ones and collapse
 * whitespace, so two texts that differ only in signatures and line wrapping
 * compare equal.
 */
export function normaliseSignatures(text: string): string {
  return text
    .replaceAll('sdd-workspace PLAN_FILE', 'sdd-workspace')
    .replaceAll('review-package PLAN_FILE ', 'review-package ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Headings of the sections whose normalised bodies differ (a heading missing on one side counts). */
export function differingSections(a: SkillDocument, b: SkillDocument): string[] {
  const bodies = (doc: SkillDocument): Map<string, string> =>
    new Map(doc.sections.map((s) => [s.heading, normaliseSignatures(s.body)]));
  const left = bodies(a);
  const right = bodies(b);
  const headings = new Set([...left.keys(), ...right.keys()]);
  return [...headings].filter((heading) => left.get(heading) !== right.get(heading));
}

/**
 * The paragraphs and list items (blank-line or bullet separated blocks, with
 * whitespace collapsed) of one section body: the unit in which two texts of
 * the chain are compared below the section level.
 */
export function sectionBlocks(body: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  const flush = (): void => {
    const block = current.join(' ').replace(/\s+/g, ' ').trim();
    if (block !== '') blocks.push(block);
    current = [];
  };
  let inFence = false;
  for (const line of body.split('\n')) {
    if (/^(```|~~~)/.test(line)) inFence = !inFence;
    if (!inFence && (line.trim() === '' || /^\s*(?:[-*]|\d+\.)\s/.test(line))) flush();
    if (line.trim() !== '') current.push(line);
  }
  flush();
  return blocks;
}

/** Section by section: the blocks `b` adds (that `a` lacks) and the blocks it removes. */
export function differingBlocks(
  a: SkillDocument,
  b: SkillDocument,
): { readonly added: string[]; readonly removed: string[] } {
  const blocksOf = (doc: SkillDocument): Map<string, string[]> =>
    new Map(doc.sections.map((s) => [s.heading, sectionBlocks(s.body)]));
  const left = blocksOf(a);
  const right = blocksOf(b);
  const added: string[] = [];
  const removed: string[] = [];
  for (const heading of new Set([...left.keys(), ...right.keys()])) {
    const l = left.get(heading) ?? [];
    const r = right.get(heading) ?? [];
    added.push(...r.filter((block) => !l.includes(block)));
    removed.push(...l.filter((block) => !r.includes(block)));
  }
  return { added, removed };
}
