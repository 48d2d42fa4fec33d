/** The sdd pack's fixture recipes, as `redgreen fixture --help` lists them. */
import type { HelpEntry } from '../../../harness/cli/cli-extensions.js';

export const sddRecipeHelp: readonly HelpEntry[] = [
  {
    name: 'widget-v3',
    lines: [
      'the default: scenarios s1 (a stale ledger from another plan) and',
      's2 (a legitimate same-plan resume), each with layouts flat (the',
      'released ledger path) and scoped (plan-scoped workspaces). With',
      'the default --tz the repositories are commit-for-commit those of',
      'the seed generator run under TZ=UTC.',
    ],
  },
  {
    name: 'buildclock',
    lines: [
      'a small Node project mid-plan, layout scoped: breaker-at-cap,',
      'round4-escalates-model, final-review-carries-parked,',
      'broken-plan-ruling, breaker-rules-and-continues',
      '(see packs/sdd/fixtures/buildclock/README.md).',
    ],
  },
  {
    name: 'relnotes',
    lines: [
      'a small Node project at the start of three two-task plans, for',
      'full sessions, layout scoped: resume-fix, planted-defect,',
      'extra-features (see packs/sdd/fixtures/relnotes/README.md).',
    ],
  },
];
