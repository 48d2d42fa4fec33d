/**
 * Scripted seats of a full session (`stop: complete`): the programs that
 * answer a subagent's requests, chosen by the dispatch prompt its
 * conversation starts from, and the prompts the scripted controller
 * (full-session.ts) writes, so the two agree on one format.
 *
 * - implementer: `You are the implementer of Task N (Title).` The program
 *   reads the brief the prompt names, writes every file the brief gives
 *   (`Create \`path\`:` followed by a fenced block), runs the brief's
 *   `Test: \`command\`` when it has one, commits, and reports the commit. A
 *   resume (a SendMessage appended as a user message) that lists review
 *   findings (`- \`path\` must contain: text`) makes it a fixer: it appends each
 *   missing text to its file, commits, and reports again. Resumes are part of
 *   the prompt text the program is built from, so replay stays exact.
 * - reviewer: `You are the reviewer of Task N (Title).` The program reads the
 *   brief's review requirements (the same finding lines), reads the diff of
 *   the range the prompt names, reads each required file at HEAD, and answers
 *   `Approved.` or `Issues:` with one finding a line.
 *
 * A brief is plain markdown; the fixture that holds it plants a defect by
 * giving a file whose content misses a requirement.
 */
import { call, type PolicyProgram, type SubProgram } from './program.js';
import { bash, fileText, read, shellQuote } from './tools.js';

const GIT_AUTHOR = '-c user.name=Scripted-Implementer -c user.email=implementer@redgreen.invalid';

export type SeatRole = 'implementer' | 'reviewer';

export interface SeatPrompt {
  readonly role: SeatRole;
  readonly task: number;
  readonly title: string;
  readonly brief: string;
  readonly repo: string;
  /** The reviewer's range start (a commit). */
  readonly base: string | undefined;
  /** The review round (a reviewer) or fix round (a fresh fixer) the prompt names, else 0. */
  readonly round: number;
}

const opening = /^You are the (implementer|reviewer) of Task (\d+) \((.*)\)\./m;
const briefLine = /^Brief: (\/\S+)$/m;
const repoLine = /^Repository: (\/\S+)$/m;
const baseLine = /^Review range: ([0-9a-f]{7,40})\.\.HEAD$/m;
const roundLine = /^(?:Review|Fix) round: (\d+)$/m;
/** Where a findings message starts (a resume, or a fresh fixer's prompt). */
export const FINDINGS_MARKER = /Review findings for Task \d+ to fix/;

/** The seat a dispatch prompt starts, or undefined when the prompt is no seat prompt. */
export function seatPromptOf(promptText: string): SeatPrompt | undefined {
  const head = opening.exec(promptText);
  const brief = briefLine.exec(promptText)?.[1];
  const repo = repoLine.exec(promptText)?.[1];
  if (head === null || brief === undefined || repo === undefined) return undefined;
  const role = head[1] === 'reviewer' ? 'reviewer' : 'implementer';
  const base = baseLine.exec(promptText)?.[1];
  if (role === 'reviewer' && base === undefined) return undefined;
  const round = Number(roundLine.exec(promptText)?.[1] ?? '0');
  return { role, task: Number(head[2]), title: head[3] ?? '', brief, repo, base, round };
}

/** The implementer's dispatch prompt for one task (what the scripted controller sends). */
export function implementerPrompt(task: TaskRef): string {
  return [
    `You are the implementer of Task ${task.number} (${task.title}).`,
    `Brief: ${task.brief}`,
    `Repository: ${task.repo}`,
    '',
    'Read the brief, write what it asks for, run its test if it names one, commit, and report the commit hash.',
  ].join('\n');
}

/**
 * The reviewer's dispatch prompt for one task, the range to review and the
 * review round (so two rounds' reviewers never share a conversation's start).
 */
export function reviewerPrompt(task: TaskRef, base: string, round: number): string {
  return [
    `You are the reviewer of Task ${task.number} (${task.title}).`,
    `Brief: ${task.brief}`,
    `Repository: ${task.repo}`,
    `Review range: ${base}..HEAD`,
    `Review round: ${round}`,
    '',
    'Read the diff against the brief. Answer "Approved." or "Issues:" with one finding a line.',
  ].join('\n');
}

/** The message that resumes an implementer with a reviewer's findings. */
export function fixMessage(task: number, findings: readonly string[]): string {
  return [
    `Review findings for Task ${task} to fix, then commit and report back:`,
    ...findings,
  ].join('\n');
}

export interface TaskRef {
  readonly number: number;
  readonly title: string;
  /** Absolute path of the task's brief. */
  readonly brief: string;
  readonly repo: string;
}

interface BriefFile {
  readonly path: string;
  readonly content: string;
}

interface Requirement {
  readonly path: string;
  readonly text: string;
}

