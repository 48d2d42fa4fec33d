/** Every test file runs with the shipped packs installed, as the CLI does before any command. */
import { installPacks } from '../../harness/pack/install-packs.js';
import { SHIPPED_PACKS } from '../../packs/index.js';

installPacks(SHIPPED_PACKS);
