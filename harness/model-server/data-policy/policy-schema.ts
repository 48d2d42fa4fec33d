/**
 * A scripted policy as data: `policies/<name>.yaml` (or `.json`) beside a
 * scenario. Either a program of steps (the brain acts) or a recorded
 * session to replay (`replay: <transcript>`):
 *
 * - `tool: <Name>` with `input` (strings are templates) and an optional
 *   `id` naming its result; `parallel: [...]` makes several calls in one turn;
 * - `capture: <name>` takes a value `from` a source by `pattern` (its first
 *   group; `all: true` every match, `last: true` the last one);
 * - `branch: [{ when, steps }, …, { else: [...] }]` picks the first arm whose
 *   condition holds: a source `matches` a pattern, an earlier call `failed`,
 *   the session `offered` a tool, or `not` one of those;
 * - `reply: <template>` ends the session's turn with that text;
 *   `ask: <template>` replies with a question, and (in a `stop: complete`
 *   session, where the scripted user answers) goes on once the answer is in
 *   the conversation, the answer being the value `id` names.
 *
 * `seats` (a `stop: complete` scenario) answer the subagents the controller
 * dispatches: a request whose prompt matches a seat's `prompt` runs its steps.
 * Sources are the facts `prompt`, `system`, `skill`, `cwd`, and every id and
 * capture defined earlier. Unknown fields are errors, as everywhere.
 */
import { z } from 'zod';

/** Values every policy can read: what the session was sent, and what it loaded. */
export const FACT_NAMES = ['prompt', 'system', 'skill', 'cwd'] as const;
export type FactName = (typeof FACT_NAMES)[number];

/** Template helpers (templates.ts); no value may take one of these names. */
export const HELPER_NAMES = [
  'join',
  'first',
  'last',
  'count',
  'without',
  'lines',
  'shell',
  'regex',
  'eq',
] as const;

const RESERVED = new Set<string>([
  ...FACT_NAMES,
  ...HELPER_NAMES,
  'each',
  'if',
  'unless',
  'this',
  'else',
]);

export const valueNameSchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'use letters, digits, _ and -, starting with a letter')
  .refine((name) => !RESERVED.has(name), {
    message: `is reserved (${[...RESERVED].join(', ')}): choose another name`,
  });

const sourceSchema = z
  .string()
  .min(1, 'name a fact (prompt, system, skill, cwd), an id or a capture');
const patternSchema = z.string().min(1, 'must not be empty');

export type Condition =
  | {
      readonly kind: 'matches';
      readonly in: string;
      readonly matches: string;
      readonly ignoreCase: boolean;
    }
  | { readonly kind: 'failed'; readonly failed: string }
  | { readonly kind: 'offered'; readonly offered: string }
  | { readonly kind: 'not'; readonly not: Condition };

const conditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.preprocess(
    (raw) => tagged(raw, ['in', 'failed', 'offered', 'not'], { in: 'matches' }),
    z.discriminatedUnion(
      'kind',
      [
        z
          .object({
            kind: z.literal('matches'),
            in: sourceSchema,
            matches: patternSchema,
            ignoreCase: z.boolean().default(false),
          })
          .strict(),
        z.object({ kind: z.literal('failed'), failed: valueNameSchema }).strict(),
        z.object({ kind: z.literal('offered'), offered: z.string().min(1) }).strict(),
        z.object({ kind: z.literal('not'), not: conditionSchema }).strict(),
      ],
      {
        error:
          'a condition is { in: <source>, matches: <pattern> }, { failed: <id> }, { offered: <tool> } or { not: <condition> }',
      },
    ),
  ),
);

export interface ToolStep {
  readonly kind: 'tool';
  readonly tool: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly id?: string | undefined;
}

export type Step =
  | ToolStep
  | { readonly kind: 'parallel'; readonly parallel: readonly ToolStep[] }
  | {
      readonly kind: 'capture';
      readonly capture: string;
      readonly from: string;
      readonly pattern: string;
      readonly all: boolean;
      readonly last: boolean;
      readonly ignoreCase: boolean;
      readonly default?: string | readonly string[] | undefined;
    }
  | {
      readonly kind: 'branch';
      readonly branch: readonly BranchArm[];
    }
  | { readonly kind: 'reply'; readonly reply: string }
  | { readonly kind: 'ask'; readonly ask: string; readonly id?: string | undefined };

export type BranchArm =
  | { readonly when: Condition; readonly steps: readonly Step[] }
  | { readonly else: readonly Step[] };

const toolStepSchema = z
  .object({
    kind: z.literal('tool'),
    tool: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a tool name such as Bash or Read'),
    input: z.record(z.string(), z.unknown()).default({}),
    id: valueNameSchema.optional(),
  })
  .strict();

