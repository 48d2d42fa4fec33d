/**
 * A small seeded random source (mulberry32). A policy's randomness is derived
 * from the server seed and the session key, so different sessions differ and
 * the same seed and session give the same transcript, turn after turn.
 */
import { sha256Hex } from '../lib/hash.js';

export interface Rng {
  /** A number in [0, 1). */
  next(): number;
}

export function seededRng(...parts: readonly string[]): Rng {
  let state = Number.parseInt(sha256Hex(parts.join('\u0000')).slice(0, 8), 16) >>> 0;
  return {
    next(): number {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}
