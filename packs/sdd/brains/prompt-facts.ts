/**
 * What a policy learns from the campaign prompt (seed 000, Appendix B): the
 * fixture repository, the plan it is executing, and the skill directory. The
 * prompt is free text; each item is found by the phrase that introduces it,
 * tolerating line breaks, quotes and backticks around the value. Whether the
 * prompt forbids dispatching subagents is read too (promptForbidsDispatch).
 */
import path from 'node:path';
import { err, ok, type Result } from '../../../harness/lib/result.js';

export interface PromptFacts {
  /** Absolute path of the fixture repository. */
  readonly repo: string;
  /** The plan path as the prompt gives it (normally relative to the repo). */
  readonly planPath: string;
  /** Absolute path of the plan file. */
  readonly planFile: string;
  /** The plan path relative to the repo, as a ledger identity line would name it. */
  readonly planRelative: string;
  /** Absolute path of the skill directory. */
  readonly skillDir: string;
  readonly skillFile: string;
}

/** An item the prompt did not give, named as the prompt would phrase it. */
export interface MissingPromptItem {
  readonly item: string;
  readonly expected: string;
}

const repoPattern = /repository at\s+(\S[^\n]*)/i;
const planPatterns = [
  /(\S+\.md)\s*\(relative to (?:that|the) repo(?:sitory)?\)/i,
  /implementation plan\s+(\S+\.md)/i,
];
const skillPattern = /whose complete text and scripts are at:?\s*\n?\s*(\S[^\n]*)/i;

export function readPromptFacts(prompt: string): Result<PromptFacts, MissingPromptItem> {
  const repo = cleanValue(repoPattern.exec(prompt)?.[1]);
  if (repo === undefined || !path.isAbsolute(repo)) {
    return err({
      item: 'the fixture repository path',
      expected: '"You are the SDD controller for the repository at <absolute path>"',
    });
  }
  const planPath = planPatterns
    .map((pattern) => cleanValue(pattern.exec(prompt)?.[1]))
    .find((value) => value !== undefined);
  if (planPath === undefined) {
    return err({
      item: 'the plan path',
      expected: '"<plan>.md (relative to that repo)"',
    });
  }
  const skillDir = cleanValue(skillPattern.exec(prompt)?.[1]);
  if (skillDir === undefined || !path.isAbsolute(skillDir)) {
    return err({
      item: 'the skill directory',
      expected: '"whose complete text and scripts are at: <absolute path>"',
    });
  }
  const planFile = path.resolve(repo, planPath);
  return ok({
    repo,
    planPath,
    planFile,
    planRelative: path.relative(repo, planFile).split(path.sep).join('/'),
    skillDir,
    skillFile: path.join(skillDir, 'SKILL.md'),
  });
}

const dispatchBan = /\b(?:do\s+not|don['\u2019]t|never|must\s+not)\s+dispatch\b/i;

/**
 * Whether the prompt forbids dispatching subagents ("Do NOT dispatch any
 * subagents", as the compaction-resume prompt's scope limit says). A policy
 * then writes its report instead of dispatching its first task.
 */
export function promptForbidsDispatch(prompt: string): boolean {
  return dispatchBan.test(prompt);
}

function cleanValue(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const value = raw
    .trim()
    .replace(/^[`'"<]+/, '')
    .replace(/[`'">.,;:]+$/, '')
    .trim();
  if (value === '' || value.includes('<') || value.includes('>')) return undefined;
  return value.length > 1 ? value.replace(/\/+$/, '') : value;
}
