/**
 * Which reps are judged, and which stored judgements count, as the reports
 * and gates see them. A scenario is judged when its scenario file has a
 * judge block now; every recorded rep of it is expected to have a
 * judgement. A stored judgement counts only when it is current and by the
 * scenario's current judge:
 *
 * - current: its key still matches this redgreen's judge protocol, the
 *   scenario's rubric as it is now and the material it was asked about (the
 *   material's hash is kept in judge.json; a rep's files do not change once
 *   recorded, so the material is not rebuilt here, which `redgreen score`
 *   does);
 * - the scenario's current judge: the judge model of the scenario's most
 *   recent judgement (a `redgreen judge --model X` rejudges every rep it
 *   can, so judgements by an earlier judge left behind are ones it could
 *   not redo).
 *
 * The rest are set aside, each with why, and count as not judged: the
 * tables never pool two judges, and a judge answering an old rubric is no
 * second opinion on the present one. When the scenario files cannot be read
 * (moved or deleted since the run), the scenarios with any judgement count
 * as judged and only the judge model is checked.
 */
import type { CampaignRecord } from '../campaign/campaign-record.js';
import { resolveRecordedScenarios } from '../campaign/recorded-scenarios.js';
import type { Judgement } from './judgement.js';
import { judgementKey } from './prompt.js';

export interface JudgingScope {
  /** Scenarios whose reps are expected to carry a judgement. */
  readonly judgedScenarios: ReadonlySet<string>;
  /** The judgements that count, by rep id. */
  readonly judgements: ReadonlyMap<string, Judgement>;
  /** Judgements that do not count, and why (stale, or by another judge). */
  readonly setAside: readonly { readonly id: string; readonly why: string }[];
}

interface ScopeRep {
  readonly id: string;
  readonly scenario: string;
}

/** A judge as the tables tell judges apart: its model, and its endpoint when not the Anthropic API. */
function judgeOf(judgement: Judgement): string {
  const { requested, endpoint } = judgement.model;
  return endpoint === null ? requested : `${requested} at ${endpoint}`;
}

/** The judge of a scenario's most recent judgement. */
function currentJudge(judgements: readonly Judgement[]): string | undefined {
  const newest = newestJudgement(judgements);
  return newest === undefined ? undefined : judgeOf(newest);
}

/** The most recent of a scenario's judgements: its judge is the scenario's current judge. */
export function newestJudgement(judgements: readonly Judgement[]): Judgement | undefined {
  let newest: Judgement | undefined;
  for (const judgement of judgements) {
    if (
      newest === undefined ||
      judgement.judgedAt > newest.judgedAt ||
      (judgement.judgedAt === newest.judgedAt && judgement.model.requested > newest.model.requested)
    ) {
      newest = judgement;
    }
  }
  return newest;
}

/** Pure: the scope, given each scenario's judge spec as it is now (undefined: none; null: unknown). */
export function judgingScopeOf(
  reps: readonly ScopeRep[],
  stored: ReadonlyMap<string, Judgement>,
  specs: ReadonlyMap<
    string,
    | { readonly rubric: Record<string, string>; readonly instructions?: string | undefined }
    | undefined
  > | null,
): JudgingScope {
  const byScenario = new Map<string, { rep: ScopeRep; judgement: Judgement }[]>();
  for (const rep of reps) {
    const judgement = stored.get(rep.id);
    if (judgement === undefined) continue;
    byScenario.set(rep.scenario, [...(byScenario.get(rep.scenario) ?? []), { rep, judgement }]);
  }
  const judgedScenarios = new Set<string>(
    specs === null
      ? byScenario.keys()
      : [...specs].filter(([, spec]) => spec !== undefined).map(([id]) => id),
  );
  const judgements = new Map<string, Judgement>();
  const setAside: { id: string; why: string }[] = [];
  for (const [scenario, entries] of byScenario) {
    const spec = specs?.get(scenario);
    if (!judgedScenarios.has(scenario)) {
      for (const { rep } of entries) {
        setAside.push({ id: rep.id, why: `scenario ${scenario} has no judge block now` });
      }
      continue;
    }
    const judge = currentJudge(entries.map((entry) => entry.judgement));
    for (const { rep, judgement } of entries) {
      if (judgeOf(judgement) !== judge) {
        setAside.push({
          id: rep.id,
          why: `judged by ${judgeOf(judgement)}, not by the scenario's current judge ${judge ?? ''}`,
        });
      } else if (
        spec !== undefined &&
        judgementKey(
          spec,
          { hash: judgement.materialHash },
          judgement.model.requested,
          judgement.model.endpoint,
        ) !== judgement.key
      ) {
        setAside.push({
          id: rep.id,
          why: 'stale: the rubric or the judge protocol changed since it was judged',
        });
      } else {
        judgements.set(rep.id, judgement);
      }
    }
  }
  return { judgedScenarios, judgements, setAside };
}

/** The scope of a results directory, reading the scenarios' judge blocks as they are now. */
export async function judgingScope(
  record: Pick<CampaignRecord, 'scenarios' | 'campaign'>,
  reps: readonly ScopeRep[],
  stored: ReadonlyMap<string, Judgement>,
): Promise<JudgingScope> {
  const resolved = await resolveRecordedScenarios(record);
  const specs = resolved.ok
    ? new Map([...resolved.value].map(([id, scenario]) => [id, scenario.config.judge]))
    : null;
  return judgingScopeOf(reps, stored, specs);
}
