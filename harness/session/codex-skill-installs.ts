/**
 * Where a session's skills go on Codex: one directory per skill under
 * `$CODEX_HOME/skills`, named by the skill's bare name (a library's
 * `<plugin>:<name>` loses its plugin; a project skill keeps its directory's
 * name). Codex lists a skill by its directory there, so two skills that would
 * share one (two library skills named alike, or a project skill named as a
 * library's) cannot both be installed: that is the campaign's input, refused
 * before any rep runs (prepare-run.ts) and, were it reached, refused by the
 * backend as a value, never a throw halfway through writing CODEX_HOME.
 */

/** One skill to install: its bare directory name and where its SKILL.md came from (for messages). */
export interface CodexSkillEntry {
  readonly dir: string;
  readonly from: string;
}

/** The bare name a library skill is installed under (`devflow:test-first` → `test-first`). */
export function bareSkillName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/** Why the entries cannot all be installed (two share a directory), or undefined. */
export function codexSkillClash(
  entries: readonly CodexSkillEntry[],
): { readonly problem: string; readonly fix: string } | undefined {
  const seen = new Map<string, string>();
  for (const entry of entries) {
    const first = seen.get(entry.dir);
    if (first !== undefined) {
      return {
        problem: `${first} and ${entry.from} are both installed as $CODEX_HOME/skills/${entry.dir} (Codex lists skills by bare name, one directory each)`,
        fix: 'rename one of them (its front-matter name, or a project skill’s directory), or run this campaign on another engine',
      };
    }
    seen.set(entry.dir, entry.from);
  }
  return undefined;
}
