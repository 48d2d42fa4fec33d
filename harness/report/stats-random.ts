/**
 * A small seeded pseudo-random generator (the mulberry32 construction:
 * a 32-bit counter scrambled by multiply-xorshift), so every resampling
 * statistic is reproducible from its seed. Not for cryptography.
 */
export type RandomSource = () => number;

/** A generator of uniform numbers in [0, 1), fully determined by `seed` (any integer). */
export function seededRandom(seed: number): RandomSource {
  let state = Math.trunc(seed) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform integer in [0, bound). */
export function randomIndex(random: RandomSource, bound: number): number {
  return Math.min(bound - 1, Math.floor(random() * bound));
}
