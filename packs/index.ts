/** The packs redgreen ships, installed by the CLI and the test setup. */
import type { Pack } from '../harness/pack/pack.js';
import { sddPack } from './sdd/index.js';
import { skillTriggeringPack } from './skill-triggering/index.js';

export const SHIPPED_PACKS: readonly Pack[] = [sddPack, skillTriggeringPack];
