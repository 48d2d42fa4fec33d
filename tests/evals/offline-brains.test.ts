/**
 * The offline pieces an evals run stands on, as pure functions: the
 * task-follower brain's reading of a request and of a skill's rules; the
 * judge-keywords judge (mirrors checks, decides the items no check decides
 * by the item's words in one evidence line, never decides an absence); the
 * prompt as material (context, never evidence); and agreement leaving out
 * the items the judge alone decides.
 */
import { describe, expect, it } from 'vitest';
import { compareRep } from '../../harness/judge/agreement.js';
import type { Judgement } from '../../harness/judge/judgement.js';
import { buildMaterial, type MaterialParts } from '../../harness/judge/material.js';
import { judgeTurn } from '../../harness/model-server/judge-policies.js';
import type { RepScore } from '../../harness/score/score-rep.js';
import { requestedFiles, taskRules } from '../../packs/skill-triggering/brains/task-follower.js';

describe('task-follower', () => {
  it('reads the files a request names with their content, and nothing it cannot', () => {
    expect(requestedFiles('Save a note: create `notes/todo.txt` containing `buy milk`.')).toEqual([
      { path: 'notes/todo.txt', content: 'buy milk' },
    ]);
    expect(
      requestedFiles('Write "a.md" with the text "x", then make `b.txt` that says `y`'),
    ).toEqual([
      { path: 'a.md', content: 'x' },
      { path: 'b.txt', content: 'y' },
    ]);
    expect(
      requestedFiles('Create `/etc/passwd` containing `x` and `../up.txt` containing `y`'),
    ).toEqual([]);
    expect(requestedFiles('Summarise the agenda.')).toEqual([]);
  });
  it("reads a skill's rules on files and replies, and none from a text without them", () => {
    const rules = taskRules(
      '- End every file you write with the line `-- filed`.\n- Mention `Saved.` in your reply.\n- Run `ls` after writing a file.',
    );
    expect(rules).toEqual({
      firstLine: undefined,
      lastLine: '-- filed',
      replyEnd: undefined,
      mentions: ['Saved.'],
      runAfter: ['ls'],
    });
    expect(taskRules(undefined)).toEqual({
      firstLine: undefined,
      lastLine: undefined,
      replyEnd: undefined,
      mentions: [],
      runAfter: [],
    });
  });
});

const parts: MaterialParts = {
  reply: 'Wrote `notes/agenda.txt`.\nSaved.',
  capturedDispatch: null,
  toolCalls: [],
  before: undefined,
  after: undefined,
  filesBefore: undefined,
  filesAfter: undefined,
  skillText: undefined,
  prompt: 'Please sign the note as filed away in the notes folder',
};

describe('judge-keywords', () => {
  const turn = (
    material: string,
    rubric: Record<string, string>,
    checks: Record<string, 'pass' | 'fail' | 'undecided' | 'judge'>,
  ) => {
    const answer = judgeTurn({
      policy: 'judge-keywords',
      sessionKey: 'k',
      seed: undefined,
      turn: 1,
      checks,
      itemIds: Object.keys(rubric),
      material,
      rubric,
    });
    if (answer.kind !== 'tool') throw new Error('no tool answer');
    return (answer.input as { items: { id: string; verdict: string; quote: string }[] }).items;
  };
  it('mirrors a check, and decides an item no check decides by its words in one evidence line', () => {
    const signed = buildMaterial(
      { ...parts, reply: 'Wrote the note.\n-- filed away in the notes folder' },
      ['prompt', 'reply'],
    ).text;
    const items = turn(
      signed,
      { e1: 'The file exists', e2: 'The note is signed as filed away' },
      { e1: 'fail', e2: 'judge' },
    );
    expect(items.map((item) => [item.id, item.verdict])).toEqual([
      ['e1', 'fail'],
      ['e2', 'pass'],
    ]);
    expect(items[1]?.quote).toBe('-- filed away in the notes folder');
  });
  it('fails an item whose words the evidence lacks, ignores the prompt, and never decides an absence', () => {
    const unsigned = buildMaterial(parts, ['prompt', 'reply']).text;
    const items = turn(
      unsigned,
      { e2: 'The note is signed as filed away', e3: 'The reply does not invent facts' },
      { e2: 'judge', e3: 'judge' },
    );
    expect(items.map((item) => [item.id, item.verdict])).toEqual([
      ['e2', 'fail'],
      ['e3', 'unsure'],
    ]);
  });
});

describe('the prompt as material', () => {
  it('is shown for context, blinded, and is no evidence', () => {
    const material = buildMaterial(
      { ...parts, prompt: 'Use /tmp/redgreen-run-abc123/rep-1/skills/notes' },
      ['prompt', 'reply'],
    );
    expect(material.text).toContain("The user's request");
    expect(material.text).toContain('<skills>/notes');
    expect(material.evidence.map((part) => part.label)).toEqual(['reply']);
  });
});

describe('agreement with judge-decided items', () => {
  const score = (
    outcomes: Record<string, { verb: string; outcome: 'pass' | 'fail' | 'undecided' }>,
  ): RepScore => ({
    schemaVersion: 2,
    scenario: 's',
    verdict: 'pass',
    reasons: [],
    wouldFail: [],
    runner: { kind: 'completed' },
    values: {},
    pre: [],
    checks: Object.entries(outcomes).map(([id, { verb, outcome }]) => ({
      id,
      verb,
      params: {},
      outcome,
      detail: `${id}: x`,
    })),
    observations: [],
    notAssessed: [],
  });
  const judgement = (verdicts: Record<string, 'pass' | 'fail' | 'unsure'>): Judgement => ({
    schemaVersion: 1,
    rep: 'r',
    key: 'a'.repeat(64),
    rubricHash: 'h',
    materialHash: 'm',
    model: { requested: 'scripted:judge-keywords', reported: null, scripted: true, endpoint: null },
    status: 'judged',
    error: null,
    verdict: Object.values(verdicts).includes('fail')
      ? 'fail'
      : Object.values(verdicts).includes('unsure')
        ? 'unsure'
        : 'pass',
    items: Object.entries(verdicts).map(([id, verdict]) => ({
      id,
      verdict,
      answered: verdict,
      quote: 'q q q',
      quoteFound: true,
      quotePart: 'reply',
      rationale: 'r',
    })),
    attempts: 1,
    invalidAnswers: [],
    tokens: null,
    tokensEstimated: true,
    costUsd: null,
    pricingAsOf: 'x',
    judgedAt: 'x',
  });
  it('compares only the items a check of its own decides', () => {
    const rep = score({
      e1: { verb: 'file-exists', outcome: 'pass' },
      e2: { verb: 'judged', outcome: 'fail' },
    });
    const compared = compareRep(rep, judgement({ e1: 'pass', e2: 'fail' }));
    expect([compared.checks, compared.judge, compared.agreement]).toEqual([
      'pass',
      'pass',
      'agree',
    ]);
    expect(compareRep(rep, judgement({ e1: 'fail', e2: 'pass' })).agreement).toBe('disagree');
    const judgedOnly = compareRep(
      score({ e2: { verb: 'judged', outcome: 'pass' } }),
      judgement({ e2: 'pass' }),
    );
    expect(judgedOnly.agreement).toBe('not-compared');
  });
});
