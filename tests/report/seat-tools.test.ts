/**
 * Per-seat tool counts: what a rep records in meta.json (seat-counts.ts),
 * read from a recorded full session (tests/report/fixtures/full-session:
 * the messages backend, the scripted full-controller and full-fresh-fixer
 * against the local model server, machine paths replaced by /checkout/…),
 * and the report's figures by seat group (seat-tools.ts, results.md,
 * seats.csv). Expected counts are computed here from the transcript's own
 * lines, apart from the code under test.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seatToolsCsv } from '../../harness/report/csv.js';
import type { ResultsModel } from '../../harness/report/results-schema.js';
import {
  type SeatToolSource,
  seatGroupOf,
  seatToolSummary,
} from '../../harness/report/seat-tools.js';
import { seatToolsSection, seatToolsTable } from '../../harness/report/seat-tools-markdown.js';
import { repMetaSchema } from '../../harness/results/rep-meta.js';
import { refreshedSeatCounts, seatCountsOf } from '../../harness/results/seat-counts.js';

const fixtures = path.join(import.meta.dirname, 'fixtures', 'full-session');
const controllerTranscript = readFileSync(
  path.join(fixtures, 'full-controller.transcript.jsonl'),
  'utf8',
);
const freshFixerTranscript = readFileSync(
  path.join(fixtures, 'full-fresh-fixer.transcript.jsonl'),
  'utf8',
);

/** tool_use ids by the seat that made them, read straight from the lines: `controller` or the dispatch id. */
function callsBySeat(text: string): Map<string, Set<string>> {
  const bySeat = new Map<string, Set<string>>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const message = JSON.parse(line) as {
      type: string;
      parent_tool_use_id?: string | null;
      message?: { content?: { type: string; id?: string }[] };
    };
    if (message.type !== 'assistant') continue;
    const seat = message.parent_tool_use_id ?? 'controller';
    for (const block of message.message?.content ?? []) {
      if (block.type !== 'tool_use' || block.id === undefined) continue;
      const ids = bySeat.get(seat) ?? new Set();
      ids.add(block.id);
      bySeat.set(seat, ids);
    }
  }
  return bySeat;
}

describe('per-seat tool counts in the rep record', () => {
  it('counts every seat of a full session, with its dispatch, description and resumes', () => {
    const seats = seatCountsOf(controllerTranscript);
    const expected = callsBySeat(controllerTranscript);
    expect(seats?.map((seat) => [seat.agentId, seat.description, seat.resumes])).toEqual([
      ['agent-1', 'Implement Task 1: Greeting function', 0],
      ['agent-2', 'Review Task 1: Greeting function', 0],
      ['agent-3', 'Implement Task 2: Farewell function', 1],
      ['agent-4', 'Review Task 2: Farewell function', 0],
      ['agent-5', 'Review Task 2: Farewell function', 0],
    ]);
    for (const seat of seats ?? []) {
      expect(seat.toolCalls).toBe(expected.get(seat.dispatch)?.size);
      expect(seat.toolCalls).toBeGreaterThan(0);
    }
  });

  it('counts the seats Claude Code stream-json implies (derived from parent_tool_use_id) alike', () => {
    const text = readFileSync(path.join(fixtures, 'full-controller.claude-code.jsonl'), 'utf8');
    const seats = seatCountsOf(text);
    const expected = callsBySeat(text);
    expect(seats?.map((seat) => [seat.description, seat.resumes])).toEqual([
      ['Implement Task 1: Greeting function', 0],
      ['Review Task 1: Greeting function', 0],
      ['Implement Task 2: Farewell function', 1],
      ['Review Task 2: Farewell function', 0],
      ['Review Task 2: Farewell function', 0],
    ]);
    for (const seat of seats ?? []) expect(seat.toolCalls).toBe(expected.get(seat.dispatch)?.size);
  });

  it('records no seats for a session without subagents, and nothing for an unreadable transcript', () => {
    const controllerOnly = controllerTranscript
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.includes('"subtype":"subagent_'))
      .filter(
        (line) => (JSON.parse(line) as { parent_tool_use_id?: unknown }).parent_tool_use_id == null,
      )
      .join('\n');
    expect(seatCountsOf(controllerOnly)).toEqual([]);
    expect(seatCountsOf('not a transcript')).toBeUndefined();
  });

  it('meta.json is schema-checked with seats, and still read without them (older records)', () => {
    const meta = JSON.parse(
      readFileSync(path.join(import.meta.dirname, 'fixtures', 'full-session', 'meta.json'), 'utf8'),
    ) as Record<string, unknown>;
    const seats = seatCountsOf(controllerTranscript);
    expect(repMetaSchema.parse({ ...meta, seats }).seats).toEqual(seats);
    expect(repMetaSchema.parse(meta).seats).toBeUndefined();
    expect(() =>
      repMetaSchema.parse({ ...meta, seats: [{ ...seats?.[0], toolCalls: -1 }] }),
    ).toThrow();
    expect(() => repMetaSchema.parse({ ...meta, seats: [{ ...seats?.[0], extra: 1 }] })).toThrow();
  });

  it('a rescore rewrites seats only when they are missing or disagree with the transcript', () => {
    const seats = seatCountsOf(controllerTranscript);
    expect(refreshedSeatCounts(undefined, controllerTranscript)).toEqual(seats);
    expect(refreshedSeatCounts(seats, controllerTranscript)).toBeUndefined();
    const wrong = seats?.map((seat, index) => (index === 0 ? { ...seat, toolCalls: 99 } : seat));
    expect(refreshedSeatCounts(wrong, controllerTranscript)).toEqual(seats);
    expect(refreshedSeatCounts(undefined, 'not a transcript')).toBeUndefined();
  });
});

