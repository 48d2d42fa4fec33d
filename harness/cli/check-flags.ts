/**
 * Flags a pack adds to `redgreen check` and `redgreen score-reply`: each
 * names one input of the check request the core does not know (which of a
 * fixture's documents the session worked from, say) and turns the flag's
 * value into that part of the request. The composition root fills this
 * from the installed packs before any command is built.
 */
import type { Command } from 'commander';
import type { CheckRequest } from '../check/check-session.js';

/** The parts of a check request a pack's flag may set. */
export type CheckRequestPart = Partial<
  Omit<CheckRequest, 'scenario' | 'command' | 'scenariosDirs'>
>;

export interface CheckFlag {
  /** commander's flag syntax, a long flag with a value: `--name <value>`. */
  readonly flags: string;
  /** The help line, as `redgreen check --help` prints it. */
  readonly description: string;
  /** The part of the check request the flag's value sets. */
  readonly toRequest: (value: string) => CheckRequestPart;
}

const LONG_FLAG_WITH_VALUE = /^--([a-z][a-z0-9]*(?:-[a-z0-9]+)*) <[a-z-]+>$/;

/** The flags packs added, each with the pack that added it (and whose check part reads it). */
const registered: { readonly flag: CheckFlag; readonly pack: string }[] = [];

/** Adds a pack's flags to the check commands; a flag the core or another pack has is a bug. */
export function registerCheckFlags(pack: string, flags: readonly CheckFlag[]): void {
  for (const flag of flags) {
    if (!LONG_FLAG_WITH_VALUE.test(flag.flags)) {
      throw new Error(`check flag ${JSON.stringify(flag.flags)} is not of the form --name <value>`);
    }
    if (registered.some((known) => known.flag.flags === flag.flags)) {
      throw new Error(`two packs add the check flag ${flag.flags}`);
    }
    registered.push({ flag, pack });
  }
}

/** The flags packs added, in installation order. */
export function checkFlags(): readonly CheckFlag[] {
  return registered.map((entry) => entry.flag);
}

/** The option name commander stores a flag's value under: `--own-doc <path>` → `ownDoc`. */
function attributeOf(flag: CheckFlag): string {
  const name = LONG_FLAG_WITH_VALUE.exec(flag.flags)?.[1] ?? '';
  return name.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** Declares every pack's check flag on a command, refusing one the command already has. */
export function addCheckFlags(command: Command): Command {
  for (const flag of checkFlags()) {
    const long = flag.flags.split(' ')[0] ?? '';
    if (command.options.some((option) => option.long === long)) {
      throw new Error(`check flag ${long} is already an option of ${command.name()}`);
    }
    command.option(flag.flags, flag.description);
  }
  return command;
}

/**
 * The request parts the pack flags given on the command line set (later
 * flags win), and which pack each given flag is for (`packFlags`), so the
 * check refuses one its scenario's packs would not read.
 */
export function requestFromCheckFlags(parsed: Readonly<Record<string, unknown>>): CheckRequestPart {
  let request: CheckRequestPart = {};
  const given: { readonly input: string; readonly pack: string }[] = [];
  for (const { flag, pack } of registered) {
    const value = parsed[attributeOf(flag)];
    if (typeof value === 'string') {
      request = { ...request, ...flag.toRequest(value) };
      given.push({ input: `${flag.flags.split(' ')[0] ?? ''} ${value}`, pack });
    }
  }
  return given.length === 0 ? request : { ...request, packFlags: given };
}
