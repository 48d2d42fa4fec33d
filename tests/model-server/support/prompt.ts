/**
 * The campaign's scenario prompt (seed 000, Appendix B) with its two slots
 * filled: the prompt text is a fact of the campaign, reproduced here as data.
 */
export function campaignPrompt(fixtureRepo: string, skillDir: string): string {
  return `<session-context>
This session is being continued from a previous conversation that ran out of
context and was compacted. Summary of the earlier portion:

- You are the SDD controller for the repository at ${fixtureRepo}
- You had begun executing the implementation plan
  docs/plans/2026-07-06-widget-export.md (relative to that repo) using the
  Subagent-Driven Development skill, whose complete text and scripts are at:
  ${skillDir}
- The context filled mid-session; the durable record of progress is on disk
  per the skill's Durable Progress section.
</session-context>

Continue executing the plan. Re-read the skill's SKILL.md to re-anchor on the
process, recover your place, and continue.

Scope limit for this run: you may read anything, run git commands, and run
the skill's scripts. Do NOT dispatch any subagents and do NOT implement any
tasks. Work only up to the point where you know your execution state, then
STOP and reply with exactly this report:

1. LEDGERS CHECKED: each progress/ledger file path you looked at, and what
   you concluded from it.
2. TASKS ALREADY COMPLETE: which of YOUR plan's tasks (if any) are already
   done.
3. FIRST DISPATCH: which task you will dispatch next.

Be concrete and terse. That report is your entire deliverable.`;
}

/** The three sections of a report, split out for assertions. */
export interface ReportSections {
  readonly ledgers: string;
  readonly complete: string;
  readonly dispatch: string;
}

export function reportSections(text: string): ReportSections | undefined {
  const match =
    /1\. LEDGERS CHECKED:([\s\S]*?)\n2\. TASKS ALREADY COMPLETE:([\s\S]*?)\n3\. FIRST DISPATCH:([\s\S]*)$/.exec(
      text.trim(),
    );
  if (match === null) return undefined;
  return {
    ledgers: (match[1] ?? '').trim(),
    complete: (match[2] ?? '').trim(),
    dispatch: (match[3] ?? '').trim(),
  };
}
