/**
 * A model playing the scenario's user on a live run (`user.played`,
 * harness/score/scripted-user.ts): the user's answers to the session's
 * questions and the wording of its declared turns come from a Messages API
 * request instead of the scripted rules.
 *
 * What the playing model is given, and nothing else: the user's `story`, the
 * conversation the user has seen since the prompt (the session's replies and
 * questions, the user's own messages), and what is asked of it now (a
 * question, with the options a question tool call offers; or a declared
 * turn's `say` as what the user wants to get across). Never the prompt's
 * skill path or text, the checks, the judge's rubric or any scenario or
 * fixture file: userRequest builds the request from those three things only.
 *
 * Who plays (userModelFor): a model only when the scenario's user has a
 * story and the session's own model is live (not a scripted policy on
 * redgreen's local model server) on a Messages API endpoint; it is
 * `played.model`, or the session's model, on the session's endpoint with the
 * session's key. Offline, and on Bedrock or Vertex (which the engine reaches
 * itself), the script plays, exactly as without a story.
 */
import Anthropic from '@anthropic-ai/sdk';
import { err, ok, type Result } from '../lib/result.js';
import type { ScriptedUser } from '../score/scripted-user.js';
import type { ModelEndpoint, SessionRequest, UserModelEndpoint } from './session-types.js';

export type { UserModelEndpoint } from './session-types.js';

/** The model that plays a session's user, or undefined when the script plays. */
export function userModelFor(
  user: ScriptedUser | undefined,
  endpoint: ModelEndpoint,
): UserModelEndpoint | undefined {
  const played = user?.played;
  if (played === undefined || endpoint.scripted || endpoint.provider !== undefined) {
    return undefined;
  }
  return {
    id: played.model ?? endpoint.id,
    baseUrl: endpoint.baseUrl,
    apiKey: endpoint.apiKey,
    ...(endpoint.auth === undefined ? {} : { auth: endpoint.auth }),
    ...(endpoint.headers === undefined ? {} : { headers: endpoint.headers }),
  };
}

/** One message of the conversation as the user saw it. */
export interface SeenMessage {
  readonly from: 'session' | 'user';
  readonly text: string;
}

/** What the playing model is asked for. */
export type PlayedAsk =
  | { readonly kind: 'question'; readonly question: string; readonly options: readonly string[] }
  | { readonly kind: 'turn'; readonly gist: string };

/** The system text of every request to the playing model. */
export const PLAYED_USER_SYSTEM = [
  'You are playing a person who is working with an AI coding assistant.',
  'Stay in character: answer as that person would, from what they know and want.',
  'Reply with only the words the person sends to the assistant: no quotes, no notes, no role labels.',
].join('\n');

/** The request to the playing model: its story, what it has seen, and what is asked of it now. */
export function userRequest(
  story: string,
  seen: readonly SeenMessage[],
  ask: PlayedAsk,
): { readonly system: string; readonly messages: Anthropic.MessageParam[] } {
  const conversation =
    seen.length === 0
      ? '(nothing yet)'
      : seen
          .map((message) => `[${message.from === 'session' ? 'assistant' : 'you'}] ${message.text}`)
          .join('\n\n');
  const now =
    ask.kind === 'question'
      ? [
          'The assistant asks you:',
          `<question>\n${ask.question}\n</question>`,
          ...(ask.options.length === 0 ? [] : [`It offers: ${ask.options.join('; ')}`]),
          'Answer it as this person would, briefly.',
        ]
      : [
          'You now send the assistant your next message. What you want to get across:',
          `<gist>\n${ask.gist}\n</gist>`,
          'Write that message as this person would, briefly.',
        ];
  const text = [
    'Who you are and what you want:',
    `<story>\n${story}\n</story>`,
    '',
    'What the assistant has said to you so far, and what you said back:',
    `<conversation>\n${conversation}\n</conversation>`,
    '',
    ...now,
  ].join('\n');
  return { system: PLAYED_USER_SYSTEM, messages: [{ role: 'user', content: text }] };
}

/** Plays the user: the words it sends, or why the playing model gave none. */
export interface UserPlayer {
  /** The model id, for the records. */
  readonly model: string;
  say(seen: readonly SeenMessage[], ask: PlayedAsk): Promise<Result<string, string>>;
}

const PLAYED_MAX_TOKENS = 1024;

/** A user played by `endpoint`'s model with `story`, through `@anthropic-ai/sdk`. */
export function modelUserPlayer(
  endpoint: UserModelEndpoint,
  story: string,
  options: {
    readonly maxRetries: number;
    readonly timeoutMs: number;
    readonly signal: AbortSignal;
  },
): UserPlayer {
  const client = new Anthropic({
    ...(endpoint.auth === 'bearer'
      ? { apiKey: null, authToken: endpoint.apiKey }
      : { apiKey: endpoint.apiKey }),
    ...(endpoint.baseUrl === undefined ? {} : { baseURL: endpoint.baseUrl }),
    maxRetries: options.maxRetries,
    timeout: options.timeoutMs,
    ...(endpoint.headers === undefined ? {} : { defaultHeaders: { ...endpoint.headers } }),
  });
  return {
    model: endpoint.id,
    say: async (seen, ask) => {
      const request = userRequest(story, seen, ask);
      try {
        const reply = await client.messages.create(
          { model: endpoint.id, max_tokens: PLAYED_MAX_TOKENS, ...request },
          { signal: options.signal },
        );
        const text = reply.content
          .filter((block): block is Anthropic.TextBlock => block.type === 'text')
          .map((block) => block.text)
          .join('')
          .trim();
        return text === ''
          ? err(`the model playing the user (${endpoint.id}) answered no text`)
          : ok(text);
      } catch (error) {
        const reason =
          error instanceof Anthropic.APIError
            ? `${error.status ?? 'connection'} ${error.message.split('\n')[0] ?? ''}`
            : error instanceof Error
              ? error.message
              : String(error);
        return err(`the model playing the user (${endpoint.id}) failed: ${reason}`);
      }
    },
  };
}

/** The player of a session's user: `request.userModel` with the user's story, or undefined. */
export function sessionUserPlayer(
  request: Pick<SessionRequest, 'user' | 'userModel' | 'limits'>,
  options: { readonly maxRetries: number; readonly signal: AbortSignal },
): UserPlayer | undefined {
  const story = request.user?.played?.story;
  if (story === undefined || request.userModel === undefined) return undefined;
  return modelUserPlayer(request.userModel, story, {
    maxRetries: options.maxRetries,
    timeoutMs: request.limits.sessionTimeoutSeconds * 1000,
    signal: options.signal,
  });
}
