/**
 * `skill-reader`: reads SKILL.md and does what the text says. A plan-scoped
 * text (it runs `sdd-workspace PLAN_FILE` / names the `# SDD ledger — plan:`
 * identity line) makes it behave as `structural`; a flat-ledger text (it
 * points at `.superpowers/sdd/progress.md`) makes it behave as `literal`; a
 * text naming no ledger makes it start fresh. This is the policy that lets an
 * offline RED→GREEN campaign show two skill texts apart.
 *
 * Under a plan-scoped text it also follows what the text says at the moments
 * of the fix-loop chain (a plan conflict before Task 1, a task mid-way
 * through its fix loop or at the breaker, the final review): see
 * chain-reader.ts, which reads the text's mechanisms with the markers of
 * `skills-under-test/markers.json`.
 */
import { freshStart } from './always-redo.js';
import { chainReader } from './chain-reader.js';
import type { Policy } from './context.js';
import { literalResume } from './literal.js';
import { ledgerInstruction, readSkill, unanchoredReport, workspaceFor } from './skill-text.js';
import { structuralResume } from './structural.js';

export const skillReaderPolicy: Policy = {
  name: 'skill-reader',
  summary:
    "follows SKILL.md: literal under a flat-ledger text, structural under a plan-scoped text (and the fix-loop chain's moments as its text says)",
  needs: ['Read', 'Bash'],
  *program(context) {
    const skill = yield* readSkill(context);
    if (!skill.ok) return unanchoredReport(context, skill.problem);
    switch (ledgerInstruction(skill.text)) {
      case 'plan-scoped':
        return yield* structuralResume(context, chainReader(context, skill.text));
      case 'flat':
        return yield* literalResume(context);
      case 'none':
        return yield* freshStart(
          context,
          'none — the skill text names no progress ledger; starting the plan at Task 1.',
          workspaceFor(context, skill.text),
        );
    }
  },
};
