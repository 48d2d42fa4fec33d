/**
 * Tools the `messages` backend offers beyond its defaults, under Claude Code
 * 2.1.332's names and input schemas (what its requests advertise):
 *
 * - `Skill` (with an installed library): `{ skill: string, args?: string }`;
 *   its answer is the engine's (../installed-library.ts): `Launching skill:
 *   <name>` and the skill's text as a separate text block beside the result.
 * - `WebFetch` (when a scenario adds it): `{ url: string, prompt: string }`;
 *   every call gets the neutral refusal, as on claude-code: no session has
 *   network.
 */
import type Anthropic from '@anthropic-ai/sdk';

export const skillToolDefinition: Anthropic.Tool = {
  name: 'Skill',
  description:
    'Invoke a skill from the available-skills listing. When a listed skill covers the request at hand, call this first: ' +
    'its instructions load into the conversation for you to follow. `skill` is the exact name from the listing ' +
    '(plugin skills as `plugin:skill`); `args` are optional arguments.',
  input_schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      skill: {
        description: 'The name of a skill from the available-skills list. Do not guess names.',
        type: 'string',
      },
      args: { description: 'Optional arguments for the skill', type: 'string' },
    },
    required: ['skill'],
    additionalProperties: false,
  },
};

export const webFetchToolDefinition: Anthropic.Tool = {
  name: 'WebFetch',
  description: 'Fetch a URL and answer a prompt about its content.',
  input_schema: {
    type: 'object',
    properties: {
      url: { type: 'string', format: 'uri', description: 'The URL to fetch content from' },
      prompt: { type: 'string', description: 'The prompt to run on the fetched content' },
    },
    required: ['url', 'prompt'],
    additionalProperties: false,
  },
};
