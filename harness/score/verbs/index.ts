/**
 * Every check verb, in one table. The check schema (a discriminated union on
 * `verb`, plus `not`, `all-of` and `any-of`), the evidence each check needs,
 * the files captured and the commands run at rep time, and the README's verb
 * table are all derived from it, so none can drift from the verbs.
 */
import { commandSucceeds } from './command-succeeds.js';
import { dispatch } from './dispatch.js';
import { fileContains } from './file-contains.js';
import { fileExists } from './file-exists.js';
import { fileUnchanged } from './file-unchanged.js';
import { filesMatching } from './files-matching.js';
import { gitBranch } from './git-branch.js';
import { gitClean } from './git-clean.js';
import { gitHeadUnchanged } from './git-head-unchanged.js';
import { judged } from './judged.js';
import { order } from './order.js';
import { outputContains } from './output-contains.js';
import { questionAsked } from './question-asked.js';
import { replyContains } from './reply-contains.js';
import { replyEquals } from './reply-equals.js';
import { replyIsTask } from './reply-is-task.js';
import { replyOneOf } from './reply-one-of.js';
import { replyPathJudged } from './reply-path-judged.js';
import { replyTasks } from './reply-tasks.js';
import { skillInvoked } from './skill-invoked.js';
import { skillNotInvoked } from './skill-not-invoked.js';
import { skillRead } from './skill-read.js';
import { toolCalled } from './tool-called.js';
import { toolCount } from './tool-count.js';
import { toolNotCalled } from './tool-not-called.js';
import { userAnswered } from './user-answered.js';

export const VERBS = {
  'file-exists': fileExists,
  'file-contains': fileContains,
  'file-unchanged': fileUnchanged,
  'files-matching': filesMatching,
  'git-head-unchanged': gitHeadUnchanged,
  'git-clean': gitClean,
  'git-branch': gitBranch,
  'command-succeeds': commandSucceeds,
  'reply-is-task': replyIsTask,
  'reply-tasks': replyTasks,
  'reply-equals': replyEquals,
  'reply-one-of': replyOneOf,
  'reply-contains': replyContains,
  'reply-path-judged': replyPathJudged,
  'output-contains': outputContains,
  'tool-called': toolCalled,
  'tool-not-called': toolNotCalled,
  'tool-count': toolCount,
  'skill-read': skillRead,
  'skill-invoked': skillInvoked,
  'skill-not-invoked': skillNotInvoked,
  order,
  dispatch,
  'question-asked': questionAsked,
  'user-answered': userAnswered,
  judged,
} as const;

export type VerbName = keyof typeof VERBS;
export const VERB_NAMES = Object.keys(VERBS) as VerbName[];

export function isVerbName(value: string): value is VerbName {
  return Object.hasOwn(VERBS, value);
}
