/**
 * What a pack adds to the campaign room: the campaign `redgreen run` runs
 * when no campaign file is named. installPacks hands each pack's here; the
 * first installed pack that names one gives the default (the composition
 * root's order of packs decides), so the core names no campaign of its own.
 */

export interface CampaignExtension {
  /** The campaign file (an absolute path) `redgreen run` runs when none is named. */
  readonly defaultCampaign?: string;
}

const registered = new Map<string, CampaignExtension>();

/** Registers a pack's campaign extension; the same one again is a no-op. */
export function registerCampaignExtension(pack: string, extension: CampaignExtension): void {
  const known = registered.get(pack);
  if (known === extension) return;
  if (known !== undefined) throw new Error(`two campaign extensions are named ${pack}`);
  registered.set(pack, extension);
}

/** The default campaign file of the first installed pack that names one; undefined when none does. */
export function packDefaultCampaign(): string | undefined {
  for (const extension of registered.values()) {
    if (extension.defaultCampaign !== undefined) return extension.defaultCampaign;
  }
  return undefined;
}
