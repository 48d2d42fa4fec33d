/**
 * Read a reply against a scenario's report contract: split it into the
 * contract's sections by their labels, then run each section's extractor
 * (with the rep's facts in its params), in the order the contract needs. A
 * section the reply lacks reads as missing (undecided), or as its
 * extractor's empty value when the contract marks it optional.
 */
import type { ExtractedValue, Reading, ReplyEvidence } from './evidence.js';
import { extractorOf } from './extractor-table.js';
import type { ExtractContext } from './extractors/extractor.js';
import type { CompiledSection } from './load-scenario.js';
import { type Facts, substitute } from './placeholders.js';
import { splitReplySections } from './report-sections.js';

/**
 * The reply with every run of spaces and tabs as one space and every line
 * break as `\n`: nothing a reader looks for depends on how much white space
 * there is, and some readers would rescan a long run of it per character.
 */
function withPlainWhiteSpace(reply: string): string {
  return reply.replace(/\r\n?/g, '\n').replace(/[^\S\n]+/g, ' ');
}

function readSection(
  section: CompiledSection,
  text: string,
  facts: Facts,
  context: ExtractContext,
): Reading<ExtractedValue> {
  const extractor = extractorOf(section.kind)?.entry;
  if (extractor === undefined)
    return {
      ok: false,
      why: `cannot be read: no installed pack brings the ${section.kind} extractor`,
    };
  const substituted = substitute(section.spec, facts);
  if (!substituted.ok) return { ok: false, why: `cannot be read: ${substituted.error}` };
  const params = extractor.params.safeParse(substituted.value.value);
  if (!params.success) {
    return {
      ok: false,
      why: `cannot be read: its extractor's params do not fit this fixture (${params.error.issues[0]?.message ?? ''})`,
    };
  }
  try {
    return (
      extractor.extract as (s: string, p: unknown, c: ExtractContext) => Reading<ExtractedValue>
    )(text, params.data, context);
  } catch (error) {
    return {
      ok: false,
      why: `could not be read: the ${section.kind} extractor threw (a bug in redgreen, please report it): ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** The reply's sections and the value read from each (`scenario`: its file's fields, which pack extractors read). Pure. */
export function readReport(
  reply: string,
  sections: readonly CompiledSection[],
  facts: Facts,
  scenario: Readonly<Record<string, unknown>>,
): ReplyEvidence {
  const split = splitReplySections(
    withPlainWhiteSpace(reply),
    sections.map((section) => section.label),
  );
  const values: Record<string, Reading<ExtractedValue>> = {};
  for (const section of sections) {
    const text = split[section.name];
    if (text === undefined) {
      const empty = extractorOf(section.kind)?.entry.empty as ExtractedValue | undefined;
      values[section.name] =
        section.required || empty === undefined
          ? { ok: false, why: 'is missing: the reply has no such section' }
          : { ok: true, value: empty, quote: '' };
      continue;
    }
    values[section.name] = readSection(section, text, facts, { scenario, earlier: values });
  }
  return { text: reply, sections: split, values };
}
