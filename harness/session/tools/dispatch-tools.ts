/**
 * The subagent tools the `messages` backend offers: `Agent` and `SendMessage`
 * under Claude Code 2.1.332's names and input schemas (the properties, types,
 * enums and required fields its requests advertise), so a model sees the same
 * interface on both backends. No subagent ever runs here: a valid call is
 * refused (see ../dispatch-capture.ts), an invalid one gets an input
 * validation error, as the engine gives it. `Task`, the legacy name of
 * `Agent`, is accepted with Agent's schema, as the engine accepts it.
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

export const agentToolDefinition: Anthropic.Tool = {
  name: 'Agent',
  description:
    'Start a subagent on a task. It knows only what you put in `prompt` and answers with a summary when done. ' +
    '`subagent_type` chooses the kind of agent (general-purpose by default); `model` overrides its model.',
  input_schema: {
    type: 'object',
    properties: {
      description: { type: 'string', description: 'A short (3-5 word) description of the task' },
      prompt: { type: 'string', description: 'The task for the agent to perform' },
      subagent_type: { type: 'string', description: 'The type of agent to use for this task' },
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

/** Why a dispatch call's input does not match its tool's schema, or undefined when it does. */
export function dispatchInputProblem(tool: string, input: unknown): ToolOutput | undefined {
  const schema = tool === 'SendMessage' ? sendMessageInputSchema : agentInputSchema;
  const parsed = schema.safeParse(input);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where =
    issue === undefined ? '' : ` ${issue.path.map(String).join('.') || 'input'}: ${issue.message}`;
  return toolError(`InputValidationError: ${tool}${where}`);
}
