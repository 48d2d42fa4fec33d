/**
 * A problem with something the user gave us (a flag, a config file, a path).
 * Rendered as one line that names the input and says how to fix it; the CLI
 * exits 2 for these, before doing any work.
 */
export interface InputError {
  readonly kind: 'input';
  /** What was wrong, as the user would name it: `--tz`, `dest`, `campaign.arms[0].skill`. */
  readonly input: string;
  /** What is wrong with it. */
  readonly problem: string;
  /** What to do instead. */
  readonly fix: string;
}

export function inputError(input: string, problem: string, fix: string): InputError {
  return { kind: 'input', input, problem, fix };
}

export function formatInputError(error: InputError): string {
  return `${error.input}: ${error.problem}; ${error.fix}`.replace(/\s*\n\s*/g, ' ');
}

export function isInputError(value: unknown): value is InputError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'input' &&
    typeof (value as { input?: unknown }).input === 'string'
  );
}
