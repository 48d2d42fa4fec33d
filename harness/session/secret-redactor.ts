/**
 * Replaces secrets (the API key) in text before it is written anywhere, and
 * counts the replacements so a leak is reported instead of hidden. Secrets
 * shorter than 8 characters are ignored (they would match ordinary text).
 * A secret of several lines (a key pasted with a line break) is replaced
 * whole and line by line: each part between control characters or spaces
 * that is 8 characters or longer, since an error quoting the secret may keep
 * only its first line.
 */

/** Text shorter than this is not replaced: it would match ordinary text. */
const SHORTEST_SECRET = 8;

/** What to replace of one secret: the whole, then its parts, longest first. */
export function secretFragments(secret: string): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a secret's lines are cut at control characters
  const parts = secret.split(/[\u0000-\u0020\u007f]+/);
  return [...new Set([secret, ...parts])]
    .filter((part) => part.length >= SHORTEST_SECRET)
    .sort((a, b) => b.length - a.length);
}

export class SecretRedactor {
  readonly #secrets: readonly string[];
  /** What a secret is replaced with. */
  readonly #label: string;
  #count = 0;

  constructor(secrets: readonly string[], label = '[REDACTED]') {
    this.#secrets = [...new Set(secrets.flatMap(secretFragments))].sort(
      (a, b) => b.length - a.length,
    );
    this.#label = label;
  }

  get count(): number {
    return this.#count;
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) {
      if (!out.includes(secret)) continue;
      const parts = out.split(secret);
      this.#count += parts.length - 1;
      out = parts.join(this.#label);
    }
    return out;
  }
}
