/**
 * Compile a scenario's report contract: each section's label pattern, and its
 * extractor spec validated (with sample facts for its placeholders) and kept
 * with its defaults filled in, in the order the sections must be read (a
 * section reading `after` another comes after it).
 */
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import type { CompileContext } from './check-schema.js';
import { extractorOf } from './extractor-table.js';
import { sampleFacts, substitute } from './placeholders.js';
import { compileSectionLabel, type SectionLabel } from './report-sections.js';
import { prefixIssues, scenarioFieldError } from './scenario-errors.js';
import type { ScenarioShell } from './scenario-schema.js';

export interface CompiledSection {
  readonly name: string;
  readonly label: SectionLabel;
  readonly required: boolean;
  readonly kind: string;
  /** The extractor params as written (defaults filled in, placeholders kept). */
  readonly spec: Readonly<Record<string, unknown>>;
}

/** Sections with their extractor specs validated, in reading order. */
export function compileSections(
  file: string,
  shell: ScenarioShell,
  context: CompileContext,
): Result<CompiledSection[], InputError> {
  const compiled = new Map<string, CompiledSection>();
  const dependsOn = new Map<string, readonly string[]>();
  for (const [name, section] of Object.entries(shell.report ?? {})) {
    const where = `report.${name}`;
    const raw = typeof section.extract === 'string' ? { kind: section.extract } : section.extract;
    const kind = raw.kind;
    const known = extractorOf(kind);
    if (known === undefined)
      throw new Error(`the section schema let the unknown extractor ${kind} through`);
    const packProblem = context.packProblem?.('extractor', kind, known.owner);
    if (packProblem !== undefined)
      return err(inputError(`${file}: ${where}.extract`, packProblem.problem, packProblem.fix));
    const extractor = known.entry;
    const template = extractor.params.safeParse(raw);
    if (!template.success)
      return err(
        scenarioFieldError(file, prefixIssues(template.error, [...where.split('.'), 'extract'])),
      );
    const sampled = substitute(template.data, sampleFacts(context.facts));
    if (!sampled.ok)
      return err(
        inputError(
          `${file}: ${where}.extract`,
          sampled.error,
          'put a list placeholder inside a list',
        ),
      );
    const checked = extractor.params.safeParse(sampled.value.value);
    if (!checked.success)
      return err(
        scenarioFieldError(file, prefixIssues(checked.error, [...where.split('.'), 'extract'])),
      );
    if (!section.required && extractor.empty === undefined) {
      return err(
        inputError(
          `${file}: ${where}.required`,
          `a ${kind} section cannot be optional: its absence has no value to read`,
          'remove "required": false',
        ),
      );
    }
    const labels = typeof section.label === 'string' ? [section.label] : (section.label ?? []);
    compiled.set(name, {
      name,
      label: compileSectionLabel(name, labels, section.labelPatterns ?? []),
      required: section.required,
      kind,
      spec: template.data as Record<string, unknown>,
    });
    dependsOn.set(name, (extractor.dependsOn as (p: unknown) => readonly string[])(template.data));
  }
  for (const [name, needs] of dependsOn) {
    for (const need of needs) {
      const target = compiled.get(need);
      const wanted = extractorOf(compiled.get(name)?.kind ?? '')?.entry.earlierKind;
      if (target === undefined || need === name || target.kind !== wanted) {
        return err(
          inputError(
            `${file}: report.${name}.extract.after`,
            `names "${need}", which is not another section extracting ${wanted}`,
            `name a section whose extract is "${wanted}"`,
          ),
        );
      }
    }
  }
  // Dependencies are one level deep (a section reading after the section it names), so this order suffices.
  const order = [...compiled.values()].sort(
    (a, b) => (dependsOn.get(a.name)?.length ?? 0) - (dependsOn.get(b.name)?.length ?? 0),
  );
  return ok(order);
}
