/**
 * Tool calls by seat, for the scenarios that ran full sessions (`stop:
 * complete`): each rep's calls split by seat group, and per scenario, arm
 * (and model) and group the calls per decided rep with their mean, median
 * and range, as the tool_uses figures count them (indeterminate reps left
 * out).
 *
 * Seat groups, so that a reader can compare arms whose runs started
 * different numbers of subagents: the controller is always a group of its
 * own; a subagent seat's group is the description of the dispatch that
 * created it, cut at its first `:` or spaced dash (before the work's
 * title) with every number written `N`, followed by its subagent_type:
 * `Implement step N · general-purpose`. A seat whose dispatch gave no description is grouped by
 * its subagent_type alone. A rep with no seat of a group counts 0 calls for
 * it. Reps recorded before per-seat counts existed (meta.json without
 * `seats`) are listed as unrecorded until `redgreen score` adds them.
 */
import { z } from 'zod';
import type { SeatCount } from '../results/seat-counts.js';
import { mean, median } from './stats.js';

export const CONTROLLER_GROUP = 'controller';

/** `Implement step 2: Farewell function` + `general-purpose` → `Implement step N · general-purpose`. */
export function seatGroupOf(seat: Pick<SeatCount, 'subagentType' | 'description'>): string {
  const type = seat.subagentType ?? 'subagent';
  const head =
    (seat.description ?? '')
      .split(/:| [—–-] /)[0]
      ?.replace(/\d+/g, 'N')
      .trim() ?? '';
  return head === '' ? type : `${head} · ${type}`;
}

const verdict = z.enum(['pass', 'fail', 'indeterminate']);

export const seatToolRepSchema = z
  .object({
    rep_id: z.string(),
    arm: z.string(),
    scenario: z.string(),
    model: z.string().optional(),
    verdict,
    group: z.string(),
    /** Seats of the group the rep started (1 for the controller). */
    seats: z.number().int().nonnegative(),
    /** SendMessage resumes of those seats. */
    resumes: z.number().int().nonnegative(),
    tool_calls: z.number().int().nonnegative(),
  })
  .strict();
export type SeatToolRep = z.infer<typeof seatToolRepSchema>;

export const seatToolCellSchema = z
  .object({
    scenario: z.string(),
    arm: z.string(),
    model: z.string().optional(),
    group: z.string(),
    /** Tool calls of the group per decided rep with per-seat counts, in rep order. */
    values: z.array(z.number().int().nonnegative()),
    /** Seats of the group over those reps. */
    seats: z.number().int().nonnegative(),
    /** SendMessage resumes of those seats, over those reps. */
    resumes: z.number().int().nonnegative(),
    mean: z.number().nullable(),
    median: z.number().nullable(),
    min: z.number().nullable(),
    max: z.number().nullable(),
  })
  .strict();
export type SeatToolCell = z.infer<typeof seatToolCellSchema>;

export const seatToolsSchema = z
  .object({
    /** The grouping and counting rule, in words. */
    rule: z.string(),
    cells: z.array(seatToolCellSchema),
    reps: z.array(seatToolRepSchema),
    /** Full-session reps whose meta.json has no per-seat counts (written before them). */
    unrecorded: z.array(z.string()),
  })
  .strict();
export type SeatTools = z.infer<typeof seatToolsSchema>;

export const SEAT_GROUP_RULE =
  'Tool calls by seat count decided reps only. The controller is a group of its own; a subagent is grouped by the description of the dispatch that created it, cut at its first ":" or spaced dash with numbers written N, and its subagent_type; a rep with no seat of a group counts 0 for it.';

/** What the seat figures need of one rep. */
export interface SeatToolSource {
  readonly id: string;
  readonly arm: string;
  readonly scenario: string;
  readonly model?: string;
  readonly verdict: z.infer<typeof verdict>;
  readonly stop: string;
  /** The controller's tool calls (meta.json toolUses). */
  readonly toolUses: number;
  /** meta.json `seats`; undefined when not recorded. */
  readonly seats: readonly SeatCount[] | undefined;
}

