import type { z } from 'zod';
import { closestMatch, didYouMean } from './did-you-mean.js';
import { type InputError, inputError } from './input-error.js';

function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text === '' ? String(part) : `.${String(part)}`;
  }
  return text;
}

function samePath(a: readonly PropertyKey[], b: readonly PropertyKey[]): boolean {
  return a.length === b.length && a.every((part, index) => part === b[index]);
}

/**
 * A misspelt required field shows up twice: the required field is missing,
 * and an unknown one is present. The unknown one is the root cause, so it is
 * reported, with the missing field it most likely stands for.
 */
function misspeltField(
  source: string,
  issues: readonly z.core.$ZodIssue[],
): InputError | undefined {
  const unknown = issues.find((issue) => issue.code === 'unrecognized_keys');
  if (unknown === undefined || unknown.code !== 'unrecognized_keys') return undefined;
  const missing = issues
    .filter(
      (issue) =>
        issue.code === 'invalid_type' &&
        /received undefined$/.test(issue.message) &&
        samePath(issue.path.slice(0, -1), unknown.path),
    )
    .map((issue) => String(issue.path.at(-1)));
  const where = pathText(unknown.path);
  const field = where === '' ? source : `${source}: ${where}`;
  const guesses = unknown.keys
    .map((key) => {
      const best = closestMatch(key, missing);
      return best !== undefined ? `"${key}" (did you mean "${best}"?)` : `"${key}"`;
    })
    .join(', ');
  return inputError(
    field,
    `unknown field${unknown.keys.length > 1 ? 's' : ''} ${guesses}`,
    missing.length > 0
      ? `fix its spelling: the required field${missing.length > 1 ? 's' : ''} ${missing.map((key) => `"${key}"`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing`
      : 'remove it or fix its spelling (unknown fields are rejected so a typo never changes a run silently)',
  );
}

/** A zod schema's definition, as far as finding an object's fields needs it. */
interface SchemaDef {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly element?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly discriminator?: string;
  readonly getter?: () => z.ZodType;
}

function defOf(schema: z.ZodType): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

/**
 * The fields the object at `path` of `data` may have, by walking `schema`
 * (a union is resolved by the data's discriminator, else by the option that
 * declares the most of its keys); undefined when it cannot tell.
 */
export function knownFields(
  schema: z.ZodType,
  data: unknown,
  path: readonly PropertyKey[],
): string[] | undefined {
  const def = defOf(schema);
  const inner = def.innerType ?? def.in ?? def.getter?.();
  if (inner !== undefined && def.type !== 'object') return knownFields(inner, data, path);
  if (def.type === 'union' && def.options !== undefined) {
    const record = (typeof data === 'object' && data !== null ? data : {}) as Record<
      string,
      unknown
    >;
    const fieldsOf = (option: z.ZodType) => knownFields(option, data, path) ?? [];
    const chosen =
      def.discriminator !== undefined
        ? def.options.find((option) => {
            const shape = defOf(option).shape;
            const literal = shape?.[def.discriminator ?? ''];
            return literal?.safeParse(record[def.discriminator ?? '']).success === true;
          })
        : undefined;
    if (chosen !== undefined) return knownFields(chosen, data, path);
    if (path.length > 0) return undefined;
    const keys = Object.keys(record);
    const ranked = [...def.options].sort(
      (a, b) =>
        keys.filter((key) => fieldsOf(b).includes(key)).length -
        keys.filter((key) => fieldsOf(a).includes(key)).length,
    );
    return ranked[0] === undefined ? undefined : fieldsOf(ranked[0]);
  }
  if (path.length === 0)
    return def.type === 'object' && def.shape !== undefined ? Object.keys(def.shape) : undefined;
  const [head, ...rest] = path;
  const child = (data as Record<PropertyKey, unknown> | undefined)?.[head as string];
  if (def.type === 'object' && def.shape !== undefined) {
    const field = def.shape[String(head)];
    return field === undefined ? undefined : knownFields(field, child, rest);
  }
  const items = def.element ?? def.valueType;
  return items === undefined ? undefined : knownFields(items, child, rest);
}

/** `did you mean "maxTurns"? use maxTurns, …`, for an unknown field whose allowed fields are known. */
function allowedFieldsFix(keys: readonly string[], allowed: readonly string[]): string {
  const key = keys[0] ?? '';
  return `${didYouMean(key, allowed)}use ${allowed.map((field) => `"${field}"`).join(', ')} (unknown fields are rejected so a typo never changes a run silently)`;
}

/**
 * Turn the first problem a zod schema found in a file or flag into a
 * one-line InputError that names the field and says how to fix it. An
 * unknown field is reported before the missing field it was probably meant
 * to be; given the schema and the data, an unknown field's fix lists the
 * fields allowed there.
 */
export function inputErrorFromZod(
  source: string,
  error: z.ZodError,
  against?: { readonly schema: z.ZodType; readonly data: unknown },
): InputError {
  const misspelt = misspeltField(source, error.issues);
  if (misspelt !== undefined) {
    const unknown = error.issues.find((issue) => issue.code === 'unrecognized_keys');
    const allowed =
      against === undefined || unknown === undefined
        ? undefined
        : knownFields(against.schema, against.data, unknown.path);
    return allowed === undefined ||
      unknown?.code !== 'unrecognized_keys' ||
      /required field/.test(misspelt.fix)
      ? misspelt
      : { ...misspelt, fix: allowedFieldsFix(unknown.keys, allowed) };
  }
  const issue = error.issues[0];
  if (issue === undefined)
    return inputError(source, 'is invalid', 'check it against the documented format');
  const where = pathText(issue.path);
  const field = where === '' ? source : `${source}: ${where}`;
  switch (issue.code) {
    case 'unrecognized_keys':
      return inputError(
        `${field}${where === '' ? '' : ''}`,
        `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`,
        'remove it or fix its spelling (unknown fields are rejected so a typo never changes a run silently)',
      );
    case 'invalid_type':
      return inputError(
        field,
        issue.message.replace(/^Invalid input: /, ''),
        `give ${where || 'it'} the expected type`,
      );
    case 'invalid_key':
      // A record's key (a header name) broke a rule: say which rule, not "Invalid key in record".
      return inputError(field, issue.issues[0]?.message ?? issue.message, 'fix or remove the key');
    default:
      return inputError(field, issue.message, 'fix the value');
  }
}
