/** Glob matching over repository paths, shared by the verbs that take globs. */
import { globToRegExp } from '../../lib/glob-pattern.js';

/** One test for a list of globs: does any match the path? */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  const patterns = globs.map((glob) => globToRegExp(glob));
  return (path) => patterns.some((pattern) => pattern.test(path));
}

/**
 * Why a glob could never work as written, or undefined: an unclosed `[` or
 * `{` (it would match only a file with that bracket in its name, or not
 * compile), or a class that is no valid character class (`[z-a]`).
 */
export function globProblem(glob: string): string | undefined {
  let depth = 0;
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i];
    if (char === '[' && glob.indexOf(']', i + 1) === -1) {
      return 'has an unclosed [ (write [[] for a literal bracket)';
    }
    if (char === '{') depth += 1;
    if (char === '}' && depth > 0) depth -= 1;
  }
  if (depth > 0) return 'has an unclosed {';
  try {
    globToRegExp(glob);
  } catch (error) {
    return `does not compile (${error instanceof Error ? error.message : String(error)})`;
  }
  return undefined;
}
