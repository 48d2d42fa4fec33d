/**
 * The scripted user of a full session (`stop: complete`): a scenario's
 * `user` block answers the questions the session puts to the human, a call
 * of the question tool (`AskUserQuestion`) or a controller reply that ends on
 * a question, so the session goes on instead of stalling offline.
 *
 * Each question's text is matched against the answer rules in order (each
 * `pattern` a regular expression, case-insensitive); the first that matches
 * gives its `answer` (a list of answers: the first the first time the rule
 * answers, the second the second time, the last from then on), and when none
 * does the `default` answer is given. At
 * most `maxAnswers` questions are answered in one rep; a question after that
 * is recorded as unanswered (a tool call is refused, a reply ending on a
 * question ends the session). The user's own turns, sent after replies,
 * are `turns` (user-turns.ts). Pure: the session room applies it
 * (harness/session/scripted-user-session.ts) and records what it did
 * (user-question-record.ts).
 *
 * `played` (optional) lets a model play the user on a live run
 * (harness/session/played-user.ts): it is given `story` and what the
 * session said to it, never the checks, the rubric or the skill text, and
 * its words replace the rules' answers and the declared turns' `say` (a
 * turn's timing stays the script's). Offline the rules and turns play.
 */
import { z } from 'zod';
import { compiles, nameSchema, nonBlank, regexSource } from './param-types.js';
import { userTurnsSchema } from './user-turns.js';

export const DEFAULT_USER_ANSWER = 'Your call: follow your skill.';
export const DEFAULT_MAX_ANSWERS = 5;

export const answerRuleSchema = z
  .object({
    /** Names the rule in the records and in `user-answered` checks. */
    id: nameSchema.refine((id) => id !== 'default', 'is reserved for the default answer'),
    /** A regular expression on the question's text, matched case-insensitively. */
    pattern: regexSource.refine(
      (source) => !compiles(source) || !new RegExp(source, 'i').test(''),
      'matches every question (it matches the empty text): give a pattern that names what the question asks, or use "default"',
    ),
    /** The answer; a list: the n-th time the rule answers, the n-th (the last once they run out). */
    answer: z.union([nonBlank, z.array(nonBlank).min(1)]),
  })
  .strict();
export type AnswerRule = z.infer<typeof answerRuleSchema>;

/** `user.played`: who the user is and what they want, for a model playing them on a live run. */
export const playedUserSchema = z
  .object({
    /** The user's part in the user's own terms: who they are, what they want, what they would answer. */
    story: nonBlank.max(20_000, 'is longer than 20000 characters: tell the user part shorter'),
    /** The Messages API model that plays the user; default: the session's model. */
    model: nonBlank.optional(),
  })
  .strict();
export type PlayedUser = z.infer<typeof playedUserSchema>;

export const scriptedUserSchema = z
  .object({
    answers: z
      .array(answerRuleSchema)
      .default([])
      .superRefine((rules, context) => {
        const seen = new Set<string>();
        for (const rule of rules) {
          if (seen.has(rule.id)) {
            context.addIssue({
              code: 'custom',
              message: `two answer rules share the id "${rule.id}": give each its own`,
            });
            return;
          }
          seen.add(rule.id);
        }
      }),
    /** What the user says to a question no rule matches. */
    default: nonBlank.default(DEFAULT_USER_ANSWER),
    /** The most questions answered in one rep (0: none); later ones go unanswered. */
    maxAnswers: z.number().int().min(0).max(50).default(DEFAULT_MAX_ANSWERS),
    /** Messages the user sends after the session replies (user-turns.ts). */
    turns: userTurnsSchema,
    /** A model plays the user on a live run (played-user.ts); offline the rules and turns above do. */
    played: playedUserSchema.optional(),
  })
  .strict();
/** A scenario's `user` block, defaults applied. */
export type ScriptedUser = z.infer<typeof scriptedUserSchema>;

/** Which rule answered a question: a rule by id, the default, or nobody (maxAnswers reached). */
export type AnswerSource =
  | { readonly kind: 'rule'; readonly id: string }
  | { readonly kind: 'default' }
  | { readonly kind: 'unanswered' }
  /** A model playing the user (`user.played`, a live run) gave the answer. */
  | { readonly kind: 'played'; readonly model: string };

export interface ScriptedAnswer {
  readonly answer: string | null;
  readonly source: AnswerSource;
}

/**
 * The answer to a question whose text is `question`, when `answered` answers
 * were given before; `byRule` counts the answers each rule gave before.
 */
export function scriptedAnswer(
  user: ScriptedUser,
  question: string,
  answered: number,
  byRule: ReadonlyMap<string, number> = new Map(),
): ScriptedAnswer {
  if (answered >= user.maxAnswers) return { answer: null, source: { kind: 'unanswered' } };
  const rule = user.answers.find((candidate) => new RegExp(candidate.pattern, 'i').test(question));
  if (rule === undefined) return { answer: user.default, source: { kind: 'default' } };
  const answers = typeof rule.answer === 'string' ? [rule.answer] : rule.answer;
  const answer = answers[Math.min(byRule.get(rule.id) ?? 0, answers.length - 1)] ?? user.default;
  return { answer, source: { kind: 'rule', id: rule.id } };
}
