/**
 * Replaces secrets (the API key) in text before it is written anywhere, and
 * counts the replacements so a leak is reported instead of hidden. Secrets
 * shorter than 8 characters are ignored (they would match ordinary text).
 */
export class SecretRedactor {
  readonly #secrets: readonly string[];
  #count = 0;

  constructor(secrets: readonly string[]) {
    this.#secrets = secrets.filter((secret) => secret.length >= 8);
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
      out = parts.join('[REDACTED]');
    }
    return out;
  }
}
