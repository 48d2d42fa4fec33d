/**
 * What the SDD pack adds to the score room: the readers of plan tasks and
 * path judgements in a reply, the verbs over them, the plan catalogue a
 * scenario declares (`plan`, its own, and `plans`), and the task each
 * dispatch addresses, and the cost metric over those (dispatches per task).
 */
import { z } from 'zod';
import type { ScoreContribution } from '../../../harness/score/score-registry.js';
import { dispatchTaskReading } from './dispatch-tasks.js';
import { dispatchesPerTaskMetric } from './dispatches-per-task.js';
import { pathJudgementsExtractor } from './extractors/path-judgements.js';
import { taskExtractor } from './extractors/task.js';
import { tasksExtractor } from './extractors/tasks.js';
import { planCatalogueSchema } from './plan-context.js';
import { replyIsTask } from './verbs/reply-is-task.js';
import { replyPathJudged } from './verbs/reply-path-judged.js';
import { replyTasks } from './verbs/reply-tasks.js';

export const sddScore: ScoreContribution = {
  extractors: {
    task: taskExtractor,
    tasks: tasksExtractor,
    'path-judgements': pathJudgementsExtractor,
  },
  verbs: {
    'reply-is-task': replyIsTask,
    'reply-tasks': replyTasks,
    'reply-path-judged': replyPathJudged,
  },
  scenarioFields: {
    plans: planCatalogueSchema.default({}),
    plan: z
      .string()
      .min(1)
      .optional()
      .describe(
        "the session's own plan, relative to the fixture repo (none: a scenario without one)",
      ),
  },
  // `{{ownPlan}}` is the scenario's own plan, known when the file loads.
  knownFacts: (scenario) => (typeof scenario.plan === 'string' ? { ownPlan: scenario.plan } : {}),
  // The plan names the session's work: it enters the campaign identity and campaign.json.
  identityFields: ['plan'],
  dispatchReading: dispatchTaskReading,
  metrics: { 'dispatches-per-task': dispatchesPerTaskMetric },
};
