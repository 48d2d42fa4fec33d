/**
 * What a pack adds to the campaign room: the campaign `redgreen run` runs
 * when no campaign file is named, and the scripted model a skill's own evals
 * run on offline. installPacks hands each pack's here; the
 * first installed pack that names one gives the default (the composition
 * root's order of packs decides), so the core names no campaign of its own.
 */

export interface CampaignExtension {
  /** The campaign file (an absolute path) `redgreen run` runs when none is named. */
  readonly defaultCampaign?: string;
  /** The scripted model (`scripted:<brain>`) a skill's own evals campaign runs on without a key. */
  readonly evalsOfflineModel?: string;
}

const registered = new Map<string, CampaignExtension>();

/** Registers a pack's campaign extension; the same one again is a no-op. */
export function registerCampaignExtension(pack: string, extension: CampaignExtension): void {
  const known = registered.get(pack);
  if (known === extension) return;
  if (known !== undefined) throw new Error(`two campaign extensions are named ${pack}`);
  registered.set(pack, extension);
}

/** The evals campaigns' offline model of the first installed pack that names one; undefined when none does. */
export function packEvalsOfflineModel(): string | undefined {
  for (const extension of registered.values()) {
    if (extension.evalsOfflineModel !== undefined) return extension.evalsOfflineModel;
  }
  return undefined;
}

/** The default campaign file of the first installed pack that names one; undefined when none does. */
export function packDefaultCampaign(): string | undefined {
  for (const extension of registered.values()) {
    if (extension.defaultCampaign !== undefined) return extension.defaultCampaign;
  }
  return undefined;
}
