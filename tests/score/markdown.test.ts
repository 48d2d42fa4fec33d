/**
 * Removing markdown decoration before a pattern is matched (reply-contains,
 * dispatch prompts): emphasis and code ticks go, the words stay; names that
 * merely contain the delimiter characters (`__init__.py`, `snake_case`,
 * `src/**\/*.py`) stay as written; struck-through text is what the writer took
 * back, so it is gone.
 */
import { describe, expect, it } from 'vitest';
import { withoutEmphasis } from '../../harness/score/extractors/language/markdown.js';
import { check } from './verb-support.js';

describe('withoutEmphasis', () => {
  it.each([
    ['**Task 3**', 'Task 3'],
    ['__Task 3__', 'Task 3'],
    ['*Task 3*', 'Task 3'],
    ['_Task 3_', 'Task 3'],
    ['`Task 3`', 'Task 3'],
    ['Implement **Task 3** (`JSON writer`).', 'Implement Task 3 (JSON writer).'],
    ['snake_case stays', 'snake_case stays'],
  ])('%j reads %j', (text, plain) => {
    expect(withoutEmphasis(text)).toBe(plain);
  });

  it.each([
    ['Edit src/pkg/__init__.py first', 'Edit src/pkg/__init__.py first'],
    ['Edit `src/pkg/__init__.py` first', 'Edit src/pkg/__init__.py first'],
    ['run python -m __main__', 'run python -m __main__'],
    ['glob src/**/*.py and docs/*.md', 'glob src/**/*.py and docs/*.md'],
    ['x = a**2 + b**2', 'x = a**2 + b**2'],
  ])('keeps names that hold delimiter characters: %j', (text, plain) => {
    expect(withoutEmphasis(text)).toBe(plain);
  });

  it.each([
    ['Implement ~~Task 2~~ Task 3', 'Implement Task 3'],
    ['~~Task 2~~ Task 3 (JSON writer)', 'Task 3 (JSON writer)'],
  ])('drops struck-through text: %j', (text, plain) => {
    expect(withoutEmphasis(text).trim()).toBe(plain);
  });

  it('a dispatch prompt pattern naming __init__.py matches, and a struck task is not matched', () => {
    const calls = [
      {
        id: 'toolu_1',
        name: 'Agent',
        input: { description: 'x', prompt: 'Create `pkg/__init__.py`; do ~~Task 2~~ Task 3.' },
        parentToolUseId: null,
      },
    ];
    const evidence = {
      transcript: {
        calls,
        model: null,
        dispatches: [
          {
            index: 1,
            callId: 'toolu_1',
            tool: 'Agent',
            kind: 'fresh' as const,
            subagentType: null,
            model: null,
            description: 'x',
            prompt: 'Create `pkg/__init__.py`; do ~~Task 2~~ Task 3.',
            readings: {},
          },
        ],
      },
    };
    const run = (prompt: string) =>
      check({ verb: 'dispatch', prompt, caseSensitive: true }, evidence).outcome;
    expect(run('pkg/__init__\\.py')).toBe('pass');
    expect(run('do Task 3')).toBe('pass');
    expect(run('Task 2')).toBe('fail');
  });
});
