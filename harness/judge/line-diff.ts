/**
 * A unified line diff of two texts, for the judge's material and the
 * adjudication screen: common lines at both ends are set aside, the middle
 * is aligned by a longest common subsequence (only when it is small enough
 * to align cheaply; otherwise it is shown as removed then added), and the
 * result is printed as hunks with `context` lines around each change.
 */

/** Above this many line pairs the middle is not aligned, only replaced. */
const MAX_ALIGNED_CELLS = 2_000_000;

type Op = { readonly kind: ' ' | '-' | '+'; readonly text: string };

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function alignMiddle(a: readonly string[], b: readonly string[]): Op[] {
  if (a.length * b.length > MAX_ALIGNED_CELLS) {
    return [
      ...a.map((text) => ({ kind: '-' as const, text })),
      ...b.map((text) => ({ kind: '+' as const, text })),
    ];
  }
  // lengths[i][j]: LCS length of a[i..] and b[j..], one row at a time from the end.
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lengths[i * width + j] =
        a[i] === b[j]
          ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', text: a[i] as string });
      i += 1;
      j += 1;
    } else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) {
      ops.push({ kind: '-', text: a[i] as string });
      i += 1;
    } else {
      ops.push({ kind: '+', text: b[j] as string });
      j += 1;
    }
  }
  for (; i < a.length; i += 1) ops.push({ kind: '-', text: a[i] as string });
  for (; j < b.length; j += 1) ops.push({ kind: '+', text: b[j] as string });
  return ops;
}

/** The line operations turning `before` into `after`. */
export function lineOps(before: string, after: string): Op[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  return [
    ...a.slice(0, start).map((text) => ({ kind: ' ' as const, text })),
    ...alignMiddle(a.slice(start, endA), b.slice(start, endB)),
    ...a.slice(endA).map((text) => ({ kind: ' ' as const, text })),
  ];
}

/** Unified-diff hunks (`@@ -l,n +l,n @@` and prefixed lines); empty when the texts are equal. */
export function unifiedDiff(before: string, after: string, context = 3): string {
  const ops = lineOps(before, after);
  const changed = ops.map((op) => op.kind !== ' ');
  if (!changed.includes(true)) return '';
  const keep = ops.map((_, index) =>
    changed.slice(Math.max(0, index - context), index + context + 1).includes(true),
  );
  const out: string[] = [];
  let lineA = 1;
  let lineB = 1;
  let index = 0;
  while (index < ops.length) {
    if (!keep[index]) {
      const op = ops[index] as Op;
      if (op.kind !== '+') lineA += 1;
      if (op.kind !== '-') lineB += 1;
      index += 1;
      continue;
    }
    const hunk: Op[] = [];
    const startA = lineA;
    const startB = lineB;
    while (index < ops.length && keep[index]) {
      const op = ops[index] as Op;
      hunk.push(op);
      if (op.kind !== '+') lineA += 1;
      if (op.kind !== '-') lineB += 1;
      index += 1;
    }
    const countA = hunk.filter((op) => op.kind !== '+').length;
    const countB = hunk.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${startA},${countA} +${startB},${countB} @@`);
    out.push(...hunk.map((op) => `${op.kind}${op.text}`));
  }
  return out.join('\n');
}
