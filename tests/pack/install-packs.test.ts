import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { packDefaultCampaign } from '../../harness/campaign/campaign-extensions.js';
import { defaultRecipeDir, defaultRecipeName } from '../../harness/fixture/recipe.js';
import { packageRoot } from '../../harness/lib/package-root.js';
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

describe('the defaults the core takes from the packs', () => {
  it("are the sdd pack's: the plan-scoped-workspace campaign and the widget-v3 recipe", async () => {
    expect(packDefaultCampaign()).toBe(
      path.join(packageRoot(), 'scenarios', 'plan-scoped-workspace.campaign.json'),
    );
    expect(defaultRecipeName()).toBe('widget-v3');
    expect(defaultRecipeDir()).toEqual({
      ok: true,
      value: path.join(packageRoot(), 'packs', 'sdd', 'fixtures', 'widget-v3'),
    });
  });

  it('are none with no pack installed, and the first installed pack that names one gives each', async () => {
    vi.resetModules();
    try {
      const campaigns = await import('../../harness/campaign/campaign-extensions.js');
      const fixtures = await import('../../harness/fixture/extensions.js');
      const { defaultRecipeDir, defaultRecipeName } = await import(
        '../../harness/fixture/recipe.js'
      );
      expect(campaigns.packDefaultCampaign()).toBeUndefined();
      expect(defaultRecipeName()).toBeUndefined();
      const refused = defaultRecipeDir();
      expect(refused.ok ? 'built' : `${refused.error.input}: ${refused.error.problem}`).toBe(
        '--recipe: no installed pack names a default recipe',
      );
      campaigns.registerCampaignExtension('first', {});
      campaigns.registerCampaignExtension('second', { defaultCampaign: '/a/second.campaign.json' });
      campaigns.registerCampaignExtension('third', { defaultCampaign: '/a/third.campaign.json' });
      expect(campaigns.packDefaultCampaign()).toBe('/a/second.campaign.json');
      fixtures.registerFixtureExtension('first', {});
      fixtures.registerFixtureExtension('second', { defaultRecipe: 'mine' });
      expect(defaultRecipeName()).toBe('mine');
    } finally {
      vi.resetModules();
    }
  });
});
