/**
 * One line of a JSON-lines file, parsed: the value, or undefined when the
 * line is not JSON (the caller reports it as a malformed line).
 */
export function parseJsonLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}
