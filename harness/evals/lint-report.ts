/**
 * `redgreen evals lint <skill-dir> [--json]`: what each case and each
 * expectation of a skill's eval file became, and why, before any session is
 * spent: the scenario each case becomes, where each input file was found and
 * where it goes, each expectation's check (shown as a check, a transcript
 * check, or left to the judge) and the rubric item the judge sees; for a
 * trigger set, each query and its label. A refused file is one line naming
 * the file and the field (exit 2, stdout empty with --json).
 */
import { z } from 'zod';
import type { EvalImport, TriggerImport } from './import-evals.js';
import { splitQueries } from './trigger-split.js';

export const LINT_JSON_VERSION = 1;

export const evalsLintJsonSchema = z
  .object({
    schemaVersion: z.literal(LINT_JSON_VERSION),
    command: z.literal('evals lint'),
    file: z.string(),
    kind: z.enum(['evals', 'triggers']),
    shape: z.object({ container: z.string(), deviations: z.array(z.string()) }).strict(),
    skill: z
      .object({
        name: z.string(),
        dir: z.string(),
        description: z.string(),
        named: z.string().nullable(),
      })
      .strict(),
    evals: z.array(
      z
        .object({
          id: z.string(),
          scenario: z.string(),
          name: z.string().nullable(),
          field: z.string(),
          prompt: z.string(),
          files: z.array(
            z
              .object({
                entry: z.string(),
                from: z.string(),
                copied: z.array(z.string()),
                skipped: z.string().nullable(),
              })
              .strict(),
          ),
          checks: z.array(
            z
              .object({
                id: z.string(),
                expectation: z.string(),
                field: z.string(),
                shape: z.string(),
                decidedBy: z.enum(['check', 'transcript', 'judge']),
                check: z.record(z.string(), z.unknown()),
                why: z.string(),
              })
              .strict(),
          ),
          rubric: z.array(z.object({ id: z.string(), text: z.string() }).strict()),
        })
        .strict(),
    ),
    triggers: z.array(
      z
        .object({
          id: z.string(),
          scenario: z.string(),
          query: z.string(),
          shouldTrigger: z.boolean(),
          field: z.string(),
        })
        .strict(),
    ),
    notes: z.array(z.string()),
  })
  .strict();
export type EvalsLintJson = z.infer<typeof evalsLintJsonSchema>;

export function evalsLintJson(imported: EvalImport | TriggerImport): EvalsLintJson {
  const skill = {
    name: imported.skill.name,
    dir: imported.skill.dir,
    description: imported.skill.description,
  };
  if (imported.kind === 'triggers') {
    return evalsLintJsonSchema.parse({
      schemaVersion: LINT_JSON_VERSION,
      command: 'evals lint',
      file: imported.file,
      kind: 'triggers',
      shape: { container: imported.set.shape, deviations: [] },
      skill: { ...skill, named: imported.set.skillName ?? null },
      evals: [],
      triggers: splitQueries(imported.set.queries, 'q-', undefined, 0).map((assigned) => ({
        id: assigned.query.id,
        scenario: assigned.scenarioId,
        query: assigned.query.query,
        shouldTrigger: assigned.query.shouldTrigger,
        field: assigned.query.field,
      })),
      notes: imported.notes,
    });
  }
  return evalsLintJsonSchema.parse({
    schemaVersion: LINT_JSON_VERSION,
    command: 'evals lint',
    file: imported.file,
    kind: 'evals',
    shape: { container: imported.evals.container, deviations: imported.evals.deviations },
    skill: { ...skill, named: imported.evals.skillName ?? null },
    evals: imported.cases.map((item) => ({
      id: item.evalCase.id,
      scenario: item.scenarioId,
      name: item.evalCase.name ?? null,
      field: item.evalCase.field,
      prompt: item.evalCase.prompt,
      files: item.files.map((entry) => ({
        entry: entry.entry,
        from: entry.from,
        copied: entry.files.map((file) => file.workPath),
        skipped: entry.skipped ?? null,
      })),
      checks: item.compiled.map((compiled) => ({
        id: compiled.checkId,
        expectation: compiled.expectation.text,
        field: compiled.expectation.field,
        shape: compiled.expectation.shape,
        decidedBy: compiled.decidedBy,
        check: compiled.check,
        why: compiled.why,
      })),
      rubric: item.compiled.map((compiled) => ({ id: compiled.checkId, text: compiled.rubric })),
    })),
    triggers: [],
    notes: imported.notes,
  });
}

function shortCheck(check: Readonly<Record<string, unknown>>): string {
  const { id: _id, ...rest } = check;
  const text = JSON.stringify(rest);
  return text.length > 140 ? `${text.slice(0, 140)}…` : text;
}

const LABEL = { check: 'CHECK', transcript: 'TRANSCRIPT', judge: 'JUDGE' } as const;

/** The lint report as a reader wants it: one block per case, one line per expectation. */
export function formatEvalsLint(report: EvalsLintJson): string {
  const lines = [
    `${report.file}: ${report.kind === 'evals' ? `${report.evals.length} eval case(s)` : `a trigger set of ${report.triggers.length} queries`} for skill ${report.skill.name} (${report.skill.dir})`,
    `shape: ${report.shape.container}${report.shape.deviations.length === 0 ? " (skill-creator's documented shape)" : ''}`,
    ...report.shape.deviations.map((deviation) => `  - ${deviation}`),
    ...report.notes.map((note) => `note: ${note}`),
  ];
  for (const item of report.evals) {
    lines.push(
      '',
      `${item.field} id ${item.id}${item.name === null ? '' : ` (${item.name})`} -> scenario ${item.scenario}`,
    );
    lines.push(
      `  prompt: ${item.prompt.length > 100 ? `${item.prompt.slice(0, 100)}…` : item.prompt}`,
    );
    for (const file of item.files) {
      lines.push(
        `  file ${file.entry}: ${file.skipped ?? `found in the ${file.from}; copied to the work tree as ${file.copied.join(', ')}`}`,
      );
    }
    for (const check of item.checks) {
      lines.push(
        `  ${check.id} ${LABEL[check.decidedBy]}: ${check.expectation.length > 90 ? `${check.expectation.slice(0, 90)}…` : check.expectation}`,
      );
      lines.push(
        `      ${check.decidedBy === 'judge' ? 'judge item' : shortCheck(check.check)} (${check.why}; ${check.shape})`,
      );
    }
  }
  for (const query of report.triggers) {
    lines.push(
      `  ${query.scenario} ${query.shouldTrigger ? 'SHOULD TRIGGER    ' : 'SHOULD NOT TRIGGER'}: ${query.query}`,
    );
  }
  if (report.kind === 'evals') {
    const all = report.evals.flatMap((item) => item.checks);
    const count = (by: string) => all.filter((check) => check.decidedBy === by).length;
    lines.push(
      '',
      `imports whole: ${all.length} expectation(s): ${count('check')} with a check, ${count('transcript')} with a transcript check, ${count('judge')} left to the judge (every one is also a judge rubric item)`,
    );
  } else {
    lines.push(
      '',
      `imports whole: ${report.triggers.filter((query) => query.shouldTrigger).length} should trigger, ${report.triggers.filter((query) => !query.shouldTrigger).length} should not`,
    );
  }
  return `${lines.join('\n')}\n`;
}
