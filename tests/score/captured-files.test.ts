/**
 * Captured file texts (`files-before.json`, `files-after.json`) are keyed by
 * repository paths, which a session chooses: a file named `__proto__` (or
 * `constructor`) is captured, written and read back like any other, never
 * dropped or answered by the object's prototype.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureFiles } from '../../harness/run/rep-evidence.js';
import { capturedFilesSchema } from '../../harness/score/evidence.js';
import { makeTempDir } from '../helpers/temp-dir.js';

describe('captured files keyed by path', () => {
  it('keeps files named like object properties through capture, JSON and the schema', async () => {
    const repo = makeTempDir();
    mkdirSync(path.join(repo, 'src'));
    writeFileSync(path.join(repo, '__proto__'), 'proto text\n');
    writeFileSync(path.join(repo, 'constructor'), 'constructor text\n');
    writeFileSync(path.join(repo, 'src/a.py'), 'A\n');
    const captured = await captureFiles(repo, ['__proto__', 'constructor', 'src/a.py', 'gone.md']);
    expect(Object.keys(captured.files).sort()).toEqual([
      '__proto__',
      'constructor',
      'gone.md',
      'src/a.py',
    ]);
    expect(Object.hasOwn(captured.files, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(captured.files, '__proto__')?.value).toEqual({
      text: 'proto text\n',
    });

    const read = capturedFilesSchema.parse(JSON.parse(JSON.stringify(captured)));
    expect(read).toEqual(captured);
    expect(Object.hasOwn(read.files, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(read.files)).toBe(Object.prototype);
    expect(read.files.constructor).toEqual({ text: 'constructor text\n' });
  });

  it('refuses an entry that is neither text nor a reason it was omitted, naming the path', () => {
    const parsed = capturedFilesSchema.safeParse(
      JSON.parse('{"schemaVersion":1,"files":{"__proto__":{"bytes":3}}}'),
    );
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['files', '__proto__']);
  });
});