function repGroups(rep: SeatToolSource & { seats: readonly SeatCount[] }): SeatToolRep[] {
  const base = {
    rep_id: rep.id,
    arm: rep.arm,
    scenario: rep.scenario,
    ...(rep.model === undefined ? {} : { model: rep.model }),
    verdict: rep.verdict,
  };
  const groups = new Map<string, SeatToolRep>([
    [
      CONTROLLER_GROUP,
      { ...base, group: CONTROLLER_GROUP, seats: 1, resumes: 0, tool_calls: rep.toolUses },
    ],
  ]);
  for (const seat of rep.seats) {
    const group = seatGroupOf(seat);
    const known = groups.get(group) ?? { ...base, group, seats: 0, resumes: 0, tool_calls: 0 };
    groups.set(group, {
      ...known,
      seats: known.seats + 1,
      resumes: known.resumes + seat.resumes,
      tool_calls: known.tool_calls + seat.toolCalls,
    });
  }
  return [...groups.values()];
}

/**
 * The seat figures of the full-session reps (`stop: complete`), in the
 * order given (the report's rep order); undefined when no rep ran a full
 * session. `arms` orders the cells.
 */
export function seatToolSummary(
  reps: readonly SeatToolSource[],
  arms: readonly string[],
): SeatTools | undefined {
  const full = reps.filter((rep) => rep.stop === 'complete');
  if (full.length === 0) return undefined;
  const counted = full.filter(
    (rep): rep is SeatToolSource & { seats: readonly SeatCount[] } => rep.seats !== undefined,
  );
  const rows = counted.flatMap(repGroups);
  const groups = [...new Set([CONTROLLER_GROUP, ...rows.map((row) => row.group)])];
  const cellKeys = [
    ...new Map(
      full.map((rep) => [
        `${rep.scenario}\u0000${rep.model ?? ''}\u0000${rep.arm}`,
        { scenario: rep.scenario, model: rep.model, arm: rep.arm },
      ]),
    ).values(),
  ];
  const scenarios = [...new Set(full.map((rep) => rep.scenario))];
  cellKeys.sort(
    (a, b) =>
      scenarios.indexOf(a.scenario) - scenarios.indexOf(b.scenario) ||
      (a.model ?? '').localeCompare(b.model ?? '') ||
      arms.indexOf(a.arm) - arms.indexOf(b.arm),
  );
  const cells: SeatToolCell[] = [];
  for (const key of cellKeys) {
    const decided = counted.filter(
      (rep) =>
        rep.scenario === key.scenario &&
        rep.arm === key.arm &&
        rep.model === key.model &&
        rep.verdict !== 'indeterminate',
    );
    const scenarioGroups = new Set(
      rows.filter((row) => row.scenario === key.scenario).map((row) => row.group),
    );
    for (const group of groups.filter((name) => scenarioGroups.has(name))) {
      const own = decided.map((rep) =>
        rows.find((row) => row.rep_id === rep.id && row.group === group),
      );
      const values = own.map((row) => row?.tool_calls ?? 0);
      cells.push({
        scenario: key.scenario,
        arm: key.arm,
        ...(key.model === undefined ? {} : { model: key.model }),
        group,
        values,
        seats: own.reduce((sum, row) => sum + (row?.seats ?? 0), 0),
        resumes: own.reduce((sum, row) => sum + (row?.resumes ?? 0), 0),
        mean: mean(values),
        median: median(values),
        min: values.length === 0 ? null : Math.min(...values),
        max: values.length === 0 ? null : Math.max(...values),
      });
    }
  }
  // Every rep gets a row for every group its scenario has, 0 where it had no such seat,
  // so a spreadsheet's mean over seats.csv is the table's mean.
  const completeRows = counted.flatMap((rep) => {
    const own = rows.filter((row) => row.rep_id === rep.id);
    const scenarioGroups = new Set(
      rows.filter((row) => row.scenario === rep.scenario).map((row) => row.group),
    );
    return groups
      .filter((group) => scenarioGroups.has(group))
      .map(
        (group) =>
          own.find((row) => row.group === group) ?? {
            ...(own[0] as SeatToolRep),
            group,
            seats: 0,
            resumes: 0,
            tool_calls: 0,
          },
      );
  });
  return {
    rule: SEAT_GROUP_RULE,
    cells,
    reps: completeRows,
    unrecorded: full.filter((rep) => rep.seats === undefined).map((rep) => rep.id),
  };
}
