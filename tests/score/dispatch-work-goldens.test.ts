/**
 * What a dispatch is for is the work it asks for, not the first task number
 * it mentions: goldens from real dispatch prompts (the Codex worker thread in
 * ../shared/transcripts/, when present) and prompts in the shapes real
 * controllers write (the superpowers implementer, task-reviewer and
 * code-reviewer templates, a Codex spawn message), read against a plan
 * whose scenario declares no phrases, brief files or rules of its own, so
 * the generic reading alone decides. Each rule has a planted negative: the
 * same prompt without what the rule reads falls back to the first task
 * mentioned.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../harness/score/tool-call.js';
import { readSessionTranscript } from '../../harness/score/transcripts/read-transcript.js';
import { dispatchesWithTasks, tasksOf } from '../../packs/sdd/score/dispatch-tasks.js';
import type { PlanCatalogue } from '../../packs/sdd/score/plan-context.js';
import { repoRoot } from '../helpers/cli.js';
import { agent, scoreProbe } from './sdd-probe-support.js';

const PLAN = 'docs/plans/2026-07-17-metrics.md';
/** A plan as a scenario that says nothing about its dispatches declares it. */
const catalogue: PlanCatalogue = {
  [PLAN]: {
    aliases: ['the metrics plan'],
    tasks: { '1': 'Count formatter', '2': 'Duration formatter', '3': 'Summary line' },
  },
};

let next = 0;
function dispatch(prompt: string, description: string | null = null): ToolCall {
  next++;
  return {
    id: `toolu_work_${next}`,
    name: 'Agent',
    input: {
      subagent_type: 'general-purpose',
      prompt,
      ...(description === null ? {} : { description }),
    },
    parentToolUseId: null,
  };
}

function taskOf(prompt: string, description: string | null = null): number | 'none' | undefined {
  const [read] = dispatchesWithTasks([dispatch(prompt, description)], catalogue, [PLAN], []);
  const task = read === undefined ? undefined : tasksOf(read)[PLAN];
  return task?.ok === true ? task.value : undefined;
}

const parkedLedger = [
  'Ledger lines to triage:',
  '- Task 2: parked — formatDuration writes the seconds format out twice — ruling: cosmetic, pinned by tests',
  '- Task 3: minor (deferred): long function in summary.js',
  '',
  'Please triage the parked finding from Task 2 and decide whether it must be fixed before merge.',
].join('\n');

/** The code-reviewer template's shape, as a controller fills it in for the final review. */
const finalReview = (range: string) =>
  [
    'You are a Senior Code Reviewer with expertise in software architecture and best practices. Your job is to review completed work against its plan and identify issues before they cascade.',
    '',
    '## What Was Implemented',
    '',
    'Tasks 1-3 of the metrics plan: the count formatter, the duration formatter (with one parked finding) and the summary line.',
    '',
    '## Requirements / Plan',
    '',
    `Read ${PLAN}.`,
    '',
    range,
    '',
    parkedLedger,
  ].join('\n');

const sharedSeat = path.join(
  repoRoot,
  '..',
  'shared',
  'transcripts',
  'codex-rollout-sdd-seat.jsonl',
);
const haveSeat = existsSync(sharedSeat);
if (!haveSeat) {
  console.log(
    `skipping the real Codex dispatch golden: ${sharedSeat} is not here (../shared is absent)`,
  );
}

describe('a real dispatch prompt', () => {
  it.skipIf(!haveSeat)(
    'the Codex worker thread’s prompt is Task 3, though it goes on to name Task 1, Task 2 and a parked finding',
    () => {
      const read = readSessionTranscript(readFileSync(sharedSeat, 'utf8'), sharedSeat);
      if (!read.ok) throw new Error(read.error.problem);
      const prompt = read.value.prompt ?? '';
      expect(prompt).toMatch(/^You are implementing Task 3/);
      expect(prompt).toMatch(/Task 2 has one parked code-quality finding/);
      expect(taskOf(prompt)).toBe(3);
      // Without its opening line the brief it points at still says Task 3.
      expect(taskOf(prompt.replace(/^[^\n]*\n/, ''))).toBe(3);
    },
  );
});

