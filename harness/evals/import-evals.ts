/**
 * Import a skill's eval file whole: read it (strict JSON), normalise its
 * shape (eval-file.ts), find the skill (locate-skill.ts), resolve every
 * case's input files (resolve-files.ts) and compile every expectation
 * (classify-expectation.ts). The result says what each case and each
 * expectation became and why; the first problem refuses the whole file,
 * naming the file and the field. Nothing is written here.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import {
  type CompiledExpectation,
  compileExpectation,
  judgedWhenAnInputSatisfies,
} from './classify-expectation.js';
import { type EvalCase, type EvalFile, looksLikeTriggerSet, readEvalFile } from './eval-file.js';
import type { Expectation } from './expectation-forms.js';
import {
  evalFileOfSkill,
  type SkillUnderTest,
  skillOfEvalFile,
  triggerFilesBeside,
} from './locate-skill.js';
import { refusalError } from './refusal.js';
import { type ResolvedEntry, resolveFiles } from './resolve-files.js';
import { readTriggerFile, type TriggerSet } from './trigger-file.js';

export interface ImportedCase {
  readonly evalCase: EvalCase;
  /** The scenario it becomes. */
  readonly scenarioId: string;
  readonly files: readonly ResolvedEntry[];
  readonly compiled: readonly CompiledExpectation[];
}

export interface EvalImport {
  readonly kind: 'evals';
  readonly file: string;
  readonly skill: SkillUnderTest;
  readonly evals: EvalFile;
  readonly cases: readonly ImportedCase[];
  /** What a reader should know: a skill_name that differs from SKILL.md's, trigger sets beside it. */
  readonly notes: readonly string[];
}

export interface TriggerImport {
  readonly kind: 'triggers';
  readonly file: string;
  readonly skill: SkillUnderTest;
  readonly set: TriggerSet;
  readonly notes: readonly string[];
}

/** A name as scenario and check ids allow it: lower-case letters, digits and dashes, from a letter. */
export function slug(text: string, limit = 40): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, limit)
    .replace(/-+$/, '');
}

/** Ids from names, each unique: `base` from the name (or `fallback`), a number added on a clash. */
export function uniqueIds(
  names: readonly (string | undefined)[],
  prefix: string,
  fallback: (index: number) => string,
): string[] {
  const taken = new Set<string>();
  return names.map((name, index) => {
    const made = slug(name ?? '');
    let id = made === '' ? fallback(index) : `${prefix}${made}`;
    for (let n = 2; taken.has(id); n += 1)
      id = `${made === '' ? fallback(index) : `${prefix}${made}`}-${n}`;
    taken.add(id);
    return id;
  });
}

