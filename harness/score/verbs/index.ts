/**
 * The core's check verbs, the ones that know no skill. With the verbs packs
 * bring (score-registry.ts) they make the check schema (a discriminated
 * union on `verb`, plus `not`, `all-of` and `any-of`), the evidence each
 * check needs, the files captured and the commands run at rep time, and the
 * README's verb table, so none can drift from the verbs.
 */

import type { AnyVerb } from '../verb.js';
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
import { replyOneOf } from './reply-one-of.js';
import { skillInvoked } from './skill-invoked.js';
import { skillNotInvoked } from './skill-not-invoked.js';
import { skillRead } from './skill-read.js';
import { toolCalled } from './tool-called.js';
import { toolCount } from './tool-count.js';
import { toolNotCalled } from './tool-not-called.js';
import { userAnswered } from './user-answered.js';

export const CORE_VERBS: Readonly<Record<string, AnyVerb>> = {
  'file-exists': fileExists,
  'file-contains': fileContains,
  'file-unchanged': fileUnchanged,
  'files-matching': filesMatching,
  'git-head-unchanged': gitHeadUnchanged,
  'git-clean': gitClean,
  'git-branch': gitBranch,
  'command-succeeds': commandSucceeds,
  'reply-equals': replyEquals,
  'reply-one-of': replyOneOf,
  'reply-contains': replyContains,
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
};
