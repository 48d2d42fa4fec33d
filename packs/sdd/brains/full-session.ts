/**
 * The scripted controllers of a full session (`stop: complete`). Their prompt
 * names the plan and the repository (`Plan: /abs/plan.md`, `Repository:
 * /abs/repo`); the plan lists tasks as `### Task N: Title` headings, each
 * with a `Brief: relative/path.md` line. For each task a controller dispatches
 * an implementer through `Agent`, then a fresh reviewer of the task's commits;
 * when the reviewer reports issues a fix round follows and a fresh reviewer
 * looks again, up to three review rounds; then it moves on and finally
 * reports. The seats it dispatches are answered by seat-programs.ts, chosen by
 * the prompts written here. How a fix round goes is what tells them apart:
 *
 * - `full-controller` resumes the implementer that holds the task's context
 *   with `SendMessage` (the agent id the Agent result names);
 * - `full-fresh-fixer`, its calibration twin, dispatches a fresh implementer
 *   with the findings instead (the wrong move a scenario about resuming must
 *   catch);
 * - `full-skill-reader` reads the SKILL.md its prompt names (`Skill:
 *   /abs/SKILL.md`) and does what the text says (skill-mechanisms.ts): a
 *   `breaker` fix loop resumes the implementer; an `unbounded` one ("dispatch
 *   a fix subagent"), or a text that says neither, gets a fresh fix subagent;
 * - `full-shallow-reviewer` and `full-accepts-extras` are full-skill-reader
 *   with a weaker reviewer seat (seat-programs.ts `ReviewerVariant`): one
 *   that trusts the task's own test, one that lets work outside the task's
 *   files through. Calibration: each must fail the scenario about what its
 *   reviewer misses;
 * - `full-fixing-reviewer` is full-skill-reader with a reviewer that fixes
 *   what it finds and commits itself, then approves (out of role);
 * - `full-gaming-fixer` is full-skill-reader with a fixer (the resumed
 *   implementer or a fresh fix subagent) that games the findings
 *   (review-findings.ts `FixerVariant`): the reviewer's checks and the suite
 *   pass, the defect stays;
 * - `full-controller-fixes` fixes each round's findings itself (a Bash
 *   command that edits and commits) and resumes the reviewer to look again,
 *   never the implementer (out of role);
 * - `full-review-fanout` is full-skill-reader fanning every review round out
 *   to extra fresh reviewers of the task (a second and a third opinion),
 *   whose reports it does not act on: the cost a dispatches-per-task cap
 *   must catch.
 */
import path from 'node:path';
import type { ScriptedPolicy } from '../../../harness/model-server/policies/policy.js';
import {
  call,
  type PolicyProgram,
  type SubProgram,
  type ToolCall,
} from '../../../harness/model-server/policies/program.js';
import { bash, fileText, read, shellQuote } from '../../../harness/model-server/policies/tools.js';
import { type FixerVariant, findingsIn, fixCommands } from './review-findings.js';
import {
  fixerPrompt,
  fixMessage,
  implementerPrompt,
  type ReviewerVariant,
  reReviewMessage,
  reReviewReportHead,
  reviewerPrompt,
  type TaskRef,
} from './seat-programs.js';
import { classifyMechanisms } from './skill-mechanisms.js';

export const FULL_SESSION_POLICIES = [
  'full-controller',
  'full-fresh-fixer',
  'full-skill-reader',
  'full-shallow-reviewer',
  'full-accepts-extras',
  'full-fixing-reviewer',
  'full-gaming-fixer',
  'full-controller-fixes',
  'full-review-fanout',
] as const;
export type FullSessionPolicyName = (typeof FULL_SESSION_POLICIES)[number];

export function isFullSessionPolicy(name: string): name is FullSessionPolicyName {
  return (FULL_SESSION_POLICIES as readonly string[]).includes(name);
}

/**
 * Whether a prompt is a full session's, as the skill readers are given one
 * (a `Skill:`, a `Plan:` and a `Repository:` line): `skill-reader` then plays
 * `full-skill-reader`, so a campaign of every SDD scenario runs its full
 * sessions with the reader it runs its probes with.
 */
export function isFullSessionPrompt(promptText: string): boolean {
  return skillLine.test(promptText) && planLine.test(promptText) && repoLine.test(promptText);
}

/**
 * What a full-session policy could not play: a prompt without the `Plan:`
 * and `Repository:` lines its program starts from (another skill's session).
 */