describe('seat groups', () => {
  it('collapse task numbers and titles, keep the subagent_type, and fall back to it alone', () => {
    expect(
      seatGroupOf({
        subagentType: 'general-purpose',
        description: 'Implement Task 2: Farewell function',
      }),
    ).toBe('Implement Task N · general-purpose');
    expect(seatGroupOf({ subagentType: 'code-reviewer', description: 'Review Task 12' })).toBe(
      'Review Task N · code-reviewer',
    );
    expect(
      seatGroupOf({ subagentType: 'general-purpose', description: 'Fix Task 3 — Re-export names' }),
    ).toBe('Fix Task N · general-purpose');
    expect(seatGroupOf({ subagentType: 'general-purpose', description: 'Re-review Task 3' })).toBe(
      'Re-review Task N · general-purpose',
    );
    expect(seatGroupOf({ subagentType: 'general-purpose', description: null })).toBe(
      'general-purpose',
    );
    expect(seatGroupOf({ subagentType: null, description: '' })).toBe('subagent');
  });
});

function source(
  id: string,
  arm: string,
  text: string,
  verdict: SeatToolSource['verdict'],
): SeatToolSource {
  const controller = callsBySeat(text).get('controller')?.size ?? 0;
  return {
    id,
    arm,
    scenario: 'full-greetings',
    verdict,
    stop: 'complete',
    toolUses: controller,
    seats: seatCountsOf(text),
  };
}

