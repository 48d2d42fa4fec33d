/**
 * Merging only some of a campaign's shards works, but says which shards are
 * missing (and that gate cannot decide until they are merged in).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { sharedOneRep } from './support.js';

describe('merge of an incomplete set of shards', () => {
  it('warns which shards are missing', async () => {
    const first = await sharedOneRep('1/4');
    const third = await sharedOneRep('3/4');
    expect(first.run.exitCode, first.run.stderr).toBe(0);
    expect(third.run.exitCode, third.run.stderr).toBe(0);
    const out = path.join(makeTempDir(), 'merged');
    const merged = await runCli(['merge', first.out, third.out, '--out', out]);
    expect(merged.exitCode, merged.stderr).toBe(0);
    expect(merged.stderr).toMatch(
      /merged shards 1\/4 and 3\/4 of 4: shards 2\/4 and 4\/4 are missing.*gate/,
    );
    const gate = await runCli(['gate', out]);
    expect(gate.exitCode).toBe(2);
  });
});