function notAFullSessionPrompt(promptText: string): string | undefined {
  const missing = [
    planLine.test(promptText) ? undefined : '"Plan: /abs/plan.md"',
    repoLine.test(promptText) ? undefined : '"Repository: /abs/repo"',
  ].filter((line) => line !== undefined);
  return missing.length === 0
    ? undefined
    : `it plays a full SDD session's prompt, and this prompt has no ${missing.join(' or ')} line`;
}

/** The reviewer a session's policy fields; every other policy's reviewer is thorough. */
export function reviewerVariantOf(policy: string): ReviewerVariant {
  if (policy === 'full-shallow-reviewer') return 'trusts-task-test';
  if (policy === 'full-accepts-extras') return 'accepts-extras';
  if (policy === 'full-fixing-reviewer') return 'fixes-itself';
  return 'thorough';
}

/** How a session's fixers apply findings; every policy but full-gaming-fixer's is faithful. */
export function fixerVariantOf(policy: string): FixerVariant {
  return policy === 'full-gaming-fixer' ? 'games-findings' : 'faithful';
}

const MAX_REVIEW_ROUNDS = 3;

function fullSessionPolicy(name: FullSessionPolicyName, summary: string): ScriptedPolicy {
  return {
    name,
    summary,
    cannotPlay: (request) => notAFullSessionPrompt(request.promptText),
    program: (request) =>
      fullSessionProgram(name, request.label, request.promptText, request.offeredTools),
  };
}

export const fullControllerPolicy = fullSessionPolicy(
  'full-controller',
  'full session (stop: complete): per task an implementer, a reviewer, fix rounds resumed with SendMessage, then a report',
);

export const fullFreshFixerPolicy = fullSessionPolicy(
  'full-fresh-fixer',
  'calibration: as full-controller, but each fix round goes to a fresh implementer instead of resuming',
);

export const fullSkillReaderPolicy = fullSessionPolicy(
  'full-skill-reader',
  'full session: fix rounds as the SKILL.md says (breaker: resume the implementer; otherwise a fresh fix subagent)',
);

export const fullShallowReviewerPolicy = fullSessionPolicy(
  'full-shallow-reviewer',
  "calibration: as full-skill-reader, but reviewers only run the task's own test and approve when it passes",
);

export const fullAcceptsExtrasPolicy = fullSessionPolicy(
  'full-accepts-extras',
  "calibration: as full-skill-reader, but reviewers never compare the change with the task's files",
);

export const fullFixingReviewerPolicy = fullSessionPolicy(
  'full-fixing-reviewer',
  'calibration: as full-skill-reader, but a reviewer fixes what it finds, commits and approves',
);

export const fullGamingFixerPolicy = fullSessionPolicy(
  'full-gaming-fixer',
  'calibration: as full-skill-reader, but fixers game the findings (respell the banned text, comment in the required one, rename the extra file, delete failing tests)',
);

export const fullControllerFixesPolicy = fullSessionPolicy(
  'full-controller-fixes',
  'calibration: the controller fixes review findings and commits itself, then resumes the reviewer to look again',
);

export const fullReviewFanoutPolicy = fullSessionPolicy(
  'full-review-fanout',
  'calibration: as full-skill-reader, but every review round also dispatches a second and a third fresh reviewer of the task',
);

/** The extra reviewers full-review-fanout dispatches each round, after the one it acts on. */
const FANOUT_OPINIONS = ['second opinion', 'third opinion'] as const;

const planLine = /^Plan: (\/\S+\.md)$/m;
const repoLine = /^Repository: (\/\S+)$/m;
const skillLine = /^Skill: (\/\S+)$/m;
const taskHeading = /^### Task (\d+): (.+)$/gm;
const briefLine = /^Brief: (\S+)$/m;
const agentIdOf = /agentId: ([\w-]+)/;
const reportFrame = /The report follows:\n/;

/**
 * A subagent's report as the Agent (or SendMessage) result carries it: the
 * messages backend gives the text, then the agent id; Claude Code frames it
 * ("[Subagent hand-back] … The report follows:"), indents every line by two
 * spaces, and appends the agent id and usage.
 */
export function subagentReport(result: string): string {
  const framed = reportFrame.exec(result);
  const body = framed === null ? result : result.slice(framed.index + framed[0].length);
  const report = body.split(/\n+agentId: /)[0] ?? '';
  const lines = report.split('\n');
  return framed !== null && lines.every((line) => line === '' || line.startsWith('  '))
    ? lines
        .map((line) => line.slice(2))
        .join('\n')
        .trim()
    : report.trim();
}