describe('tool calls by seat group in the report', () => {
  const resumed = callsBySeat(controllerTranscript);
  const fresh = callsBySeat(freshFixerTranscript);
  const reps = [
    source('red/full-greetings-rep1', 'red', freshFixerTranscript, 'fail'),
    source('red/full-greetings-rep2', 'red', freshFixerTranscript, 'indeterminate'),
    source('green/full-greetings-rep1', 'green', controllerTranscript, 'pass'),
  ];
  const summary = seatToolSummary(reps, ['red', 'green']);

  it('gives each cell and group its calls per decided rep, mean, median and range', () => {
    if (summary === undefined) throw new Error('no seat figures');
    const cell = (arm: string, group: string) =>
      summary.cells.find((one) => one.arm === arm && one.group === group);
    // The controller row is the controller's own calls.
    expect(cell('green', 'controller')?.values).toEqual([resumed.get('controller')?.size]);
    // The indeterminate red rep is left out; the decided one counts.
    expect(cell('red', 'controller')?.values).toEqual([fresh.get('controller')?.size]);
    const seats = seatCountsOf(controllerTranscript) ?? [];
    const implementers = seats.filter((seat) => seat.description?.startsWith('Implement'));
    expect(cell('green', 'Implement Task N · general-purpose')).toMatchObject({
      values: [implementers.reduce((sum, seat) => sum + seat.toolCalls, 0)],
      seats: 2,
    });
    expect(cell('green', 'Review Task N · general-purpose')?.seats).toBe(3);
    // The fresh fixer's group exists only in red; green's rep counts 0 for it.
    expect(cell('red', 'Fix Task N · general-purpose')?.seats).toBe(1);
    expect(cell('green', 'Fix Task N · general-purpose')).toMatchObject({
      values: [0],
      seats: 0,
      mean: 0,
    });
  });

  it('computes mean, median and range over several reps', () => {
    const two = seatToolSummary(
      [
        { ...reps[2], id: 'a', toolUses: 4 } as SeatToolSource,
        { ...reps[2], id: 'b', toolUses: 10 } as SeatToolSource,
        { ...reps[2], id: 'c', toolUses: 7 } as SeatToolSource,
        { ...reps[2], id: 'd', toolUses: 30, verdict: 'indeterminate' } as SeatToolSource,
      ],
      ['green'],
    );
    expect(two?.cells.find((cell) => cell.group === 'controller')).toMatchObject({
      values: [4, 10, 7],
      mean: 7,
      median: 7,
      min: 4,
      max: 10,
    });
  });

  it('is absent without full sessions, and lists full-session reps recorded without seats', () => {
    expect(seatToolSummary([{ ...reps[0], stop: 'report' } as SeatToolSource], ['red'])).toBe(
      undefined,
    );
    const old = seatToolSummary(
      [{ ...reps[2], seats: undefined } as SeatToolSource, reps[0] as SeatToolSource],
      ['red', 'green'],
    );
    expect(old?.unrecorded).toEqual(['green/full-greetings-rep1']);
    expect(seatToolsSection({ seatTools: old } as ResultsModel).join('\n')).toContain(
      '1 full-session rep(s) were recorded before per-seat counts and are not in these figures (green/full-greetings-rep1): `redgreen score <dir>` adds them',
    );
    expect(old?.cells.find((cell) => cell.arm === 'green')?.values).toEqual([]);
  });

  it('prints a table per scenario in results.md and one row per rep and group in seats.csv', () => {
    if (summary === undefined) throw new Error('no seat figures');
    const model = { seatTools: summary } as ResultsModel;
    const markdown = seatToolsSection(model).join('\n');
    expect(markdown).toContain('## Tool calls by seat\n\n### full-greetings\n');
    const controllerRow = `| controller | GREEN | 1 | 1 | 0 | ${resumed.get('controller')?.size} |`;
    expect(markdown).toContain(controllerRow);
    const csv = seatToolsCsv(model) ?? '';
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe('rep_id,arm,scenario,model,verdict,group,seats,resumes,tool_calls');
    expect(lines).toContain(
      `green/full-greetings-rep1,green,full-greetings,,pass,Implement Task N · general-purpose,2,1,${seatCountsOf(
        controllerTranscript,
      )
        ?.filter((seat) => seat.description?.startsWith('Implement'))
        .reduce((sum, seat) => sum + seat.toolCalls, 0)}`,
    );
    // A rep with no seat of a group its scenario has gets a 0 row, as the table counts it.
    expect(lines).toContain(
      'green/full-greetings-rep1,green,full-greetings,,pass,Fix Task N · general-purpose,0,0,0',
    );
    const groupsPerRep = new Map<string, number>();
    for (const line of lines.slice(1)) {
      const rep = line.split(',')[0] ?? '';
      groupsPerRep.set(rep, (groupsPerRep.get(rep) ?? 0) + 1);
    }
    expect(new Set(groupsPerRep.values()).size).toBe(1);
    expect(seatToolsCsv({} as ResultsModel)).toBeUndefined();
  });
});

describe('the README sample', () => {
  it('is the table the recorded sessions give (RED the fresh fixer, GREEN the resuming controller)', () => {
    const summary = seatToolSummary(
      [
        {
          ...source('red/x-rep1', 'red', freshFixerTranscript, 'fail'),
          scenario: 'full-greetings',
        },
        {
          ...source('green/x-rep1', 'green', controllerTranscript, 'pass'),
          scenario: 'full-greetings',
        },
      ],
      ['red', 'green'],
    );
    if (summary === undefined) throw new Error('no seat figures');
    const readme = readFileSync(path.join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    expect(readme).toContain(
      `### full-greetings\n\n${seatToolsTable(summary, 'full-greetings')}\n`,
    );
  });
});
