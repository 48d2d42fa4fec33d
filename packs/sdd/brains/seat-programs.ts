/**
 * Scripted seats of a full session (`stop: complete`): the programs that
 * answer a subagent's requests, chosen by the dispatch prompt its
 * conversation starts from, and the prompts the scripted controller
 * (full-session.ts) writes, so the two agree on one format.
 *
 * - implementer: `You are the implementer of Task N (Title).` The program
 *   reads the brief the prompt names, writes every file the brief gives
 *   (`Create \`path\`:` followed by a fenced block, wherever it stands in the
 *   brief), runs the brief's `Test: \`command\`` when it has one, commits, and
 *   reports the commit. A resume (a SendMessage appended as a user message)
 *   that lists review findings (review-findings.ts) makes it a fixer: it
 *   applies them, commits, and reports again. Resumes are part of the prompt
 *   text the program is built from, so replay stays exact. A fresh fixer
 *   (`You are the fixer of Task N (Title).`, its `Fix round: N` and the
 *   findings; fixerPrompt) is a seat of its own: it only applies them.
 * - reviewer: `You are the reviewer of Task N (Title).` The program reads the
 *   brief's review requirements, reads the diff of the range the prompt names,
 *   checks each requirement at HEAD, the change's files against the brief's
 *   `Files:` line, runs each `must pass` command, and answers `Approved.` or
 *   `Issues:` with one finding a line. How thorough it is depends on the
 *   session's policy (`ReviewerVariant`), so a calibration policy can field a
 *   reviewer that misses what a fixture plants, or one that fixes what it
 *   finds and commits itself. Resumed with a re-review message
 *   (`reReviewMessage`), it reviews again and reports that round.
 *
 * A brief is plain markdown; the fixture that holds it plants a defect by
 * giving a file whose content breaks a requirement, or a file outside its
 * task for an eager implementer to write.
 */
import {
  call,
  type PolicyProgram,
  type SubProgram,
} from '../../../harness/model-server/policies/program.js';
import { bash, fileText, read, shellQuote } from '../../../harness/model-server/policies/tools.js';
import {
  type Finding,
  type FixerVariant,
  findingLine,
  findingsIn,
  fixCommands,
  fixCommandsFor,
  scopeOf,
} from './review-findings.js';

const GIT_AUTHOR = '-c user.name=Scripted-Implementer -c user.email=implementer@redgreen.invalid';

export type SeatRole = 'implementer' | 'reviewer' | 'fixer';

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

const opening = /^You are the (implementer|reviewer|fixer) of Task (\d+) \((.*)\)\./m;
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
  const role = head[1] === 'reviewer' ? 'reviewer' : head[1] === 'fixer' ? 'fixer' : 'implementer';
  const base = baseLine.exec(promptText)?.[1];
  if (role === 'reviewer' && base === undefined) return undefined;
  const round = Number(roundLine.exec(promptText)?.[1] ?? '0');
  // A fixer works on one fix round's findings: a fixer prompt without its round is no seat prompt.
  if (role === 'fixer' && round === 0) return undefined;
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
 * A fresh fixer's dispatch prompt: one fix round's findings for a task, given
 * to a new subagent rather than to the implementer that holds the task. Its
 * seat applies the findings and commits; it never rewrites the brief's files.
 */
