/**
 * A plan's ledger as the fix-loop chain texts write it (skills-under-test/
 * README.md, "Ledger lines the chain prescribes"), read line by line:
 *
 *   Task <N>: implementer <agent-id> on <model>
 *   Task <N>: fix round <R>/<C> (<X> addressed, <Y> open — <findings>; commits <a7>..<b7>)
 *   Task <N>: minor (deferred): <one line>
 *   Task <N>: parked — <finding> — ruling: <why>      (`Ruling:` in the rulings text)
 *   Task <N>: BLOCKED — <reason>
 *   [Task <N>: ]Ruling: <decision> — <why> — <cost>
 *   Task <N>: complete (commits <base7>..<head7>, <note>)
 *
 * Words are matched in any case, a list bullet in front is allowed, and the
 * dash may be an em dash, an en dash or one or two hyphens.
 */

export interface ImplementerLine {
  readonly task: number;
  readonly agent: string;
  readonly model: string;
}

export interface FixRoundLine {
  readonly task: number;
  readonly round: number;
  readonly cap: number;
  readonly open: number;
  /** The open findings' one-liners, as the line gives them. */
  readonly findings: string;
  /** `<a7>..<b7>`, when the line cites it. */
  readonly range: string | undefined;
}

export interface CompleteLine {
  readonly task: number;
  readonly range: string | undefined;
}

export interface TaskLine {
  readonly task: number;
  readonly line: string;
}

export interface ChainLedger {
  readonly implementers: readonly ImplementerLine[];
  readonly rounds: readonly FixRoundLine[];
  readonly completes: readonly CompleteLine[];
  readonly minors: readonly TaskLine[];
  readonly parked: readonly TaskLine[];
  readonly blocked: readonly TaskLine[];
  /** Ruling lines, with the task they settle when they name one. */
  readonly rulings: readonly { readonly task: number | undefined; readonly line: string }[];
}

const DASH = '(?:—|–|-{1,2})';
const LEAD = '^\\s*(?:[-*]\\s*)?';
const IMPLEMENTER = new RegExp(
  `${LEAD}Task\\s+(\\d+)\\s*:\\s*implementer\\s+(\\S+)\\s+on\\s+(\\S+)`,
  'i',
);
const FIX_ROUND = new RegExp(
  `${LEAD}Task\\s+(\\d+)\\s*:\\s*fix\\s+round\\s+(\\d+)\\s*/\\s*(\\d+)\\s*\\((.*)\\)\\s*$`,
  'i',
);
const OPEN_COUNT = /(\d+)\s+open\b/i;
const OPEN_FINDINGS = new RegExp(
  `\\bopen\\s*${DASH}\\s*(.*?)(?:;\\s*commits?\\s+([0-9a-f]{4,40}\\.\\.[0-9a-f]{4,40}))?\\s*$`,
  'i',
);
const CITED_RANGE = /commits?\s+([0-9a-f]{4,40}\.\.[0-9a-f]{4,40})/i;
const COMPLETE = new RegExp(`${LEAD}Task\\s+(\\d+)\\s*:\\s*complete\\b(.*)$`, 'i');
const MINOR = new RegExp(`${LEAD}Task\\s+(\\d+)\\s*:\\s*minor\\s*\\(deferred\\)`, 'i');
const PARKED = new RegExp(`${LEAD}Task\\s+(\\d+)\\s*:\\s*parked\\s*${DASH}`, 'i');
const BLOCKED = new RegExp(`${LEAD}Task\\s+(\\d+)\\s*:\\s*BLOCKED\\b`, 'i');
const RULING = new RegExp(`${LEAD}(?:Task\\s+(\\d+)\\s*:\\s*)?Ruling\\s*:`, 'i');

export function parseChainLedger(text: string): ChainLedger {
  const ledger = {
    implementers: [] as ImplementerLine[],
    rounds: [] as FixRoundLine[],
    completes: [] as CompleteLine[],
    minors: [] as TaskLine[],
    parked: [] as TaskLine[],
    blocked: [] as TaskLine[],
    rulings: [] as { task: number | undefined; line: string }[],
  };
  for (const raw of text.replace(/^\uFEFF/, '').split('\n')) {
    const line = raw.trimEnd();
    const implementer = IMPLEMENTER.exec(line);
    const round = FIX_ROUND.exec(line);
    const complete = COMPLETE.exec(line);
    if (implementer !== null) {
      ledger.implementers.push({
        task: Number(implementer[1]),
        agent: implementer[2] ?? '',
        model: (implementer[3] ?? '').replace(/[.,;]+$/, ''),
      });
    } else if (round !== null) {
      const inside = round[4] ?? '';
      const findings = OPEN_FINDINGS.exec(inside);
      ledger.rounds.push({
        task: Number(round[1]),
        round: Number(round[2]),
        cap: Number(round[3]),
        open: Number(OPEN_COUNT.exec(inside)?.[1] ?? 0),
        findings: findings?.[1]?.trim() ?? '',
        range: findings?.[2] ?? CITED_RANGE.exec(inside)?.[1],
      });
    } else if (complete !== null) {
      ledger.completes.push({
        task: Number(complete[1]),
        range: CITED_RANGE.exec(complete[2] ?? '')?.[1],
      });
    } else {
      const task = (pattern: RegExp): number | undefined => {
        const found = pattern.exec(line);
        return found === null ? undefined : Number(found[1]);
      };
      const minor = task(MINOR);
      const parked = task(PARKED);
      const blocked = task(BLOCKED);
      const ruling = RULING.exec(line);
      if (minor !== undefined) ledger.minors.push({ task: minor, line: line.trim() });
      else if (parked !== undefined) ledger.parked.push({ task: parked, line: line.trim() });
      else if (blocked !== undefined) ledger.blocked.push({ task: blocked, line: line.trim() });
      else if (ruling !== null) {
        ledger.rulings.push({
          task: ruling[1] === undefined ? undefined : Number(ruling[1]),
          line: line.trim(),
        });
      }
    }
  }
  return ledger;
}

/** The task's fix rounds, in ledger order. */
export function roundsOf(ledger: ChainLedger, task: number): readonly FixRoundLine[] {
  return ledger.rounds.filter((round) => round.task === task);
}

/** The agent the task's latest `implementer` line names. */
export function latestImplementer(ledger: ChainLedger, task: number): ImplementerLine | undefined {
  return ledger.implementers.filter((line) => line.task === task).at(-1);
}

/** The commit a task started from: the end of the latest completed task's range before it. */
export function taskBase(ledger: ChainLedger, task: number): string | undefined {
  const before = ledger.completes.filter((line) => line.task < task && line.range !== undefined);
  const first = roundsOf(ledger, task)[0]?.range;
  return before.at(-1)?.range?.split('..')[1] ?? first?.split('..')[0];
}
