/**
 * `path-judgements`: every path a section names (paths are what the
 * scenario's pattern matches) with the section's judgement of it: adopted
 * (trusted, mine, resumed from), rejected (stale, another plan's, ignored,
 * left in place) or unclear. A section naming no path reads as no
 * judgements; an absent optional section reads the same.
 */
import { z } from 'zod';
import { defineExtractor, quoteOf } from '../../../../harness/score/extractors/extractor.js';
import { regexSource } from '../../../../harness/score/param-types.js';
import { catalogueOf } from '../known-plans.js';
import { CUE_WEIGHTS, type Cue, readPathVerdicts } from '../language/path-verdicts.js';
import { planReadingContext } from '../plan-context.js';

export const JUDGEMENTS = ['adopted', 'rejected', 'unclear'] as const;
export type Judgement = (typeof JUDGEMENTS)[number];

/** What a path-judgements section reads: each path it names, with its judgement. */
export interface PathJudgementsValue {
  readonly kind: 'path-judgements';
  readonly paths: readonly { readonly path: string; readonly judgement: Judgement }[];
}

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
  value: z
    .object({
      kind: z.literal('path-judgements'),
      paths: z.array(z.object({ path: z.string(), judgement: z.enum(JUDGEMENTS) }).strict()),
    })
    .strict() as z.ZodType<PathJudgementsValue>,
  empty: { kind: 'path-judgements', paths: [] } as PathJudgementsValue,
  shown: (value: PathJudgementsValue) =>
    value.paths.map((entry) => `${entry.path} ${entry.judgement}`).join(', ') || 'no path',
  dependsOn: () => [],
  extract: (section, params, context) => {
    const { attribution } = planReadingContext(
      catalogueOf(context.scenario),
      params.plan,
      params.otherPlans,
    );
    const readings = readPathVerdicts(section, attribution, {
      paths: new RegExp(params.paths, 'gi'),
      anchor: params.anchor,
      adopt: compileCues(params.adopt),
      reject: compileCues(params.reject),
    });
    return {
      ok: true,
      value: {
        kind: 'path-judgements' as const,
        paths: readings.map((reading) => ({ path: reading.path, judgement: reading.verdict })),
      },
      quote: quoteOf(section),
    };
  },
});
