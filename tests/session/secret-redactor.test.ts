import { describe, expect, it } from 'vitest';
import { SecretRedactor } from '../../harness/session/secret-redactor.js';

/**
 * The redactor replaces a secret wherever it appears, and a secret of
 * several lines (a key pasted with a line break) line by line too: an error
 * that quotes only its first line must not carry that line out.
 */
describe('SecretRedactor', () => {
  it('replaces a secret and counts it; ignores secrets too short to be told from text', () => {
    const redactor = new SecretRedactor(['sk-ant-canary-0123456789', 'short']);
    expect(redactor.redact('key sk-ant-canary-0123456789 and short')).toBe(
      'key [REDACTED] and short',
    );
    expect(redactor.count).toBe(1);
  });

  it('a multi-line secret: the whole, and each line or part of 8 characters or more', () => {
    const secret = 'sk-ant-CANARYq7x9z\nX-Evil: 1\r\n\tsecond-line-part';
    const redactor = new SecretRedactor([secret]);
    const text = [
      `whole: ${secret}`,
      'Headers.append: "Bearer sk-ant-CANARYq7x9z" is an invalid header value',
      'then second-line-part alone',
      'X-Evil: 1 stays (shorter than 8 characters)',
    ].join('\n');
    const out = redactor.redact(text);
    expect(out).not.toContain('sk-ant-CANARYq7x9z');
    expect(out).not.toContain('second-line-part');
    expect(out).toContain('whole: [REDACTED]\n');
    expect(out).toContain('Bearer [REDACTED]"');
    expect(out).toContain('X-Evil: 1 stays');
    expect(redactor.count).toBe(3);
  });
});
