/**
 * The files an inline program writes, read from its source text (never run):
 * Python, Node, Perl and Ruby given their code with `-c`/`-e`/`--eval`/`-p`,
 * or reading it from a here-document (`python3 - <<'PY'`, `node <<EOF`).
 * Only a string literal that a writing call takes as its file counts:
 *
 * - Python: `open(P, 'w'…)` (any mode with w, a, x or +), `Path(P).write_text`
 *   / `write_bytes`, `shutil.copy*(X, P)`, `os.rename` / `os.replace(X, P)`;
 * - Node: `writeFile(Sync)(P`, `appendFile(Sync)(P`, `createWriteStream(P`,
 *   `copyFile(Sync)(X, P)`, `rename(Sync)(X, P)`;
 * - Perl: `open(FH, '>', P)` / `open(FH, ">P")`; Ruby: `File.write(P`,
 *   `File.open(P, 'w')`.
 *
 * A program that builds its path at run time is not seen here (the `order`
 * verb checks the snapshots for writes no event names).
 */

const INTERPRETERS: Readonly<Record<string, 'python' | 'node' | 'perl' | 'ruby'>> = {
  python: 'python',
  python3: 'python',
  node: 'node',
  nodejs: 'node',
  deno: 'node',
  bun: 'node',
  perl: 'perl',
  ruby: 'ruby',
};

const LITERAL = String.raw`(?:'([^'\n]+)'|"([^"\n]+)"|` + '`([^`\\n]+)`)';
const NEXT = String.raw`\s*,\s*`;

/** The write patterns of each language: the literal's groups hold the path. */
const PATTERNS: Readonly<Record<string, readonly RegExp[]>> = {
  python: [
    new RegExp(String.raw`\bopen\(\s*${LITERAL}${NEXT}(?:mode\s*=\s*)?['"][^'"]*[wax+]`, 'g'),
    new RegExp(String.raw`\bPath\(\s*${LITERAL}\s*\)\.write_(?:text|bytes)\(`, 'g'),
    new RegExp(
      String.raw`\b(?:shutil\.copy\w*|os\.rename|os\.replace)\(\s*[^,]+${NEXT}${LITERAL}`,
      'g',
    ),
  ],
  node: [
    new RegExp(String.raw`\b(?:writeFile|appendFile)(?:Sync)?\(\s*${LITERAL}`, 'g'),
    new RegExp(String.raw`\bcreateWriteStream\(\s*${LITERAL}`, 'g'),
    new RegExp(String.raw`\b(?:copyFile|rename)(?:Sync)?\(\s*[^,]+${NEXT}${LITERAL}`, 'g'),
  ],
  perl: [
    new RegExp(String.raw`\bopen\s*\(?\s*[^,]+${NEXT}['"]\+?>>?['"]${NEXT}${LITERAL}`, 'g'),
    /\bopen\s*\(?\s*[^,]+,\s*['"]\+?>>?\s*([^'"\s]+)['"]/g,
  ],
  ruby: [
    new RegExp(String.raw`\bFile\.write\(\s*${LITERAL}`, 'g'),
    new RegExp(String.raw`\bFile\.open\(\s*${LITERAL}${NEXT}['"][^'"]*[wa+]`, 'g'),
  ],
};

/**
 * The programs given inline in a command line (`python3 -c '…'`, `node -e
 * "…"`), read from the raw text: the shell-word splitter cuts a line at
 * parentheses, which inline code is full of. Each with where it starts.
 */
export function inlinePrograms(
  commandLine: string,
): { readonly program: string; readonly code: string; readonly at: number }[] {
  const found: { program: string; code: string; at: number }[] = [];
  const pattern =
    /(?:^|[\s;&|(`/])(python3?|node(?:js)?|deno|bun|perl|ruby)((?:\s+-[\w-]+)*?)\s+(-c|-e|-E|--eval|-p|--print|-[a-z]*e)\s+(?:'([^']*)'|"((?:[^"\\]|\\.)*)")/g;
  for (const match of commandLine.matchAll(pattern)) {
    const program = match[1] ?? '';
    const flag = match[3] ?? '';
    if (INTERPRETERS[program] === 'python' && flag !== '-c') continue;
    const code = match[4] ?? (match[5] ?? '').replace(/\\(["\\$`])/g, '$1');
    found.push({ program, code, at: match.index ?? 0 });
  }
  return found;
}

/** The files a program in `language`'s source text writes. */
export function codeWrites(program: string, code: string): { path: string; how: string }[] {
  const language = Object.hasOwn(INTERPRETERS, program) ? INTERPRETERS[program] : undefined;
  if (language === undefined) return [];
  const writes: { path: string; how: string }[] = [];
  for (const pattern of PATTERNS[language] ?? []) {
    for (const found of code.matchAll(pattern)) {
      const file = found.slice(1).find((group) => group !== undefined);
      if (file !== undefined) writes.push({ path: file, how: `${program} code` });
    }
  }
  return writes;
}

/** The files an interpreter named `program` writes from the here-documents it is fed. */
export function heredocProgramWrites(
  program: string,
  heredocs: readonly string[],
): { path: string; how: string }[] {
  return heredocs.flatMap((code) => codeWrites(program, code));
}
