import { InvalidArgumentError } from 'commander';

/** Commander argument parsers that reject bad values with a message naming the fix. */
export function positiveInt(
  name: string,
  max = Number.MAX_SAFE_INTEGER,
): (value: string) => number {
  return (value: string) => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed < 1 || parsed > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from 1 to ${max}.`);
    }
    return parsed;
  };
}

export function nonNegativeInt(
  name: string,
  max = Number.MAX_SAFE_INTEGER,
): (value: string) => number {
  return (value: string) => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || parsed > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from 0 to ${max}.`);
    }
    return parsed;
  };
}

export function positiveNumber(name: string): (value: string) => number {
  return (value: string) => {
    const parsed = Number(value);
    if (value.trim() === '' || !Number.isFinite(parsed) || parsed <= 0) {
      throw new InvalidArgumentError(`${name} must be a number above 0.`);
    }
    return parsed;
  };
}

/** A share strictly between 0 and 1 (`--split 0.6`). */
export function fraction(name: string): (value: string) => number {
  return (value: string) => {
    const parsed = Number(value);
    if (value.trim() === '' || !Number.isFinite(parsed) || parsed <= 0 || parsed >= 1) {
      throw new InvalidArgumentError(`${name} must be a number between 0 and 1, e.g. 0.6.`);
    }
    return parsed;
  };
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * A repeatable flag of names from a fixed list, each value one name or a
 * comma list (`--engine claude-code,codex` or `--engine claude-code --engine codex`).
 */
export function collectNames<T extends string>(
  name: string,
  choices: readonly T[],
): (value: string, previous?: T[]) => T[] {
  return (value: string, previous: T[] = []) => {
    const names = value.split(',').map((part) => part.trim());
    const unknown = names.find((part) => !(choices as readonly string[]).includes(part));
    if (unknown !== undefined) {
      throw new InvalidArgumentError(
        `${name} "${unknown}" is not one of ${choices.join(', ')} (give one, repeat the flag, or a comma list).`,
      );
    }
    return [...previous, ...(names as T[])];
  };
}
