/**
 * The subagent-driven-development pack: plans and their tasks, workspace
 * ledgers and the commits they cite, dispatches of implementers and
 * reviewers, and the fixtures and scripted brains the SDD campaigns use.
 */
import { definePack } from '../../harness/pack/pack.js';
import { sddScore } from './score/index.js';

export const sddPack = definePack({
  name: 'sdd',
  summary: 'subagent-driven development: plans, tasks, workspace ledgers, dispatches',
  score: sddScore,
});