export function fixerPrompt(task: TaskRef, round: number, findings: readonly string[]): string {
  return [
    `You are the fixer of Task ${task.number} (${task.title}).`,
    `Brief: ${task.brief}`,
    `Repository: ${task.repo}`,
    `Fix round: ${round}`,
    '',
    'Apply the review findings below, run the tests, commit, and report the commit hash.',
    '',
    fixMessage(task.number, findings),
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

const createFile = /^Create `([^`]+)`:\s*\n+```[^\n]*\n([\s\S]*?)\n```/gm;
const testLine = /^Test: `([^`]+)`$/m;

function filesOf(brief: string): BriefFile[] {
  return [...brief.matchAll(createFile)].map((match) => ({
    path: match[1] ?? '',
    content: `${match[2] ?? ''}\n`,
  }));
}

/** A finding's file, or its command, for a report. */
function subjectOf(finding: Finding): string {
  return finding.kind === 'command' ? finding.command : finding.path;
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

/** One fix round: the findings of a message applied and committed; the report of it. */
function* fixRound(
  seat: SeatPrompt,
  message: string,
  round: number,
  fixer: FixerVariant,
): SubProgram<string> {
  const { commands, applied } = fixCommandsFor(fixer, findingsIn(message));
  if (commands.length === 0) {
    return `Fixed 0 finding(s) of Task ${seat.task}: none of them names a change I can make; nothing changed.`;
  }
  yield* call(
    bash(`cd ${shellQuote(seat.repo)} && ${commands.join(' && ')}`, 'Apply the review findings'),
  );
  const committed = yield* commit(
    seat.repo,
    `Task ${seat.task}: fix review findings (round ${round})`,
  );
  const subjects = [...new Set(applied.map(subjectOf))];
  return `Fixed ${applied.length} finding(s) of Task ${seat.task}: ${subjects.join(', ')}. ${committed}.`;
}

/**
 * The implementer seat, with a fix round for every findings message in the
 * conversation. A fresh fixer (its prompt names a fix round) does not write
 * the brief's files again: it applies the findings its prompt carries.
 */
export function* implementerProgram(
  seat: SeatPrompt,
  promptText: string,
  fixer: FixerVariant = 'faithful',
): PolicyProgram {
  const rounds = promptText.split(new RegExp(FINDINGS_MARKER.source, 'g')).slice(1);
  const briefRead = yield* call(read(seat.brief));
  if (briefRead.isError) return `Could not read the brief ${seat.brief}; nothing was implemented.`;
  let report: string;
  if (seat.round > 0) {
    report = `Nothing to fix for Task ${seat.task}: the prompt carries no findings.`;
  } else {
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
    report = `Implemented Task ${seat.task} (${seat.title}): wrote ${files.map((file) => file.path).join(', ')}.${tested} ${yield* commit(seat.repo, `Task ${seat.task}: ${seat.title}`)}.`;
  }
  for (const [index, round] of rounds.entries()) {
    report = yield* fixRound(seat, round, seat.round > 0 ? seat.round : index + 1, fixer);
  }
  return report;
}

/**
 * How a scripted reviewer works, chosen by the session's policy (full-session.ts):
 * - `thorough`: checks every review requirement at HEAD, that the change
 *   touches only the brief's `Files:`, and runs every `must pass` command;
 * - `trusts-task-test`: reads the diff, runs the brief's own `Test:` and
 *   approves when it passes (it never reads the requirements or runs the
 *   whole suite: it misses what only they show);
 * - `accepts-extras`: thorough, but never compares the change with the
 *   brief's `Files:` (work the task never asked for goes through).
 */
export type ReviewerVariant = 'thorough' | 'trusts-task-test' | 'accepts-extras' | 'fixes-itself';

/**
 * The message a controller resumes a reviewer with, asking it to look again
 * (the calibration controller that fixes findings itself sends it).
 */
export function reReviewMessage(task: number, round: number): string {
  return `Re-review Task ${task} (review round ${round}): the findings are fixed. Check the range again and answer "Approved." or "Issues:" with one finding a line.`;
}

const reReviewLine = /^Re-review Task \d+ \(review round (\d+)\)/gm;

/** How a resumed reviewer's report of a review round starts. */
export function reReviewReportHead(task: number, round: number): string {
  return `Re-review of Task ${task} (review round ${round}):`;
}

/**
 * The reviewer seat: the diff read, the brief's requirements checked, a
 * verdict; resumed with a re-review message, it reviews again and reports
 * the round it was asked for.
 */
export function* reviewerProgram(
  seat: SeatPrompt,
  promptText: string,
  variant: ReviewerVariant = 'thorough',
): PolicyProgram {
  let report = yield* reviewOnce(seat, variant);
  for (const asked of promptText.matchAll(reReviewLine)) {
    const again = yield* reviewOnce(seat, variant);
    report = `${reReviewReportHead(seat.task, Number(asked[1]))} ${again}`;
  }
  return report;
}

/** One review of the range: its verdict. */
function* reviewOnce(seat: SeatPrompt, variant: ReviewerVariant): SubProgram<string> {
  const briefRead = yield* call(read(seat.brief));
  if (briefRead.isError) return `Issues:\n- the brief ${seat.brief} could not be read`;
  const brief = fileText(briefRead);
  const requirements = findingsIn(brief);
  const diff = yield* call(
    bash(
      `cd ${shellQuote(seat.repo)} && git diff --stat ${seat.base}..HEAD && git diff ${seat.base}..HEAD`,
      'Read the diff under review',
    ),
  );
  if (diff.isError || diff.text.trim() === '') {
    return `Issues:\n- the range ${seat.base}..HEAD holds no change for Task ${seat.task}`;
  }
  if (variant === 'trusts-task-test') {
    const test = testLine.exec(brief)?.[1];
    if (test === undefined) return `Approved. Task ${seat.task}'s diff reads well.`;
    const ran = yield* call(
      bash(`cd ${shellQuote(seat.repo)} && ${test}`, "Run the task's own test"),
    );
    return ran.isError
      ? `Issues:\n- \`${test}\` must pass`
      : `Approved. Task ${seat.task}'s test \`${test}\` passes.`;
  }
  const missing: Finding[] = [];
  const fileRequirements = requirements.filter(
    (one): one is Extract<Finding, { text: string }> =>
      one.kind === 'contain' || one.kind === 'absent',
  );
  for (const path of [...new Set(fileRequirements.map((requirement) => requirement.path))]) {
    const shown = yield* call(
      bash(`cd ${shellQuote(seat.repo)} && git show HEAD:${shellQuote(path)}`, `Read ${path}`),
    );
    for (const requirement of fileRequirements.filter((one) => one.path === path)) {
      const holds =
        !shown.isError &&
        (requirement.kind === 'absent'
          ? !shown.text.includes(requirement.text)
          : shown.text.includes(requirement.text));
      if (!holds) missing.push(requirement);
    }
  }
  const scope = scopeOf(brief);
  if (scope !== undefined && variant !== 'accepts-extras') {
    const touched = yield* call(
      bash(
        `cd ${shellQuote(seat.repo)} && git diff --name-only ${seat.base}..HEAD`,
        'List the files the change touches',
      ),
    );
    for (const path of touched.text.split('\n').map((line) => line.trim())) {
      if (path !== '' && !scope.includes(path)) {
        missing.push({ kind: 'remove', path, task: seat.task });
      }
    }
  }
  for (const requirement of requirements) {
    if (requirement.kind !== 'command') continue;
    const ran = yield* call(
      bash(`cd ${shellQuote(seat.repo)} && ${requirement.command}`, `Run ${requirement.command}`),
    );
    if (ran.isError) missing.push(requirement);
  }
  if (missing.length > 0 && variant === 'fixes-itself') {
    const { commands, applied } = fixCommands(missing);
    if (commands.length > 0) {
      yield* call(
        bash(`cd ${shellQuote(seat.repo)} && ${commands.join(' && ')}`, 'Fix the findings myself'),
      );
      const committed = yield* commit(seat.repo, `Task ${seat.task}: review fixes`);
      return `Approved. Task ${seat.task} meets its review requirements: I fixed ${applied.length} finding(s) myself (${committed}).`;
    }
  }
  return missing.length === 0
    ? `Approved. Task ${seat.task} meets its ${requirements.length} review requirement(s).`
    : `Issues:\n${missing.map(findingLine).join('\n')}`;
}
