import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { type ModelEntryConfig, modelEntrySchema } from './model-config.js';

/**
 * `--model <id>[,endpoint=<profile>][,offline=scripted:<policy>][,name=<name>]`:
 * one model of a run, as a command-line flag (repeatable). The id comes
 * first; the options after commas take the same meaning as the campaign
 * file's `models` entries. A run's resolved models are recorded in this
 * form, so `--resume` repeats them.
 */
const KEYS = ['endpoint', 'offline', 'name'] as const;
type SpecKey = (typeof KEYS)[number];

const FORMAT =
  'write it as --model <id>[,endpoint=<profile>][,offline=scripted:<policy>][,name=<name>]';

export function parseModelSpec(text: string): Result<ModelEntryConfig, InputError> {
  const input = `--model ${text}`;
  const [id = '', ...options] = text.split(',');
  const entry: Record<string, string> = { id: id.trim() };
  for (const option of options) {
    const index = option.indexOf('=');
    const key = option.slice(0, index).trim();
    if (index <= 0 || !(KEYS as readonly string[]).includes(key)) {
      return err(inputError(input, `"${option}" is not one of ${KEYS.join('=, ')}=`, FORMAT));
    }
    if (entry[key] !== undefined) return err(inputError(input, `gives ${key} twice`, FORMAT));
    entry[key as SpecKey] = option.slice(index + 1).trim();
  }
  const parsed = modelEntrySchema.safeParse(entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? 'id';
    return err(inputError(input, `${field}: ${issue?.message ?? 'is invalid'}`, FORMAT));
  }
  return ok(parsed.data);
}

/** The spec text of an entry: what `parseModelSpec` reads back as the same entry. */
export function formatModelSpec(entry: {
  readonly id: string;
  readonly endpoint?: string | undefined;
  readonly offline?: string | undefined;
  readonly name?: string | undefined;
}): string {
  return [
    entry.id,
    ...(entry.endpoint === undefined ? [] : [`endpoint=${entry.endpoint}`]),
    ...(entry.offline === undefined ? [] : [`offline=${entry.offline}`]),
    ...(entry.name === undefined ? [] : [`name=${entry.name}`]),
  ].join(',');
}

/** The name a model goes by when its entry gives none: its id, lower-cased, runs of other characters as one dash. */
export function defaultModelName(id: string): string {
  const name = id
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return name === '' || name === 'every' ? `model-${name}` : name;
}
