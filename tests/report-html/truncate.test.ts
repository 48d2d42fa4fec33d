import { describe, expect, it } from 'vitest';
import { escapeHtml, html, trustedHtml } from '../../harness/report/html/html-template.js';
import {
  cutToBytes,
  formatBytes,
  previewLine,
  utf8Bytes,
} from '../../harness/report/html/truncate.js';

describe('escaping', () => {
  it('escapes the five characters that matter in text and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });

  it('escapes interpolated values, nested lists included, but not markup built by the tag', () => {
    const inner = html`<em>${'<b>'}</em>`;
    const page = html`<p title="${'"x"'}">${inner}${['<i>', html`<br>`]}${trustedHtml('<hr>')}</p>`;
    expect(page.markup).toBe('<p title="&quot;x&quot;"><em>&lt;b&gt;</em>&lt;i&gt;<br><hr></p>');
  });

  it('renders nothing for null, undefined and false, and numbers as text', () => {
    expect(html`${null}${undefined}${false}${0}${true}`.markup).toBe('0true');
  });
});

describe('cutting text to a byte budget', () => {
  it('keeps text that fits whole', () => {
    expect(cutToBytes('hello', 5)).toEqual({ text: 'hello', omittedBytes: 0 });
  });

  it('never splits a multi-byte character and counts what it left out', () => {
    const text = 'ééé'; // 6 bytes
    const cut = cutToBytes(text, 3);
    expect(cut.text).toBe('é');
    expect(cut.omittedBytes).toBe(4);
    expect(utf8Bytes(cut.text) + cut.omittedBytes).toBe(utf8Bytes(text));
  });

  it('previews one line with whitespace collapsed and an ellipsis when cut', () => {
    expect(previewLine('a\n  b\tc', 10)).toBe('a b c');
    expect(previewLine('abcdefghijkl', 5)).toBe('abcd…');
  });

  it('formats sizes', () => {
    expect(formatBytes(340)).toBe('340 B');
    expect(formatBytes(6000)).toBe('6.0 KB');
    expect(formatBytes(2_500_000)).toBe('2.5 MB');
  });
});
