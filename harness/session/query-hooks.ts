/**
 * One `hooks` option from several parts of a claude-code session. Each part
 * (first-dispatch capture, the seat watch, the scripted user) brings its own
 * PreToolUse hook; `query()` takes one `hooks` object, so spreading the parts'
 * options one after another would keep only the last part's hooks. Here the
 * matchers of every part are kept, per hook event, in the order given (the
 * engine runs every matching hook before a tool call; a denial wins).
 */
import type { HookCallbackMatcher, HookEvent, Options } from '@anthropic-ai/claude-agent-sdk';

export function combinedHooks(
  parts: readonly (Pick<Options, 'hooks'> | undefined)[],
): Pick<Options, 'hooks'> {
  const hooks: Partial<Record<HookEvent, HookCallbackMatcher[]>> = {};
  for (const part of parts) {
    for (const [event, matchers] of Object.entries(part?.hooks ?? {}) as [
      HookEvent,
      HookCallbackMatcher[] | undefined,
    ][]) {
      if (matchers === undefined) continue;
      hooks[event] = [...(hooks[event] ?? []), ...matchers];
    }
  }
  return Object.keys(hooks).length === 0 ? {} : { hooks };
}