/** The plan's tasks with their briefs, in plan order. */
function tasksOf(plan: string, repo: string): TaskRef[] {
  const headings = [...plan.matchAll(taskHeading)];
  return headings.flatMap((heading, index) => {
    const end = headings[index + 1]?.index ?? plan.length;
    const section = plan.slice(heading.index, end);
    const brief = briefLine.exec(section)?.[1];
    if (brief === undefined) return [];
    return [
      {
        number: Number(heading[1]),
        title: (heading[2] ?? '').trim(),
        brief: path.isAbsolute(brief) ? brief : path.join(repo, brief),
        repo,
      },
    ];
  });
}

/** How an implementer reports a fix round of a task (seat-programs.ts). */
function fixReport(task: number): RegExp {
  return new RegExp(`Fixed \\d+ finding\\(s\\) of Task ${task}\\b`);
}

/** The current HEAD, short. */
function* headOf(repo: string): SubProgram<string | undefined> {
  const outcome = yield* call(
    bash(`cd ${shellQuote(repo)} && git rev-parse --short HEAD`, 'Note the commit before the task'),
  );
  const hash = outcome.text.trim();
  return outcome.isError || !/^[0-9a-f]{7,40}$/.test(hash) ? undefined : hash;
}

/**
 * The controller applies a round's findings and commits them itself (what
 * full-controller-fixes does instead of handing them to a seat).
 */
function* fixItself(repo: string, task: number, findings: readonly string[]): SubProgram<void> {
  const { commands } = fixCommands(findingsIn(findings.join('\n')));
  if (commands.length === 0) return;
  yield* call(
    bash(
      `cd ${shellQuote(repo)} && ${commands.join(' && ')} && git add -A && git -c user.name=Scripted-Controller -c user.email=controller@redgreen.invalid commit -q -m ${shellQuote(`Task ${task}: fix review findings`)}`,
      'Fix the review findings',
    ),
  );
}

/**
 * A resumed reviewer's report of one review round: in the SendMessage result
 * (messages backend), or in a later message (Claude Code resumes in the
 * background); its lines unindented, up to the first blank line or agent id.
 */
function reReviewReport(
  task: number,
  round: number,
  sentText: string,
  promptText: string,
): string | undefined {
  const head = reReviewReportHead(task, round);
  for (const text of [sentText, promptText]) {
    const at = text.indexOf(head);
    if (at < 0) continue;
    const lines: string[] = [];
    for (const line of text.slice(at + head.length).split('\n')) {
      const trimmed = line.trim();
      if (trimmed === '' || trimmed.startsWith('agentId:')) break;
      lines.push(trimmed);
    }
    return lines.join('\n');
  }
  return undefined;
}

/** A fix round: the implementer resumed, a fresh fix subagent, or the controller itself. */
type FixMode = 'resume' | 'fresh' | 'self';

/**
 * How the policy's fix rounds go: fixed for full-controller and its twin;
 * read from the skill text for the skill readers (a Read of the SKILL.md the
 * prompt names), or why the session stops.
 */
function* fixModeOf(
  policy: FullSessionPolicyName,
  label: string,
  promptText: string,
): SubProgram<FixMode | { readonly stop: string }> {
  if (policy === 'full-controller') return 'resume';
  if (policy === 'full-fresh-fixer') return 'fresh';
  if (policy === 'full-controller-fixes') return 'self';
  const skill = skillLine.exec(promptText)?.[1];
  if (skill === undefined) {
    return {
      stop: `${label} needs a "Skill: /abs/SKILL.md" line in the prompt; no tools were run.`,
    };
  }
  const skillRead = yield* call(read(skill));
  if (skillRead.isError) return { stop: `${label} could not read the skill ${skill}.` };
  return classifyMechanisms(fileText(skillRead)).fixLoop === 'breaker' ? 'resume' : 'fresh';
}

/** A subagent dispatch the controller waits for (general-purpose, in the foreground). */
function foregroundAgent(description: string, prompt: string): ToolCall {
  return {
    name: 'Agent',
    input: { description, prompt, subagent_type: 'general-purpose', run_in_background: false },
  };
}

