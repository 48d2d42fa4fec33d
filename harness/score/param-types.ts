/**
 * Zod pieces the scenario schema, the verbs and the extractors share:
 * regular expressions that must compile, repository paths and globs that can
 * match something, names, ordinals.
 */
import { z } from 'zod';
import { globProblem } from './verbs/glob.js';

/** A name a scenario gives a check, a section or a value: lower case, digits and dashes. */
export const namePattern = /^[a-z][a-z0-9-]*$/;
export const nameSchema = z
  .string()
  .regex(namePattern, 'use lower-case letters, digits and dashes, starting with a letter');

export const nonBlank = z.string().regex(/\S/, 'must not be blank');

/** Whether `source` compiles as a JavaScript regular expression with `flags`. */
export function compiles(source: string, flags = ''): boolean {
  try {
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
}

/** A regular expression source (JavaScript syntax) that compiles. */
export const regexSource = z
  .string()
  .min(1, 'must not be empty')
  .superRefine((value, context) => {
    const problem = regexProblem(value);
    if (problem !== undefined) {
      context.addIssue({
        code: 'custom',
        message: `is not a valid regular expression (JavaScript syntax): ${problem}`,
      });
    }
  });

/** Why a pattern does not compile (the engine's words, without the pattern repeated), or undefined. */
function regexProblem(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '');
  }
}

/** A positive whole number (an ordinal a section reads), or `none`. */
export const numberOrNone = z.union([z.number().int().positive(), z.literal('none')]);

/**
 * A path inside the repository, `/`-separated and relative: an absolute path
 * or one that climbs out with `..` could never name a file of the work tree.
 */
export const repoPathSchema = z
  .string()
  .min(1)
  .refine(
    (value) =>
      !value.startsWith('/') &&
      !value.includes('\\') &&
      value.split('/').every((part) => part !== '..' && part !== ''),
    'must be relative to the repository, with "/" separators and no ".." or empty parts (it could never match)',
  );

/** A worktree beside the repository, as its recipe names it: `../<dir>`. */
const besideCheckoutSchema = z
  .string()
  .regex(/^\.\.\/[^/]/, 'starts with "../"')
  .refine(
    (value) => repoPathSchema.safeParse(value.slice(3)).success,
    'must be "../<dir>" with "/" separators and no further ".." or empty parts',
  );

/**
 * Which checkout of the fixture a check looks at: a linked worktree's path
 * as its recipe names it (`.worktrees/feature`, or `../slugkit-review` for
 * one beside the repository), or "." for the repository's own; absent, the
 * checkout the session started in.
 */
export const checkoutSchema = z
  .union([z.literal('.'), besideCheckoutSchema, repoPathSchema])
  .optional();

/** A glob over repository paths (`**`, `*`, `?`, `[...]`, `{a,b}`), relative like repoPathSchema, that compiles. */
export const globSchema = repoPathSchema.superRefine((glob, context) => {
  const problem = globProblem(glob);
  if (problem !== undefined)
    context.addIssue({ code: 'custom', message: `${problem}, so it could never match` });
});

/** Whether a seat selector picks the controller's calls, a subagent's, or both. */
export const seatSelectorSchema = z.enum(['controller', 'subagent', 'any']);
export type SeatSelector = z.infer<typeof seatSelectorSchema>;
