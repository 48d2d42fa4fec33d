/**
 * Statistics for redgreen's reports, in one import: pass-rate intervals and
 * tests (stats-rates.ts), sample summaries and resampling tests
 * (stats-samples.ts), and the seeded generator they share (stats-random.ts).
 * Every figure is exact or seeded, so a report is reproducible.
 */

export { type RandomSource, randomIndex, seededRandom } from './stats-random.js';
export {
  type Alternative,
  type ArmCount,
  binomialProbability,
  boschlooExact,
  fisherExact,
  fisherPower,
  type Interval,
  minimumDetectableRate,
  type PowerQuestion,
  passAtK,
  passHatK,
  powerStatement,
  wilsonInterval,
  Z_95,
} from './stats-rates.js';
export {
  type BootstrapInterval,
  type BootstrapOptions,
  bootstrapInterval,
  mean,
  median,
  type PermutationOptions,
  type PermutationResult,
  permutationTest,
  quantileOfSorted,
  type SampleStatistic,
} from './stats-samples.js';
