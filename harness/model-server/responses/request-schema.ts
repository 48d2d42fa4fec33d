/**
 * The request body of `POST /v1/responses` as the model server accepts it: the
 * public OpenAI Responses API shapes Codex CLI sends, strict where a wrong
 * shape would make the conversation meaningless (the `input` items a policy
 * reads: messages, function and custom tool calls and their outputs, with
 * their call ids) and permissive everywhere else (`reasoning`, `include`,
 * `text`, `client_metadata`, item kinds we have never heard of).
 */
import { z } from 'zod';

/** One part of a message's content: text parts are read, any other part is carried along. */
const ContentPartSchema = z.looseObject({ type: z.string().min(1), text: z.string().optional() });

export const InputMessageSchema = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(ContentPartSchema)]),
});

export const FunctionCallItemSchema = z.looseObject({
  type: z.literal('function_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  namespace: z.string().optional(),
  arguments: z.string(),
});

export const CustomToolCallItemSchema = z.looseObject({
  type: z.literal('custom_tool_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  namespace: z.string().optional(),
  input: z.string(),
});

/** A tool's output: a string, or content parts (code mode, some function tools). */
const ToolOutputSchema = z.union([z.string(), z.array(ContentPartSchema)]);

export const ToolOutputItemSchema = z.looseObject({
  type: z.enum(['function_call_output', 'custom_tool_call_output']),
  call_id: z.string().min(1),
  output: ToolOutputSchema,
});

const strictlyCheckedItemTypes = new Set([
  'message',
  'function_call',
  'custom_tool_call',
  'function_call_output',
  'custom_tool_call_output',
]);

/** Any other item (reasoning, additional_tools, web search calls): accepted as long as it names its type. */
const OtherItemSchema = z.looseObject({
  type: z
    .string()
    .min(1)
    .refine((type) => !strictlyCheckedItemTypes.has(type), { message: 'malformed input item' }),
});

export const InputItemSchema = z.union([
  FunctionCallItemSchema,
  CustomToolCallItemSchema,
  ToolOutputItemSchema,
  InputMessageSchema,
  OtherItemSchema,
]);

/** A tool the request offers: a function or custom tool by name, or a namespace of them. */
export const ResponsesToolSchema = z.looseObject({
  type: z.string().min(1),
  name: z.string().optional(),
  tools: z.array(z.looseObject({ name: z.string().optional() })).optional(),
});

export const CreateResponseRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(InputItemSchema).min(1)]),
  instructions: z.string().nullable().optional(),
  tools: z.array(ResponsesToolSchema).optional(),
  stream: z.boolean().optional(),
  prompt_cache_key: z.string().optional(),
});

export type InputItem = z.infer<typeof InputItemSchema>;
export type InputMessage = z.infer<typeof InputMessageSchema>;
export type FunctionCallItem = z.infer<typeof FunctionCallItemSchema>;
export type CustomToolCallItem = z.infer<typeof CustomToolCallItemSchema>;
export type ToolOutputItem = z.infer<typeof ToolOutputItemSchema>;
export type ResponsesTool = z.infer<typeof ResponsesToolSchema>;
export type CreateResponseRequest = z.infer<typeof CreateResponseRequestSchema>;

/** Codex's per-request turn metadata (`x-codex-turn-metadata`, a JSON string): the fields read here. */
export const TurnMetadataSchema = z.looseObject({
  session_id: z.string().optional(),
  thread_id: z.string().optional(),
  request_kind: z.string().optional(),
  thread_source: z.string().optional(),
  parent_thread_id: z.string().optional(),
  agent_name: z.string().optional(),
});
export type TurnMetadata = z.infer<typeof TurnMetadataSchema>;

export function isMessageItem(item: InputItem): item is InputMessage {
  return 'role' in item && (item.type === undefined || item.type === 'message');
}

export function isCallItem(item: InputItem): item is FunctionCallItem | CustomToolCallItem {
  return item.type === 'function_call' || item.type === 'custom_tool_call';
}

export function isToolOutputItem(item: InputItem): item is ToolOutputItem {
  return item.type === 'function_call_output' || item.type === 'custom_tool_call_output';
}

/** The text parts of a message's or an output's content, one string each. */
export function textParts(
  content: string | readonly { type: string; text?: string | undefined }[],
): string[] {
  if (typeof content === 'string') return [content];
  return content.flatMap((part) => (typeof part.text === 'string' ? [part.text] : []));
}
