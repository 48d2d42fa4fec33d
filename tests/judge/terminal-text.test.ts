/**
 * The adjudicator's terminal: session text cannot drive it (control
 * characters are shown, not obeyed), and an escape sequence from a key
 * (an arrow, F1) is one keystroke, never read as the letters it ends with.
 */
import { describe, expect, it } from 'vitest';
import { visibleControls } from '../../harness/judging/adjudication-screen.js';
import { keystrokes } from '../../harness/judging/terminal-keys.js';

describe('the adjudication screen', () => {
  it('shows control characters instead of obeying them, keeping newlines and tabs', () => {
    expect(visibleControls('a\u001b[2J\u001b[Hb\n\tc\u0007\u009b31m\u007f')).toBe(
      'a\u241b[2J\u241b[Hb\n\tc\u2407<U+009B>31m\u2421',
    );
  });
});

describe('keys from a terminal', () => {
  it('reads an escape sequence as one keystroke', () => {
    expect(keystrokes('\u001bOP')).toEqual(['\u001bOP']); // F1
    expect(keystrokes('\u001bOQ')).toEqual(['\u001bOQ']); // F2
    expect(keystrokes('a\u001b[Ab')).toEqual(['a', '\u001b[A', 'b']); // Up between letters
    expect(keystrokes('\u001b[15~p')).toEqual(['\u001b[15~', 'p']); // F5, then p
    expect(keystrokes('\u001b')).toEqual(['\u001b']);
    expect(keystrokes('pé😀')).toEqual(['p', 'é', '😀']);
  });
});