async function readJson(file: string): Promise<Result<unknown, InputError>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return err(
      inputError(
        file,
        `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
        'check the path',
      ),
    );
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return ok(JSON.parse(text));
  } catch (error) {
    return err(
      inputError(
        file,
        `is not valid JSON (${(error as Error).message})`,
        'fix the JSON syntax (comments and trailing commas are not JSON)',
      ),
    );
  }
}

function checkIdsOf(expectations: readonly Expectation[]): string[] {
  return expectations.map((expectation, index) => {
    const named = expectation.authorId === undefined ? '' : slug(expectation.authorId, 32);
    return named === '' ? `e${index + 1}` : `e${index + 1}-${named}`;
  });
}

function compiledOf(evalCase: EvalCase, skill: SkillUnderTest): CompiledExpectation[] {
  const ids = checkIdsOf(evalCase.expectations);
  const compiled = evalCase.expectations.map((expectation, index) =>
    compileExpectation(ids[index] ?? `e${index + 1}`, expectation),
  );
  if (evalCase.shouldTrigger !== undefined) {
    const uses = evalCase.shouldTrigger;
    const text = `The session ${uses ? 'uses' : 'does not use'} the ${skill.name} skill`;
    compiled.push({
      checkId: 'skill-use',
      expectation: {
        authorId: undefined,
        text,
        field: `${evalCase.field}.should_trigger`,
        shape: `should_trigger: ${uses}`,
        form: { kind: 'statement' },
      },
      decidedBy: 'transcript',
      check: {
        id: 'skill-use',
        verb: uses ? 'skill-invoked' : 'skill-not-invoked',
        skill: skill.name,
        form: 'any',
      },
      rubric: text,
      why: `should_trigger is ${uses}: the transcript shows whether the ${skill.name} skill was loaded (the Skill tool, or a read of its SKILL.md)`,
    });
  }
  if (compiled.length === 0 && evalCase.expectedOutput !== undefined) {
    const text = `The result is what the author expects: ${evalCase.expectedOutput}`;
    compiled.push({
      checkId: 'expected-output',
      expectation: {
        authorId: undefined,
        text,
        field: `${evalCase.field}.expected_output`,
        shape: 'expected_output (the case has no expectations)',
        form: { kind: 'judge' },
      },
      decidedBy: 'judge',
      check: { id: 'expected-output', verb: 'judged', item: 'expected-output' },
      rubric: text,
      why: 'the case has no expectations: the judge checks the result against its expected output',
    });
  }
  return compiled;
}

/** Where the eval file of a path is: the path itself (a .json file), or the skill directory's. */
async function locate(
  target: string,
): Promise<Result<{ file: string; skill: SkillUnderTest | undefined }, InputError>> {
  if (target.endsWith('.json')) return ok({ file: path.resolve(target), skill: undefined });
  const found = await evalFileOfSkill(path.resolve(target));
  return found.ok ? ok({ file: found.value.file, skill: found.value.skill }) : found;
}

/**
 * Import the eval file of `target` (a skill directory, or an eval file's
 * path): a behaviour suite (`evals`) or, when the file is one, a trigger set.
 * With `prefixed`, every scenario id starts with the skill's name (campaigns of several skills).
 */
export async function importEvals(
  target: string,
  prefixed = false,
): Promise<Result<EvalImport | TriggerImport, InputError>> {
  const located = await locate(target);
  if (!located.ok) return located;
  const { file } = located.value;
  const json = await readJson(file);
  if (!json.ok) return json;
  if (looksLikeTriggerSet(json.value)) {
    let skill = located.value.skill;
    if (skill === undefined) {
      const found = await skillOfEvalFile(file, undefined);
      if (!found.ok) return found;
      skill = found.value;
    }
    return importTriggersFor(file, json.value, skill);
  }
  const read = readEvalFile(json.value);
  if ('problem' in read) return err(refusalError(file, read));
  let skill: SkillUnderTest;
  if (located.value.skill !== undefined) {
    skill = located.value.skill;
  } else {
    const found = await skillOfEvalFile(file, read.skillName);
    if (!found.ok) return found;
    skill = found.value;
  }
  const scenarioPrefix = prefixed ? `${slug(skill.name, 20) || 'skill'}-` : '';
  const notes: string[] = [];
  if (read.skillName !== undefined && read.skillName !== skill.name) {
    notes.push(
      `skill_name "${read.skillName}" differs from the SKILL.md name "${skill.name}": the skill is the one the file sits in (${skill.dir})`,
    );
  }
  for (const beside of triggerFilesBeside(file)) {
    notes.push(
      `a trigger set sits beside it (${path.basename(beside)}): run it with \`redgreen run --triggers ${beside} --skill ${skill.dir}\``,
    );
  }
  const ids = uniqueIds(
    read.cases.map((evalCase) => (evalCase.idSource === 'position' ? evalCase.name : evalCase.id)),
    `${scenarioPrefix}eval-`,
    (index) => `${scenarioPrefix}eval-${index + 1}`,
  );
  const cases: ImportedCase[] = [];
  for (const [index, evalCase] of read.cases.entries()) {
    const files = resolveFiles(evalCase.files, skill, file);
    if (!Array.isArray(files)) return err(refusalError(file, files));
    const inputs = new Map(
      files.flatMap((entry) => entry.files.map((input) => [input.workPath, input.source] as const)),
    );
    const inputText = (workPath: string): string | null => {
      const source = inputs.get(workPath);
      if (source === undefined) return null;
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(source));
      } catch {
        return null;
      }
    };
    cases.push({
      evalCase,
      scenarioId: ids[index] ?? `${scenarioPrefix}eval-${index + 1}`,
      files,
      compiled: compiledOf(evalCase, skill).map((each) =>
        judgedWhenAnInputSatisfies(each, new Set(inputs.keys()), inputText),
      ),
    });
  }
  return ok({ kind: 'evals', file, skill, evals: read, cases, notes });
}

function importTriggersFor(
  file: string,
  json: unknown,
  skill: SkillUnderTest,
): Result<TriggerImport, InputError> {
  const set = readTriggerFile(json);
  if ('problem' in set) return err(refusalError(file, set));
  const notes: string[] = [];
  if (set.skillName !== undefined && set.skillName !== skill.name) {
    notes.push(
      `the set names skill "${set.skillName}"; it is run for ${skill.name} (${skill.dir})`,
    );
  }
  if (set.descriptionUnderTest !== undefined) {
    notes.push(
      "description_under_test is kept for the record: the arms' own descriptions (old and new) are what is tested",
    );
  }
  if (set.queries.some((query) => query.authorSplit !== undefined)) {
    notes.push(
      "the queries' own split labels are kept for the record; --split decides what is held out",
    );
  }
  return ok({ kind: 'triggers', file, skill, set, notes });
}

/** Import a trigger set for a given skill (`--triggers <file> --skill <dir>`). */
export async function importTriggers(
  file: string,
  skill: SkillUnderTest,
): Promise<Result<TriggerImport, InputError>> {
  const json = await readJson(path.resolve(file));
  if (!json.ok) return json;
  return importTriggersFor(path.resolve(file), json.value, skill);
}