const stepsSchema: z.ZodType<readonly Step[]> = z.lazy(() =>
  z.array(stepSchema).min(1, 'give at least one step'),
);

const armSchema: z.ZodType<BranchArm> = z.lazy(() =>
  z.union([
    z.object({ when: conditionSchema, steps: stepsSchema }).strict(),
    z.object({ else: stepsSchema }).strict(),
  ]),
);

const STEP_KINDS = ['tool', 'parallel', 'capture', 'branch', 'reply', 'ask'] as const;

const stepSchema: z.ZodType<Step> = z.lazy(() =>
  z.preprocess(
    (raw) => tagged(raw, STEP_KINDS),
    z.discriminatedUnion(
      'kind',
      [
        toolStepSchema,
        z
          .object({
            kind: z.literal('parallel'),
            parallel: z
              .array(z.preprocess((raw) => tagged(raw, ['tool']), toolStepSchema))
              .min(2, 'a parallel turn makes two calls or more (one call is a tool step)'),
          })
          .strict(),
        z
          .object({
            kind: z.literal('capture'),
            capture: valueNameSchema,
            from: sourceSchema,
            pattern: patternSchema,
            all: z.boolean().default(false),
            last: z.boolean().default(false),
            ignoreCase: z.boolean().default(false),
            default: z.union([z.string(), z.array(z.string())]).optional(),
          })
          .strict()
          .refine((step) => !(step.all && step.last), {
            message: 'give all or last, not both',
            path: ['last'],
          }),
        z
          .object({
            kind: z.literal('branch'),
            branch: z
              .array(armSchema)
              .min(1, 'give at least one { when, steps } arm')
              .superRefine((arms, context) => {
                const elses = arms.filter((arm) => 'else' in arm).length;
                if (elses > 1 || (elses === 1 && !('else' in (arms.at(-1) ?? {})))) {
                  context.addIssue({
                    code: 'custom',
                    message: 'else comes once, as the last arm',
                  });
                } else if (elses === arms.length) {
                  context.addIssue({
                    code: 'custom',
                    message: 'a branch needs a { when, steps } arm before its else',
                  });
                }
              }),
          })
          .strict(),
        z.object({ kind: z.literal('reply'), reply: z.string() }).strict(),
        z
          .object({
            kind: z.literal('ask'),
            ask: z.string().min(1),
            id: valueNameSchema.optional(),
          })
          .strict(),
      ],
      {
        error: `a step is one of ${STEP_KINDS.map((kind) => `{ ${kind}: … }`).join(', ')}`,
      },
    ),
  ),
);

/** A subagent seat of a `stop: complete` session: requests whose prompt matches run these steps. */
export interface SeatProgram {
  readonly prompt: string;
  readonly steps: readonly Step[];
}

export const policyFileSchema = z
  .object({
    $schema: z.string().optional(),
    /** One line: what the policy does (shown by lint and in logs). */
    summary: z.string().optional(),
    steps: stepsSchema.optional(),
    seats: z
      .array(z.object({ prompt: patternSchema, steps: stepsSchema }).strict())
      .min(1)
      .optional(),
    /** A recorded session (Claude Code stream-json, redgreen transcript.jsonl, …) to replay instead. */
    replay: z.string().min(1).optional(),
    /** With replay: the prompt the recorded session was given (a text file), checked against the live one. */
    prompt: z.string().min(1).optional(),
    /**
     * With replay: the backend the session was recorded on. Tools answer in
     * each backend's own words, so lint replays it there, whatever --backend says.
     */
    backend: z.enum(['claude-code', 'messages']).optional(),
  })
  .strict()
  .superRefine((file, context) => {
    if ((file.steps === undefined) === (file.replay === undefined)) {
      context.addIssue({
        code: 'custom',
        message: 'give "steps" (a program) or "replay" (a recorded transcript), one of them',
        path: ['steps'],
      });
    }
    if (file.replay !== undefined && file.seats !== undefined) {
      context.addIssue({
        code: 'custom',
        message: 'a replay answers the recorded session only: seats go with steps',
        path: ['seats'],
      });
    }
    for (const field of ['prompt', 'backend'] as const) {
      if (file.replay === undefined && file[field] !== undefined) {
        context.addIssue({
          code: 'custom',
          message: `${field} belongs to a replay (the recorded session's ${field})`,
          path: [field],
        });
      }
    }
  });
export type PolicyFile = z.infer<typeof policyFileSchema>;

/**
 * A step object with its kind named: the one key of `kinds` it holds (the
 * first, when it holds several: the strict schema of that kind then names
 * the others as unknown fields). `aliases` maps a key to the kind it marks.
 */
function tagged(
  raw: unknown,
  kinds: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const key = kinds.find((kind) => kind in raw);
  if (key === undefined) return raw;
  return { ...raw, kind: aliases[key] ?? key };
}
