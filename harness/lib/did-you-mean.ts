/**
 * The known value a typo most likely meant: the same word in another case,
 * else the nearest by edit distance when it is close enough to be a typo
 * (at most a third of the word's letters, and at most 3). Undefined when
 * nothing is that close.
 */
export function closestMatch(word: string, known: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const sameWord = known.find((candidate) => candidate.toLowerCase() === lower);
  if (sameWord !== undefined) return sameWord;
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) {
      best = { candidate, distance };
    }
  }
  return best?.candidate;
}

/** `did you mean "Write"? ` when a known value is close, else ''; for the fix part of an error. */
export function didYouMean(word: string, known: readonly string[]): string {
  const match = closestMatch(word, known);
  return match === undefined || match === word ? '' : `did you mean "${match}"? `;
}

/**
 * Edit distance with adjacent transpositions (optimal string alignment):
 * insertions, deletions, substitutions and swaps of two neighbours each
 * cost 1, so `Grpe` is one step from `Grep`.
 */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i += 1) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j += 1) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const above = rows[i - 1] ?? [];
      let best = Math.min((row[j - 1] ?? 0) + 1, (above[j] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      }
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? 0;
}