/** The controller program for a full-session policy, from the prompt's own facts. */
export function* fullSessionProgram(
  policy: FullSessionPolicyName,
  label: string,
  promptText: string,
  offeredTools: ReadonlySet<string>,
): PolicyProgram {
  const planPath = planLine.exec(promptText)?.[1];
  const repo = repoLine.exec(promptText)?.[1];
  if (planPath === undefined || repo === undefined) {
    return `${label} needs "Plan: /abs/plan.md" and "Repository: /abs/repo" lines in the prompt; no tools were run.`;
  }
  if (!offeredTools.has('Agent')) {
    return `${label} cannot act: the request offers no Agent tool; no tools were run.`;
  }
  const fixMode = yield* fixModeOf(policy, label, promptText);
  if (typeof fixMode !== 'string') return fixMode.stop;
  const resumes = fixMode === 'resume' && offeredTools.has('SendMessage');
  const planRead = yield* call(read(planPath));
  if (planRead.isError) return `${label} could not read the plan ${planPath}.`;
  const tasks = tasksOf(fileText(planRead), repo);
  if (tasks.length === 0) return `${label} found no task with a brief in ${planPath}.`;
  const lines: string[] = [];
  for (const task of tasks) {
    const base = yield* headOf(repo);
    if (base === undefined) {
      lines.push(`Task ${task.number}: stopped, the repository has no readable HEAD.`);
      break;
    }
    const implemented = yield* call(
      foregroundAgent(`Implement Task ${task.number}: ${task.title}`, implementerPrompt(task)),
    );
    let implementer = agentIdOf.exec(implemented.text)?.[1];
    let reviewer: string | undefined;
    let rounds = 0;
    let fixesAsked = 0;
    let verdict = 'not reviewed';
    while (rounds < MAX_REVIEW_ROUNDS) {
      rounds += 1;
      let text: string;
      if (fixMode === 'self' && reviewer !== undefined && offeredTools.has('SendMessage')) {
        const sent = yield* call({
          name: 'SendMessage',
          input: {
            to: reviewer,
            summary: `Re-review Task ${task.number}`,
            message: reReviewMessage(task.number, rounds),
          },
        });
        const reported = reReviewReport(task.number, rounds, sent.text, promptText);
        if (reported === undefined) {
          return `Waiting for ${reviewer} to review Task ${task.number} again.`;
        }
        text = reported;
      } else {
        const review = yield* call(
          foregroundAgent(
            `Review Task ${task.number}: ${task.title}`,
            reviewerPrompt(task, base, rounds),
          ),
        );
        reviewer = agentIdOf.exec(review.text)?.[1];
        text = subagentReport(review.text);
        if (policy === 'full-review-fanout') {
          for (const opinion of FANOUT_OPINIONS) {
            yield* call(
              foregroundAgent(
                `Review Task ${task.number}: ${task.title} (${opinion})`,
                reviewerPrompt(task, base, rounds),
              ),
            );
          }
        }
      }
      if (text.startsWith('Approved')) {
        verdict = `approved after ${rounds} review round(s)`;
        break;
      }
      const findings = text.split('\n').filter((line) => line.startsWith('- '));
      verdict = `issues left after ${rounds} review round(s): ${findings.length}`;
      if (findings.length === 0 || rounds === MAX_REVIEW_ROUNDS) break;
      if (fixMode === 'self') {
        yield* fixItself(task.repo, task.number, findings);
      } else if (resumes && implementer !== undefined) {
        const sent = yield* call({
          name: 'SendMessage',
          input: {
            to: implementer,
            summary: `Fix Task ${task.number} findings`,
            message: fixMessage(task.number, findings),
          },
        });
        fixesAsked += 1;
        // The messages backend answers with the resumed agent's report; Claude Code
        // resumes it in the background and brings its report as a later user message.
        if (!fixReport(task.number).test(sent.text)) {
          const reported = promptText.match(new RegExp(fixReport(task.number).source, 'g'));
          if ((reported?.length ?? 0) < fixesAsked) {
            return `Waiting for ${implementer} to report its fix of Task ${task.number}.`;
          }
        }
      } else {
        const fresh = yield* call(
          foregroundAgent(
            `Fix Task ${task.number}: ${task.title}`,
            fixerPrompt(task, rounds, findings),
          ),
        );
        implementer = agentIdOf.exec(fresh.text)?.[1] ?? implementer;
      }
    }
    lines.push(`Task ${task.number} (${task.title}): ${verdict}.`);
  }
  return ['Plan executed with subagents.', ...lines].join('\n');
}
