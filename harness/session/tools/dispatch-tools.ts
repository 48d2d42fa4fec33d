/**
 * The subagent tools the `messages` backend offers: `Agent` and `SendMessage`
 * under Claude Code 2.1.332's names and input schemas (the properties, types,
 * enums and required fields its requests advertise), so a model sees the same
 * interface on both backends; and, under `stop: first-dispatch`, the question
 * tool `AskUserQuestion` with the engine's schema too. No subagent ever runs
 * and no question is ever put to anyone here: a valid call is refused (see
 * ../dispatch-capture.ts), an invalid one gets an input validation error, as
 * the engine gives it. `Task`, the legacy name of `Agent`, is accepted with
 * Agent's schema, as the engine accepts it.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { ToolOutput } from './tool-context.js';
import { toolError } from './tool-context.js';

const modelTiers = ['sonnet', 'opus', 'haiku', 'fable'] as const;
const effortLevels = ['low', 'medium', 'high', 'xhigh', 'max'] as const;

export const agentInputSchema = z
  .object({
    description: z.string(),
    prompt: z.string(),
    subagent_type: z.string().optional(),
    model: z.enum(modelTiers).optional(),
    effort: z.enum(effortLevels).optional(),
    run_in_background: z.boolean().optional(),
    isolation: z.enum(['worktree', 'remote']).optional(),
  })
  .strict();

export const sendMessageInputSchema = z
  .object({
    to: z
      .string()
      .max(300)
      .regex(/^[^\n\r]*$/),
    summary: z.string().optional(),
    message: z.string(),
    notify_when_idle: z.boolean().optional(),
  })
  .strict();

const questionOptionSchema = z
  .object({ label: z.string(), description: z.string(), preview: z.string().optional() })
  .strict();

export const askUserQuestionInputSchema = z
  .object({
    questions: z
      .array(
        z
          .object({
            question: z.string(),
            header: z.string(),
            options: z.array(questionOptionSchema).min(2).max(4),
            multiSelect: z.boolean(),
          })
          .strict(),
      )
      .min(1)
      .max(4),
    answers: z.record(z.string(), z.string()).optional(),
    annotations: z
      .record(
        z.string(),
        z.object({ preview: z.string().optional(), notes: z.string().optional() }).strict(),
      )
      .optional(),
    metadata: z.object({ source: z.string().optional() }).strict().optional(),
  })
  .strict();

export const agentToolDefinition: Anthropic.Tool = {
  name: 'Agent',
  description:
    'Start a subagent on a piece of work. It knows only what you put in `prompt` and answers with a summary when done. ' +
    '`subagent_type` chooses the kind of agent (general-purpose by default); `model` overrides its model.',
  input_schema: {
    type: 'object',
    properties: {
      description: { type: 'string', description: 'A short (3-5 word) description of the work' },
      prompt: { type: 'string', description: 'The work for the agent to do' },
      subagent_type: { type: 'string', description: 'The type of agent to use for this work' },
      model: { type: 'string', enum: [...modelTiers], description: 'Optional model override' },
      effort: { type: 'string', enum: [...effortLevels], description: 'Optional reasoning effort' },
      run_in_background: { type: 'boolean', description: 'Run the agent in the background' },
      isolation: {
        type: 'string',
        enum: ['worktree', 'remote'],
        description: 'Optional isolation mode',
      },
    },
    required: ['description', 'prompt'],
    additionalProperties: false,
  },
};

export const sendMessageToolDefinition: Anthropic.Tool = {
  name: 'SendMessage',
  description:
    'Send a message to another agent by name or agentId; a message to an agent that has finished resumes it.',
  input_schema: {
    type: 'object',
    properties: {
      to: { type: 'string', description: "Recipient: an agent's name or agentId" },
      summary: { type: 'string', description: 'A 5-10 word label for your own transcript' },
      message: { type: 'string', description: 'Plain text message content' },
      notify_when_idle: {
        type: 'boolean',
        description: 'Ask to be notified once when the recipient next goes idle',
      },
    },
    required: ['to', 'message'],
    additionalProperties: false,
  },
};

/** The question tool, with the input schema Claude Code 2.1.332 advertises for it. */
export const askUserQuestionToolDefinition: Anthropic.Tool = {
  name: 'AskUserQuestion',
  description:
    'Ask the user one to four multiple-choice questions and wait for the answers. ' +
    'Each question has a short header and two to four options; the user may also answer in their own words.',
  input_schema: {
    type: 'object',
    properties: {
      questions: {
        type: 'array',
        minItems: 1,
        maxItems: 4,
        description: 'The questions to ask (1-4)',
        items: {
          type: 'object',
          properties: {
            question: { type: 'string', description: 'The question, ending with a question mark' },
            header: { type: 'string', description: 'A short label for the question (12 chars)' },
            options: {
              type: 'array',
              minItems: 2,
              maxItems: 4,
              description: 'The choices (2-4)',
              items: {
                type: 'object',
                properties: {
                  label: { type: 'string', description: 'The choice, in a few words' },
                  description: { type: 'string', description: 'What choosing it means' },
                  preview: { type: 'string', description: 'Optional content shown with it' },
                },
                required: ['label', 'description'],
                additionalProperties: false,
              },
            },
            multiSelect: { type: 'boolean', description: 'Whether several may be chosen' },
          },
          required: ['question', 'header', 'options', 'multiSelect'],
          additionalProperties: false,
        },
      },
      answers: {
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'Answers collected from the user',
      },
      annotations: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          properties: { preview: { type: 'string' }, notes: { type: 'string' } },
          additionalProperties: false,
        },
        description: 'Per-question notes from the user',
      },
      metadata: {
        type: 'object',
        properties: { source: { type: 'string' } },
        additionalProperties: false,
        description: 'Optional tracking metadata',
      },
    },
    required: ['questions'],
    additionalProperties: false,
  },
};

/** Why a dispatch or question call's input does not match its tool's schema, or undefined when it does. */
export function dispatchInputProblem(tool: string, input: unknown): ToolOutput | undefined {
  const schema =
    tool === 'SendMessage'
      ? sendMessageInputSchema
      : tool === 'AskUserQuestion'
        ? askUserQuestionInputSchema
        : agentInputSchema;
  const parsed = schema.safeParse(input);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where =
    issue === undefined ? '' : ` ${issue.path.map(String).join('.') || 'input'}: ${issue.message}`;
  return toolError(`InputValidationError: ${tool}${where}`);
}
