/**
 * How a command reaches the packs without importing them: the composition
 * root (harness/cli.ts) hands over its installer, and a command that checks
 * its arguments first calls `loadPacks` once they are sound, so a usage
 * error loads nothing a pack brings.
 */
let installer: () => Promise<void> = async () => undefined;

/** Set by the composition root before any command runs. */
export function setPackInstaller(install: () => Promise<void>): void {
  installer = install;
}

/** Installs the shipped packs (idempotent). */
export function loadPacks(): Promise<void> {
  return installer();
}

/** Commands that call `loadPacks` themselves, after checking their arguments. */
export const LOADS_PACKS_ITSELF: ReadonlySet<string> = new Set(['fixture']);
