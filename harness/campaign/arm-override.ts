/**
 * `--arm <name>=<source>[,label=<text>]`: replace an arm's skill text from
 * the command line. The source is everything up to the first `,<key>=`, so
 * any source kind (a directory, `git:<repo>@<ref>:<subdir>`, or a kind added
 * later) parses the same way; the options follow as `,<key>=<value>`, and
 * `label` takes the rest of the text, commas and all. An unknown key is
 * refused, never read as part of the source.
 */
import { didYouMean } from '../lib/did-you-mean.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';

/** The options an `--arm` may give after its source, each as `,<key>=<value>`. */
export const ARM_OPTIONS = ['label'] as const;

export interface ArmOverride {
  readonly name: string;
  readonly spec: string;
  readonly label: string | undefined;
}

/** Parse one `--arm` value. */
export function parseArmOverride(text: string): Result<ArmOverride, InputError> {
  const format = 'write it as --arm red=<dir or git:repo@ref:subdir>[,label=<text>]';
  const index = text.indexOf('=');
  if (index <= 0 || index === text.length - 1) {
    return err(inputError(`--arm ${text}`, 'is not name=source', format));
  }
  const name = text.slice(0, index);
  const rest = text.slice(index + 1);
  const option = /,([a-z][a-zA-Z-]*)=/.exec(rest);
  if (option === null) return ok({ name, spec: rest, label: undefined });
  const key = option[1] ?? '';
  if (!(ARM_OPTIONS as readonly string[]).includes(key)) {
    return err(
      inputError(
        `--arm ${text}`,
        `"${key}" is not an option of --arm`,
        `${didYouMean(key, ARM_OPTIONS)}give ${ARM_OPTIONS.join(', ')} (${format})`,
      ),
    );
  }
  const spec = rest.slice(0, option.index);
  const label = rest.slice(option.index + option[0].length).trim();
  if (spec === '' || label === '') {
    return err(
      inputError(`--arm ${text}`, spec === '' ? 'has no source' : 'has an empty label', format),
    );
  }
  return ok({ name, spec, label });
}

/** An `--arm` value written back, as the run records it. */
export function formatArmOverride(arm: ArmOverride): string {
  return `${arm.name}=${arm.spec}${arm.label === undefined ? '' : `,label=${arm.label}`}`;
}
