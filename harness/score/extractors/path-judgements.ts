/**
 * `path-judgements`: every path a section names (paths are what the
 * scenario's pattern matches) with the section's judgement of it: adopted
 * (trusted, mine, resumed from), rejected (stale, another plan's, ignored,
 * left in place) or unclear. A section naming no path reads as no
 * judgements; an absent optional section reads the same.
 */
import { z } from 'zod';
import { regexSource } from '../param-types.js';
import { defineExtractor, quoteOf } from './extractor.js';
import { CUE_WEIGHTS, type Cue, readPathVerdicts } from './language/path-verdicts.js';
import { planReadingContext } from './plan-context.js';

const cueSchema = z
  .object({
    /** A regular expression over the section in lower case. */
    pattern: regexSource,
    weight: z.union(CUE_WEIGHTS.map((weight) => z.literal(weight))).default(1),
  })
  .strict();

function compileCues(cues: readonly z.infer<typeof cueSchema>[]): Cue[] {
  return cues.map((cue) => ({ pattern: new RegExp(cue.pattern, 'g'), weight: cue.weight }));
}

export const pathJudgementsExtractor = defineExtractor({
  summary:
    "each path the section names (by the scenario's pattern) judged adopted, rejected or unclear",
  params: z
    .object({
      kind: z.literal('path-judgements'),
      /** Which strings are paths (a regular expression, matched case-insensitively). */
      paths: regexSource,
      /** Compare paths from this segment on, so absolute and relative spellings agree. */
      anchor: z.string().min(1).optional(),
      /** Whose plan counts as "mine" in the judgement. */
      plan: z.string().min(1).default('{{ownPlan}}'),
      otherPlans: z.array(z.string().min(1)).default(['{{foreignPlans}}']),
      /** Further phrases of the scenario's domain that count for adoption or rejection. */
      adopt: z.array(cueSchema).default([]),
      reject: z.array(cueSchema).default([]),
    })
    .strict(),
  empty: { kind: 'path-judgements', paths: [] },
  dependsOn: () => [],
  extract: (section, params, context) => {
    const { attribution } = planReadingContext(context.catalogue, params.plan, params.otherPlans);
    const readings = readPathVerdicts(section, attribution, {
      paths: new RegExp(params.paths, 'gi'),
      anchor: params.anchor,
      adopt: compileCues(params.adopt),
      reject: compileCues(params.reject),
    });
    return {
      ok: true,
      value: {
        kind: 'path-judgements',
        paths: readings.map((reading) => ({ path: reading.path, judgement: reading.verdict })),
      },
      quote: quoteOf(section),
    };
  },
});