const createFile = /^Create `([^`]+)`:\s*\n+```[^\n]*\n([\s\S]*?)\n```/gm;
const requirementLine = /^- `([^`]+)` must contain: (.+)$/gm;
const testLine = /^Test: `([^`]+)`$/m;

function filesOf(brief: string): BriefFile[] {
  return [...brief.matchAll(createFile)].map((match) => ({
    path: match[1] ?? '',
    content: `${match[2] ?? ''}\n`,
  }));
}

function requirementsOf(text: string): Requirement[] {
  return [...text.matchAll(requirementLine)].map((match) => ({
    path: match[1] ?? '',
    text: (match[2] ?? '').trim(),
  }));
}

function findingLine(requirement: Requirement): string {
  return `- \`${requirement.path}\` must contain: ${requirement.text}`;
}

/** Commit everything and return the new HEAD, or why there is none. */
function* commit(repo: string, message: string): SubProgram<string> {
  const outcome = yield* call(
    bash(
      `cd ${shellQuote(repo)} && git add -A && git ${GIT_AUTHOR} commit -q -m ${shellQuote(message)} && git rev-parse --short HEAD`,
      'Commit the work',
    ),
  );
  const hash = outcome.text.trim().split('\n').at(-1) ?? '';
  return outcome.isError || !/^[0-9a-f]{7,40}$/.test(hash)
    ? `no commit (${outcome.text.trim().split('\n')[0] ?? 'git failed'})`
    : `commit ${hash}`;
}

/** The implementer seat, with a fix round for every findings message in the conversation. */
export function* implementerProgram(seat: SeatPrompt, promptText: string): PolicyProgram {
  const briefRead = yield* call(read(seat.brief));
  if (briefRead.isError) return `Could not read the brief ${seat.brief}; nothing was implemented.`;
  const files = filesOf(fileText(briefRead));
  if (files.length === 0) return `The brief ${seat.brief} asks for no file; nothing was written.`;
  const writes = files.map(
    (file) =>
      `mkdir -p "$(dirname ${shellQuote(file.path)})" && printf '%s' ${shellQuote(file.content)} > ${shellQuote(file.path)}`,
  );
  yield* call(
    bash(`cd ${shellQuote(seat.repo)} && ${writes.join(' && ')}`, 'Write the files of the brief'),
  );
  const test = testLine.exec(fileText(briefRead))?.[1];
  let tested = '';
  if (test !== undefined) {
    const ran = yield* call(bash(`cd ${shellQuote(seat.repo)} && ${test}`, 'Run the test'));
    tested = ran.isError ? ` The test \`${test}\` failed.` : ` The test \`${test}\` passed.`;
  }
  let report = `Implemented Task ${seat.task} (${seat.title}): wrote ${files.map((file) => file.path).join(', ')}.${tested} ${yield* commit(seat.repo, `Task ${seat.task}: ${seat.title}`)}.`;
  const rounds = promptText.split(new RegExp(FINDINGS_MARKER.source, 'g')).slice(1);
  for (const [index, round] of rounds.entries()) {
    const findings = requirementsOf(round);
    if (findings.length === 0) {
      report = 'The findings message names no finding I can apply; nothing changed.';
      continue;
    }
    const appends = findings.map(
      (finding) => `printf '%s\\n' ${shellQuote(finding.text)} >> ${shellQuote(finding.path)}`,
    );
    yield* call(
      bash(`cd ${shellQuote(seat.repo)} && ${appends.join(' && ')}`, 'Apply the review findings'),
    );
    const committed = yield* commit(
      seat.repo,
      `Task ${seat.task}: fix review findings (round ${index + 1})`,
    );
    report = `Fixed ${findings.length} finding(s) of Task ${seat.task}: ${findings.map((finding) => finding.path).join(', ')}. ${committed}.`;
  }
  return report;
}

/** The reviewer seat: the diff read, each requirement checked at HEAD, a verdict. */
export function* reviewerProgram(seat: SeatPrompt): PolicyProgram {
  const briefRead = yield* call(read(seat.brief));
  if (briefRead.isError) return `Issues:\n- the brief ${seat.brief} could not be read`;
  const requirements = requirementsOf(fileText(briefRead));
  const diff = yield* call(
    bash(
      `cd ${shellQuote(seat.repo)} && git diff --stat ${seat.base}..HEAD && git diff ${seat.base}..HEAD`,
      'Read the diff under review',
    ),
  );
  if (diff.isError || diff.text.trim() === '') {
    return `Issues:\n- the range ${seat.base}..HEAD holds no change for Task ${seat.task}`;
  }
  const missing: Requirement[] = [];
  for (const path of [...new Set(requirements.map((requirement) => requirement.path))]) {
    const shown = yield* call(
      bash(`cd ${shellQuote(seat.repo)} && git show HEAD:${shellQuote(path)}`, `Read ${path}`),
    );
    for (const requirement of requirements.filter((one) => one.path === path)) {
      if (shown.isError || !shown.text.includes(requirement.text)) missing.push(requirement);
    }
  }
  return missing.length === 0
    ? `Approved. Task ${seat.task} meets its ${requirements.length} review requirement(s).`
    : `Issues:\n${missing.map(findingLine).join('\n')}`;
}
