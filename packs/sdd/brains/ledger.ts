/**
 * A progress ledger as a policy reads it. The lines the skill texts prescribe:
 * an optional identity first line `# SDD ledger — plan: <plan file path>`, and
 * one line per finished task, `Task N: complete (commits <h> or <b>..<h>, ...)`.
 */

export interface LedgerEntry {
  readonly task: number;
  /** The commit or range the line cites (`a1b2c3d` or `a1b2c3d..e4f5a6b`), if any. */
  readonly commits: string | undefined;
}

export interface Ledger {
  /** The plan path the identity first line names, if the first line is one. */
  readonly identity: string | undefined;
  readonly entries: readonly LedgerEntry[];
  readonly finalReviewDone: boolean;
}

const identityLine = /^#\s*SDD ledger\s*(?:—|–|-{1,2})\s*plan:\s*(.+?)\s*$/i;
const completeLine = /^\s*(?:[-*]\s*)?Task\s+(\d+)\s*:\s*complete\b(.*)$/i;
const citedCommits = /commits?\s+([0-9a-f]{4,40}(?:\.\.[0-9a-f]{4,40})?)/i;

export function parseLedger(text: string): Ledger {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const identity = identityLine.exec(lines[0] ?? '')?.[1]?.replace(/^`|`$/g, '');
  const entries: LedgerEntry[] = [];
  for (const line of lines) {
    const match = completeLine.exec(line);
    if (match === null) continue;
    const task = Number(match[1]);
    if (entries.some((entry) => entry.task === task)) continue;
    entries.push({ task, commits: citedCommits.exec(match[2] ?? '')?.[1] });
  }
  return {
    identity,
    entries,
    finalReviewDone: /final whole-branch review\b[^\n]*\bdone\b/i.test(text),
  };
}

/** Whether an identity line's plan path names this plan (relative or absolute). */
export function identityNamesPlan(
  identity: string,
  plan: { readonly planRelative: string; readonly planFile: string },
): boolean {
  const named = identity.replace(/^\.\//, '');
  return named === plan.planRelative || named === plan.planFile;
}
