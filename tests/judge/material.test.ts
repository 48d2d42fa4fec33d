import { describe, expect, it } from 'vitest';
import { DEFAULT_MATERIAL } from '../../harness/judge/judge-spec.js';
import { buildMaterial, type MaterialParts } from '../../harness/judge/material.js';

const sha = (char: string): string => char.repeat(64);
const head = (char: string): string => char.repeat(40);

const parts: MaterialParts = {
  reply: 'LEDGERS CHECKED: none\nFIRST DISPATCH: Task 1',
  capturedDispatch: null,
  toolCalls: [
    { id: 't1', name: 'Bash', input: { command: 'git log --oneline' }, parentToolUseId: null },
    {
      id: 't2',
      name: 'Agent',
      input: { description: 'Implement Task 1', prompt: 'Implement Task 1 (Export data model)' },
      parentToolUseId: null,
    },
    { id: 't3', name: 'Read', input: { file_path: '/repo/brief.md' }, parentToolUseId: 't2' },
  ],
  before: {
    head: head('a'),
    branch: 'main',
    refs: { 'refs/heads/main': head('a') },
    files: {
      'ledger.md': { sha256: sha('1'), size: 10, tracked: false },
      'gone.txt': { sha256: sha('2'), size: 4, tracked: true },
      'same.txt': { sha256: sha('3'), size: 4, tracked: true },
    },
  },
  after: {
    head: head('b'),
    branch: 'main',
    refs: { 'refs/heads/main': head('b') },
    files: {
      'ledger.md': { sha256: sha('4'), size: 12, tracked: false },
      'new.py': { sha256: sha('5'), size: 6, tracked: true },
      'same.txt': { sha256: sha('3'), size: 4, tracked: true },
    },
  },
  filesBefore: { 'ledger.md': { text: 'Task 1: todo\nTask 2: todo\n' } },
  filesAfter: {
    'ledger.md': { text: 'Task 1: done\nTask 2: todo\n' },
    'new.py': { text: 'x = 1\n' },
  },
  skillText: 'THE SKILL TEXT UNDER TEST',
};

describe("a rep's material", () => {
  it('holds the reply, the dispatches, the tool calls with inputs and the diff, in a stable text', () => {
    const material = buildMaterial(parts, DEFAULT_MATERIAL);
    expect(material.text.startsWith('<material>\n')).toBe(true);
    expect(material.text.endsWith('</material>')).toBe(true);
    expect(material.text).toContain('FIRST DISPATCH: Task 1');
    expect(material.text).toContain('Dispatch 1: Agent (a new agent)');
    expect(material.text).toContain('"prompt": "Implement Task 1 (Export data model)"');
    expect(material.text).toContain('1. Bash {"command":"git log --oneline"}');
    expect(material.text).toContain('3. [inside a subagent] Read {"file_path":"/repo/brief.md"}');
    expect(material.text).toContain(`HEAD moved: ${head('a')} -> ${head('b')}`);
    expect(material.text).toContain('modified: ledger.md (untracked)');
    expect(material.text).toContain('-Task 1: todo\n+Task 1: done');
    expect(material.text).toContain('added: new.py (tracked)\n+x = 1');
    expect(material.text).toContain('removed: gone.txt (tracked)\n(its text before: not captured)');
    expect(material.text).not.toContain('same.txt');
    expect(buildMaterial(parts, DEFAULT_MATERIAL)).toEqual(material);
  });

  it('leaves the skill text out unless the scenario asks for it', () => {
    expect(buildMaterial(parts, DEFAULT_MATERIAL).text).not.toContain('THE SKILL TEXT UNDER TEST');
    expect(buildMaterial(parts, [...DEFAULT_MATERIAL, 'skill']).text).toContain(
      'THE SKILL TEXT UNDER TEST',
    );
  });

  it('changes its hash when anything the judge sees changes', () => {
    const a = buildMaterial(parts, DEFAULT_MATERIAL);
    const b = buildMaterial({ ...parts, reply: `${parts.reply}.` }, DEFAULT_MATERIAL);
    const c = buildMaterial(parts, ['reply']);
    expect(new Set([a.hash, b.hash, c.hash]).size).toBe(3);
  });

  it('says what is unknown when the transcript or snapshots are missing', () => {
    const material = buildMaterial(
      { ...parts, toolCalls: undefined, before: undefined, after: undefined, reply: '' },
      DEFAULT_MATERIAL,
    );
    expect(material.text).toContain('(no reply text)');
    expect(material.text).toContain('(no transcript: dispatches unknown)');
    expect(material.text).toContain('(no transcript: tool calls unknown)');
    expect(material.text).toContain('(no snapshots: the changes are unknown)');
  });

  it('puts a captured first dispatch first and marks it', () => {
    const material = buildMaterial(
      {
        ...parts,
        toolCalls: [],
        capturedDispatch: {
          tool: 'Agent',
          toolUseId: 'toolu_x',
          input: { description: 'Implement Task 3', subagent_type: 'general-purpose' },
        },
      },
      ['dispatches'],
    );
    expect(material.text).toContain(
      'Dispatch 1: Agent (a new agent), captured: the session ended here and nothing ran',
    );
    expect(material.text).toContain('"subagent_type": "general-purpose"');
  });
});
