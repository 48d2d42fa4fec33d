/** Glob matching over repository paths, shared by the verbs that take globs. */
import { globToRegExp } from '../../session/tools/glob-pattern.js';

/** One test for a list of globs: does any match the path? */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  const patterns = globs.map((glob) => globToRegExp(glob));
  return (path) => patterns.some((pattern) => pattern.test(path));
}
