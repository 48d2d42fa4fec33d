import { describe, expect, it } from 'vitest';
import { installedPack, installedPacks, installPacks } from '../../harness/pack/install-packs.js';
import { definePack } from '../../harness/pack/pack.js';
import { SHIPPED_PACKS } from '../../packs/index.js';

describe('packs', () => {
  it('are installed for every test file, as the CLI installs them', () => {
    expect(installedPacks().map((pack) => pack.name)).toEqual(SHIPPED_PACKS.map((p) => p.name));
    expect(installedPack('sdd')?.summary).toMatch(/subagent-driven/);
  });

  it('install once: the same pack again is a no-op, another pack of the same name is refused', () => {
    installPacks(SHIPPED_PACKS);
    expect(installedPacks()).toHaveLength(SHIPPED_PACKS.length);
    const impostor = definePack({ name: 'sdd', summary: 'another' });
    expect(() => installPacks([impostor])).toThrow(/two packs are named sdd/);
  });

  it('refuse a name a scenario file could not list', () => {
    expect(() => definePack({ name: 'SDD pack', summary: '' })).toThrow(/lower-case words/);
  });
});
