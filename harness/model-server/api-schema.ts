/**
 * The request bodies the model server accepts, as zod schemas: the public
 * Anthropic Messages API shapes, strict where a wrong shape would make the
 * conversation meaningless (the messages array, the content blocks a policy
 * reads, tool_use / tool_result ids) and permissive everywhere else, so that
 * whatever else a client sends (`thinking`, `context_management`,
 * `output_config`, `cache_control`, beta fields we have never heard of) is
 * accepted without choking.
 */
import { z } from 'zod';

const cacheControl = z.looseObject({ type: z.string() }).nullable().optional();

export const TextBlockSchema = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  cache_control: cacheControl,
});

export const ToolUseBlockSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  cache_control: cacheControl,
});

/** A block inside a tool_result's content: text is read, anything else is carried along. */
const ToolResultContentBlockSchema = z.looseObject({ type: z.string().min(1) });

export const ToolResultBlockSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(ToolResultContentBlockSchema)]).optional(),
  is_error: z.boolean().optional(),
  cache_control: cacheControl,
});

export const ThinkingBlockSchema = z.looseObject({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string().optional(),
});

export const RedactedThinkingBlockSchema = z.looseObject({
  type: z.literal('redacted_thinking'),
  data: z.string(),
});

const strictlyCheckedBlockTypes = new Set([
  'text',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
]);

/**
 * Any other block type (images, documents, server tool blocks, future beta
 * blocks): accepted as long as it names its type. A block whose type is one we
 * check strictly never falls through to this.
 */
const OtherBlockSchema = z.looseObject({
  type: z
    .string()
    .min(1)
    .refine((type) => !strictlyCheckedBlockTypes.has(type), {
      message: 'malformed content block',
    }),
});

export const ContentBlockSchema = z.union([
  TextBlockSchema,
  ToolUseBlockSchema,
  ToolResultBlockSchema,
  ThinkingBlockSchema,
  RedactedThinkingBlockSchema,
  OtherBlockSchema,
]);

export const MessageParamSchema = z.looseObject({
  // `system` messages are part of the API now; Claude Code sends one as the second entry.
  role: z.enum(['user', 'assistant', 'system']),
  content: z.union([z.string(), z.array(ContentBlockSchema)]),
});

export const ToolDefinitionSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  input_schema: z.looseObject({}).optional(),
});

export const SystemPromptSchema = z.union([z.string(), z.array(TextBlockSchema)]);

const MetadataSchema = z.looseObject({ user_id: z.string().nullable().optional() });

/** Fields shared by `POST /v1/messages` and `POST /v1/messages/count_tokens`. */
const conversationShape = {
  model: z.string().min(1),
  messages: z.array(MessageParamSchema).min(1),
  system: SystemPromptSchema.optional(),
  tools: z.array(ToolDefinitionSchema).optional(),
  metadata: MetadataSchema.optional(),
};

export const CreateMessageRequestSchema = z.looseObject({
  ...conversationShape,
  max_tokens: z.number().int().positive(),
  stream: z.boolean().optional(),
});

export const CountTokensRequestSchema = z.looseObject(conversationShape);

export type TextBlock = z.infer<typeof TextBlockSchema>;
export type ToolUseBlock = z.infer<typeof ToolUseBlockSchema>;
export type ToolResultBlock = z.infer<typeof ToolResultBlockSchema>;
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
export type MessageParam = z.infer<typeof MessageParamSchema>;
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;
export type CreateMessageRequest = z.infer<typeof CreateMessageRequestSchema>;
export type CountTokensRequest = z.infer<typeof CountTokensRequestSchema>;

/** The blocks of a message's content, with a bare string read as one text block. */
export function contentBlocks(message: MessageParam): readonly ContentBlock[] {
  return typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : message.content;
}

export function isToolUseBlock(block: ContentBlock): block is ToolUseBlock {
  return block.type === 'tool_use';
}

export function isToolResultBlock(block: ContentBlock): block is ToolResultBlock {
  return block.type === 'tool_result';
}

export function isTextBlock(block: ContentBlock): block is TextBlock {
  return block.type === 'text';
}

/** Render zod issues the way the API words validation errors: `messages.0.role: ...`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const where = issue.path.length === 0 ? 'body' : issue.path.map(String).join('.');
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}