describe('dispatches in the shapes real controllers write', () => {
  it('a final review of a git range is no task’s, though it quotes Task 2’s parked line first (was Task 2)', () => {
    for (const range of [
      '## Git Range to Review\n\n**Base:** 3f9c2a1\n**Head:** 8e4d7b0',
      '```bash\ngit diff --stat 3f9c2a1..8e4d7b0\ngit diff 3f9c2a1..8e4d7b0\n```',
      'Review everything in `origin/main...HEAD`.',
      '**Base:** [BASE_SHA]\n**Head:** [HEAD_SHA]',
    ]) {
      expect(taskOf(finalReview(range), 'Review code changes'), range).toBe('none');
    }
    // Planted negative: with no range and no other sign of its work, the first task named
    // decides (Task 1, by its title "the count formatter").
    expect(taskOf(finalReview('## Notes\n\nNothing else.'), 'Review code changes')).toBe(1);
  });

  it('a review of the whole branch asked for in the opening is no task’s', () => {
    const prompts = [
      `Review the whole branch before it merges, against ${PLAN}.\n\n${parkedLedger}`,
      `You are reviewing all the commits of the metrics plan on this branch.\n\n${parkedLedger}`,
      `CHILD TASK: review every commit on this branch against ${PLAN}. ${parkedLedger}`,
    ];
    for (const prompt of prompts) expect(taskOf(prompt), prompt).toBe('none');
    // Planted negative: an opening that asks for no review of the branch leaves the first task named.
    expect(taskOf(`Look at the notes below.\n\n${parkedLedger}`)).toBe(2);
  });

  it('an implementer is the task its opening names, not the earlier tasks its context describes', () => {
    const prompt = [
      'You are implementing Task 3: Summary line',
      '',
      '## Task Description',
      '',
      'Read your task brief first: .superpowers/sdd/task-3-brief.md',
      '',
      '## Context',
      '',
      'Task 1 already provides formatCount; Task 2 provides formatDuration, with one parked finding.',
    ].join('\n');
    expect(taskOf(prompt)).toBe(3);
    expect(taskOf(prompt, 'Implement Task 3: Summary line')).toBe(3);
  });

  it('a dispatch that opens with context is the task of the brief it points at (was the first task named)', () => {
    const prompt = [
      'Task 1 and Task 2 are done and committed; Task 2 has one parked finding in the ledger.',
      '',
      'Your requirements are in .superpowers/sdd/task-3-brief.md: read it first and implement exactly that.',
    ].join('\n');
    expect(taskOf(prompt)).toBe(3);
    // Planted negative: a report file is no brief; the first single task named decides.
    expect(taskOf(prompt.replace('task-3-brief.md', 'task-3-report.md'))).toBe(2);
    // Two tasks' briefs name no one task.
    expect(
      taskOf(
        prompt.replace('task-3-brief.md', 'task-3-brief.md and .superpowers/sdd/task-2-brief.md'),
      ),
    ).toBe(2);
  });

  it('a task reviewer with a range and a brief is the brief’s task, not the merge review it says comes later', () => {
    const prompt = [
      "You are reviewing one task's implementation: first whether it matches its requirements, then whether it is well-built. This is a task-scoped gate, not a merge review; a broad whole-branch review happens separately after all tasks are complete.",
      '',
      '## What Was Requested',
      '',
      'Read the task brief: .superpowers/sdd/task-2-brief.md',
      '',
      '## Diff Under Review',
      '',
      '**Base:** 3f9c2a1',
      '**Head:** 8e4d7b0',
    ].join('\n');
    expect(taskOf(prompt)).toBe(2);
    // Without the brief, a one-task review with a range is still not the branch's: the reading gives up.
    expect(
      taskOf(prompt.replace('Read the task brief: .superpowers/sdd/task-2-brief.md', '')),
    ).toBe(undefined);
  });

  it('a fix round and a re-review are the task their opening names, a range notwithstanding', () => {
    expect(
      taskOf(
        'Fix the two Important findings from the Task 2 review.\n\n**Base:** 3f9c2a1\n**Head:** 8e4d7b0',
      ),
    ).toBe(2);
    expect(
      taskOf('Re-review the fix for Task 2: git diff 3f9c2a1..8e4d7b0.\n\nTask 3 is not started.'),
    ).toBe(2);
  });
});

describe('through a shipped probe’s checks', () => {
  it('final-review-carries-parked passes the code-reviewer-shaped final review, whose description names no review of the branch', () => {
    const prompt = finalReview('## Git Range to Review\n\n**Base:** 3f9c2a1\n**Head:** 8e4d7b0')
      .replaceAll(PLAN, 'docs/plans/2026-09-08-step-report.md')
      .replace('the metrics plan', 'the step report plan');
    const score = scoreProbe('final-review-carries-parked', {
      calls: [agent({ description: 'Review code changes', prompt, model: 'opus' })],
    });
    expect(score.checks.find((check) => check.id === 'final-review')?.outcome).toBe('pass');
  });
});
