/**
 * The core names no skill: no file under harness/ says plan, plans, planned,
 * task, tasks, ledger or ledgers (SDD's vocabulary) in code, comments or
 * strings. Identifiers are split into words at camelCase, snake_case and
 * kebab-case, so `ownPlan`, `TASK_FOLLOWER` and `plan-names` all count. That
 * knowledge belongs to packs/sdd/; a harness concept that used one of these
 * words has a harness name (the schedule of a run, the rep journal).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');

const SKILL_WORDS = new Set(['plan', 'plans', 'planned', 'task', 'tasks', 'ledger', 'ledgers']);

/**
 * The only exact tokens a core file may hold that contain one of the words,
 * each with why the core must keep it. A token passes only as written here;
 * anything around or inside it (`'Tasks'`, `ledgerFile`) is still read.
 */
const ALLOWED_TOKENS: readonly { readonly pattern: RegExp; readonly reason: string }[] = [
  {
    pattern: /\bledger\.jsonl\b/g,
    reason:
      'the results file name (the rep journal), kept so existing results directories resume and merge',
  },
  {
    pattern:
      /(['"`])(?:task_started|task_updated|background_tasks_changed)\1|\b(?:task_id|task_type|task_complete|followup_task|task_name)\b|\bmessage\.tasks\b/g,
    reason:
      "the Agent SDK's own system-message subtypes and fields (task_started, task_id, message.tasks …) and Codex's rollout events and tool arguments (task_complete, followup_task, task_name): engine facts",
  },
  {
    // Only as a property: a key (`planned:`) or a member (`.planned`); a
    // local, a parameter, a comment or a message saying "planned" is read.
    pattern: /(?<=\.)planned\b|\bplanned(?=\??\s*:)/g,
    reason:
      'the `planned` count of results.json and of gate/report/diff/list --json: documented output formats scripts read',
  },
];

/**
 * Tokens kept in one file only, each with why. Evals imports write these
 * into generated scenarios whose campaign identity hashes the prompt and its
 * variables: renaming them would orphan existing evals results directories
 * and change what a model is told.
 */
const FILE_TOKENS: readonly {
  readonly file: string;
  readonly pattern: RegExp;
  readonly reason: string;
}[] = [
  {
    file: 'harness/evals/write-campaign.ts',
    pattern:
      /\{\{task\}\}|\btask(?=: (?:item|query)\.)|The skill for this task is in|wrote for this task\./g,
    reason:
      "the evals prompt's {{task}} variable and the two sentences a model and a judge are given, word for word",
  },
];

/**
 * Claude Code's own tool names (and Codex's update_plan), quoted as strings:
 * facts about the engines. They pass only in the files that read or offer
 * engine tools (transcripts, dispatch capture, the tool tables, the scripted
 * brains' calls, the judge's material); a quoted 'Task' anywhere else is read.
 */
const ENGINE_TOOL_NAMES =
  /(['"`])(?:Task(?:Create|Update|List|Get|Output|Stop)?|EnterPlanMode|ExitPlanMode|update_plan)\1/g;
const ENGINE_TOOL_NAME_FILES: ReadonlySet<string> = new Set([
  'harness/judge/material.ts',
  'harness/model-server/data-policy/session-fit.ts',
  'harness/model-server/policies/program.ts',
  'harness/model-server/policies/tools.ts',
  'harness/model-server/responses/codex-tools.ts',
  'harness/model-server/responses/input-view.ts',
  'harness/score/dispatches.ts',
  'harness/score/event-selector.ts',
  'harness/score/evidence.ts',
  'harness/score/seat-record.ts',
  'harness/score/session-events.ts',
  'harness/score/tool-call.ts',
  'harness/score/transcripts/claude-message-seats.ts',
  'harness/score/transcripts/claude-messages.ts',
  'harness/score/transcripts/codex-tools.ts',
  'harness/score/transcripts/stream-json.ts',
  'harness/score/verbs/dispatch.ts',
  'harness/session/claude-code-backend.ts',
  'harness/session/claude-code-capture.ts',
  'harness/session/claude-code-seat-watch.ts',
  'harness/session/codex-capture.ts',
  'harness/session/dispatch-capture.ts',
  'harness/session/messages-backend.ts',
  'harness/session/model-tiers.ts',
  'harness/session/session-tool-table.ts',
  'harness/session/session-types.ts',
  'harness/session/subagent-seats.ts',
  'harness/session/tools/dispatch-tools.ts',
  'harness/session/tools/session-tools.ts',
]);

/** Every room of the core (first path segment under harness/); each must count 0. */
const ROOMS_CLEARED: readonly string[] = [
  'authoring',
  'campaign',
  'check',
  'cli',
  'cli.ts',
  'estimate',
  'evals',
  'export',
  'fixture',
  'judge',
  'judging',
  'lib',
  'library',
  'model-server',
  'pack',
  'report',
  'results',
  'run',
  'sandbox',
  'scenario',
  'schedule',
  'score',
  'session',
];

interface SkillWordHit {
  readonly file: string;
  readonly line: number;
  readonly word: string;
}

/** The words of one line of `file`: allowed tokens removed, split at non-letters and case changes. */
function wordsOf(file: string, line: string): string[] {
  let text = line;
  for (const { pattern } of ALLOWED_TOKENS) text = text.replace(pattern, ' ');
  if (ENGINE_TOOL_NAME_FILES.has(file)) text = text.replace(ENGINE_TOOL_NAMES, ' ');
  for (const entry of FILE_TOKENS) {
    if (entry.file === file) text = text.replace(entry.pattern, ' ');
  }
  const words: string[] = [];
  for (const run of text.match(/[A-Za-z0-9]+/g) ?? []) {
    // fooBar → foo Bar; HTMLParser → HTML Parser; TASK stays one word.
    const split = run
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
    for (const word of split.split(' ')) if (word !== '') words.push(word);
  }
  return words;
}

/** Every skill word in a text, by line. */
function skillWordsIn(file: string, text: string): SkillWordHit[] {
  const hits: SkillWordHit[] = [];
  text.split('\n').forEach((line, index) => {
    for (const word of wordsOf(file, line)) {
      if (SKILL_WORDS.has(word.toLowerCase())) hits.push({ file, line: index + 1, word });
    }
  });
  return hits;
}

function typescriptFilesUnder(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...typescriptFilesUnder(full));
    else if (entry.isFile() && entry.name.endsWith('.ts')) files.push(full);
  }
  return files.sort();
}

/** Every hit under a core root, grouped by room (the first path segment below it). */
function skillWordsByRoom(coreRoot: string): Map<string, SkillWordHit[]> {
  const byRoom = new Map<string, SkillWordHit[]>();
  for (const full of typescriptFilesUnder(coreRoot)) {
    const relative = path.relative(coreRoot, full).split(path.sep);
    const room = relative[0] ?? '';
    const file = path.posix.join(path.basename(coreRoot), ...relative);
    const hits = skillWordsIn(file, readFileSync(full, 'utf8'));
    byRoom.set(room, [...(byRoom.get(room) ?? []), ...hits]);
  }
  return byRoom;
}

const format = (hits: readonly SkillWordHit[]): string =>
  hits.map((hit) => `${hit.file}:${hit.line}: ${hit.word}`).join('\n');

describe('the core names no skill (harness/**/*.ts)', () => {
  const byRoom = skillWordsByRoom(path.join(REPO_ROOT, 'harness'));

  it.each(ROOMS_CLEARED.map((room) => [room]))(
    'harness/%s says no plan, task or ledger',
    (room) => {
      expect(byRoom.has(room), `harness/${room} exists`).toBe(true);
      const hits = byRoom.get(room) ?? [];
      expect(format(hits), `harness/${room} holds skill words`).toBe('');
    },
  );

  it('keeps no stale exception: each file token is still in the core', () => {
    const core = path.join(REPO_ROOT, 'harness');
    const texts = typescriptFilesUnder(core).map((full) => ({
      file: path.posix.join('harness', ...path.relative(core, full).split(path.sep)),
      text: readFileSync(full, 'utf8'),
    }));
    const foundIn = (file: string, pattern: RegExp): boolean =>
      texts.some((entry) => entry.file === file && new RegExp(pattern.source).test(entry.text));
    for (const entry of FILE_TOKENS) {
      expect(
        foundIn(entry.file, entry.pattern),
        `${entry.pattern} is no longer in ${entry.file}: remove the entry`,
      ).toBe(true);
    }
  });

  it('keeps no stale engine-tool-name file: each still quotes an engine tool name', () => {
    const stale = [...ENGINE_TOOL_NAME_FILES].filter(
      (file) =>
        !new RegExp(ENGINE_TOOL_NAMES.source).test(
          readFileSync(path.join(REPO_ROOT, file), 'utf8'),
        ),
    );
    expect(stale, 'remove these from ENGINE_TOOL_NAME_FILES').toEqual([]);
  });

  it('asserts every room: a room the list lacks (a new folder under harness/) fails here', () => {
    const unlisted = [...byRoom.keys()].filter((room) => !ROOMS_CLEARED.includes(room)).sort();
    expect(unlisted, 'add the room to ROOMS_CLEARED').toEqual([]);
  });
});

describe('the skill-word scan (planted files)', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-skill-words-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const core = path.join(root, 'harness');
  mkdirSync(path.join(core, 'room'), { recursive: true });

  const plant = (name: string, text: string): SkillWordHit[] => {
    writeFileSync(path.join(core, 'room', name), text);
    return (
      skillWordsByRoom(core)
        .get('room')
        ?.filter((hit) => hit.file.endsWith(name)) ?? []
    );
  };

  it('finds a word inside a camelCase identifier', () => {
    expect(plant('a.ts', 'const x = 1;\nexport const ownPlan = x;\n')).toEqual([
      { file: 'harness/room/a.ts', line: 2, word: 'Plan' },
    ]);
  });

  it('finds a word in a comment', () => {
    expect(plant('b.ts', '// read the ledger first\n')).toEqual([
      { file: 'harness/room/b.ts', line: 1, word: 'ledger' },
    ]);
  });

  it('finds a word inside SCREAMING_SNAKE_CASE and kebab-case', () => {
    expect(plant('c.ts', "const TASK_FOLLOWER = 'plan-names';\n").map((hit) => hit.word)).toEqual([
      'TASK',
      'plan',
    ]);
  });

  it('finds every form: plans, planned, tasks, ledgers, at any case', () => {
    const words = plant('d.ts', '/* Plans planned TASKS Ledgers readLedgerLines */\n');
    expect(words.map((hit) => hit.word)).toEqual([
      'Plans',
      'planned',
      'TASKS',
      'Ledgers',
      'Ledger',
    ]);
  });

  it('lets ledger.jsonl pass in any file', () => {
    const text = [
      "const JOURNAL = path.join(dir, 'ledger.jsonl');",
      '// appends one line to results/<id>/ledger.jsonl',
    ].join('\n');
    expect(plant('e.ts', text)).toEqual([]);
  });

  it("lets the quoted engine tool names 'Task', 'TaskCreate' pass only in a file that reads engine tools", () => {
    const text = "const DISPATCH = new Set(['Agent', 'Task', \"TaskCreate\", `TaskStop`]);\n";
    // Planted: the same line in another file is read.
    expect(plant('e2.ts', text).map((hit) => hit.word)).toEqual(['Task', 'Task', 'Task']);
    const score = path.join(core, 'score');
    mkdirSync(score, { recursive: true });
    writeFileSync(path.join(score, 'tool-call.ts'), text);
    expect(ENGINE_TOOL_NAME_FILES.has('harness/score/tool-call.ts')).toBe(true);
    expect(skillWordsByRoom(core).get('score')).toEqual([]);
  });

  it("reads 'Tasks', 'Task tool', ledgerFile and ledger.json as words", () => {
    const text = [
      "const a = 'Tasks';",
      "const b = 'Task tool';",
      'const ledgerFile = 1;',
      "const c = 'ledger.json';",
      "const d = 'TaskCreated';",
    ].join('\n');
    expect(plant('f.ts', text)).toEqual([
      { file: 'harness/room/f.ts', line: 1, word: 'Tasks' },
      { file: 'harness/room/f.ts', line: 2, word: 'Task' },
      { file: 'harness/room/f.ts', line: 3, word: 'ledger' },
      { file: 'harness/room/f.ts', line: 4, word: 'ledger' },
      { file: 'harness/room/f.ts', line: 5, word: 'Task' },
    ]);
  });

  it('lets planned pass only as a property name (a JSON field), never as a local or in prose', () => {
    const text = [
      'const row = { planned: model.planned, recorded };',
      'const planned = 3;',
      '// every planned rep',
    ].join('\n');
    expect(plant('h.ts', text).map((hit) => `${hit.line}:${hit.word}`)).toEqual([
      '2:planned',
      '3:planned',
    ]);
  });

  it("lets a file's own tokens pass in that file only", () => {
    const text = "const prompt = '{{task}}\\n';\n";
    expect(plant('write-campaign.ts', text).map((hit) => hit.word)).toEqual(['task']);
    const evals = path.join(core, 'evals');
    mkdirSync(evals, { recursive: true });
    writeFileSync(path.join(evals, 'write-campaign.ts'), text);
    expect(skillWordsByRoom(core).get('evals')).toEqual([]);
  });

  it('does not read words that only contain one (planet, tasking, explanation)', () => {
    expect(plant('g.ts', '// the planet, multitasking, an explanation, planner\n')).toEqual([]);
  });
});
