/**
 * The skill-triggering pack: scripted brains that find a skill by its
 * description, load it, and follow (or ignore) what it says, for campaigns
 * about whether and when a skill is used rather than what one skill says.
 */
import { definePack } from '../../harness/pack/pack.js';
import { skillTriggeringBrains } from './brains/index.js';

export const skillTriggeringPack = definePack({
  name: 'skill-triggering',
  summary: 'skills found by their description, loaded and followed',
  brains: skillTriggeringBrains,
  // A skill's own evals run offline on the brain that does what the request asks.
  campaign: { evalsOfflineModel: 'scripted:task-follower' },
});
