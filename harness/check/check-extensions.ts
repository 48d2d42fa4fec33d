/**
 * The check room's extension point: what a pack adds to scoring one session
 * run elsewhere (`redgreen check`, `score-reply`). From the scenario, the
 * fixture fields its recipe records and the request's inputs a pack's flag
 * set (harness/cli/check-flags.ts), a pack refuses an input that does not
 * fit, overrides facts, adds fields to the report (and its `--json`), a note
 * after the scenario's id and a hint read from the session's prompt.
 * Only the packs a scenario names take part: a scenario that names none is
 * checked by the core alone. installPacks fills this before any command runs.
 */
import type { InputError } from '../lib/input-error.js';
import type { Result } from '../lib/result.js';
import type { ScenarioShell } from '../score/scenario-schema.js';

export interface CheckContext {
  readonly scenarioId: string;
  readonly scenario: ScenarioShell;
  /** The fixture fields the recipe records for the scenario (its packs' fingerprint fields). */
  readonly fixture: Readonly<Record<string, unknown>>;
  /** The request, with the inputs the packs' flags set. */
  readonly request: Readonly<Record<string, unknown>>;
}

/** A pack's part of one check. */
export interface CheckPart {
  /** Facts that differ from the recipe's for this session (fixtureFacts' overrides). */
  readonly overrides?: Readonly<Record<string, string>>;
  /** Fields of the report, after `scenario`. */
  readonly reportFields?: Readonly<Record<string, unknown>>;
  /** A hint when the session's prompt does not fit the scenario; undefined when it does. */
  readonly promptHint?: (prompt: string) => string | undefined;
}

export interface CheckExtension {
  /** The pack's part of one check, or the input that does not fit. */
  readonly prepare: (context: CheckContext) => Result<CheckPart, InputError>;
  /** The words after the scenario's id in the text report, from the report's fields (the pack's own, when it took part). */
  readonly scenarioNote?: (report: Readonly<Record<string, unknown>>) => string | undefined;
}

const registered = new Map<string, CheckExtension>();

/** Adds a pack's part (installPacks calls it for the packs that have one). */
export function registerCheckExtension(pack: string, extension: CheckExtension): void {
  if (registered.get(pack) === extension) return;
  if (registered.has(pack)) throw new Error(`pack ${pack} extends the check room twice`);
  registered.set(pack, extension);
}

/** Every installed pack's part (for reading a report, whose pack fields say which took part). */
export function installedCheckExtensions(): readonly CheckExtension[] {
  return [...registered.values()];
}

/** The parts of the packs named (a scenario's `packs`), in installation order. */
export function checkExtensions(packs: readonly string[]): readonly CheckExtension[] {
  return [...registered].filter(([pack]) => packs.includes(pack)).map(([, extension]) => extension);
}
