/**
 * combinedHooks (harness/session/query-hooks.ts) merges the `hooks` options
 * of a claude-code session's parts into the one `query()` takes: every
 * part's matchers are kept per hook event, in the order the parts are given,
 * and no hooks at all give no `hooks` option.
 */
import type { HookCallback, Options } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { combinedHooks } from '../../harness/session/query-hooks.js';

const hook =
  (name: string): HookCallback =>
  async () => ({ systemMessage: name });

const part = (event: 'PreToolUse' | 'PostToolUse', ...names: string[]): Pick<Options, 'hooks'> => ({
  hooks: { [event]: names.map((name) => ({ matcher: name, hooks: [hook(name)] })) },
});

/** The matchers of an event, by the name each carries. */
function matcherNames(options: Pick<Options, 'hooks'>, event: 'PreToolUse' | 'PostToolUse') {
  return (options.hooks?.[event] ?? []).map((matcher) => matcher.matcher);
}

describe('combinedHooks', () => {
  it('keeps both parts’ PreToolUse hooks, in the order the parts are given', async () => {
    const capture = part('PreToolUse', 'capture');
    const watch = part('PreToolUse', 'watch-a', 'watch-b');
    const combined = combinedHooks([capture, watch]);
    expect(matcherNames(combined, 'PreToolUse')).toEqual(['capture', 'watch-a', 'watch-b']);
    expect(matcherNames(combinedHooks([watch, capture]), 'PreToolUse')).toEqual([
      'watch-a',
      'watch-b',
      'capture',
    ]);
    // The callbacks themselves are the parts' own, not copies or wrappers.
    const [first] = combined.hooks?.PreToolUse ?? [];
    expect(first?.hooks[0]).toBe(capture.hooks?.PreToolUse?.[0]?.hooks[0]);
    // Spreading the parts' options, as before, would keep only the last part's hooks.
    expect(matcherNames({ ...capture, ...watch }, 'PreToolUse')).toEqual(['watch-a', 'watch-b']);
  });

  it('keeps each event apart, and skips parts without hooks', () => {
    const combined = combinedHooks([
      undefined,
      part('PreToolUse', 'pre-1'),
      {},
      part('PostToolUse', 'post-1'),
      part('PreToolUse', 'pre-2'),
    ]);
    expect(Object.keys(combined.hooks ?? {}).sort()).toEqual(['PostToolUse', 'PreToolUse']);
    expect(matcherNames(combined, 'PreToolUse')).toEqual(['pre-1', 'pre-2']);
    expect(matcherNames(combined, 'PostToolUse')).toEqual(['post-1']);
  });

  it('no hooks in any part: no hooks option at all', () => {
    expect(combinedHooks([])).toEqual({});
    expect(combinedHooks([undefined, {}, { hooks: {} }])).toEqual({});
    expect('hooks' in combinedHooks([undefined, {}])).toBe(false);
  });
});
