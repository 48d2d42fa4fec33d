import { z } from 'zod';
import { type InputError, inputError } from '../lib/input-error.js';
import { checkOutputFile } from '../lib/output-file.js';
import { err, ok, type Result } from '../lib/result.js';
import { type FaultRule, parseFaultSpec } from './faults.js';
import { scriptedModelId } from './model-id.js';
import { isPolicyName, policyNames } from './policies/registry.js';
import { type ModelServerOptions, startModelServer } from './server.js';

/** The flags as commander hands them over (all strings). */
export const ServeModelFlagsSchema = z.strictObject({
  policy: z.string(),
  port: z.string().optional(),
  seed: z.string().optional(),
  log: z.string().optional(),
  fault: z.array(z.string()).optional(),
  extraVerify: z.string().optional(),
  lookAround: z.string().optional(),
});
export type ServeModelFlags = z.infer<typeof ServeModelFlagsSchema>;

export interface ServeModelSettings {
  /** A known scripted policy's name. */
  readonly policy: string;
  readonly port: number;
  readonly seed: string | undefined;
  readonly logFile: string | undefined;
  readonly faults: readonly FaultRule[];
  readonly extras: ModelServerOptions['extras'];
}

export async function parseServeModelFlags(
  raw: unknown,
): Promise<Result<ServeModelSettings, InputError>> {
  const shape = ServeModelFlagsSchema.safeParse(raw);
  if (!shape.success) {
    return err(
      inputError(
        'serve-model flags',
        shape.error.issues[0]?.message ?? 'invalid',
        'see redgreen serve-model --help',
      ),
    );
  }
  const flags = shape.data;
  if (!isPolicyName(flags.policy)) {
    return err(
      inputError(
        `--policy ${flags.policy}`,
        'is not a scripted policy',
        `use one of ${policyNames().join(', ')}`,
      ),
    );
  }
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!/^\d+$/.test(flags.port ?? '0') || port > 65535) {
    return err(
      inputError(
        `--port ${flags.port}`,
        'is not a port number',
        'give 0..65535 (0 picks a free port)',
      ),
    );
  }
  if (flags.seed !== undefined && flags.seed.trim() === '') {
    return err(
      inputError(
        '--seed',
        'is empty',
        'give a seed such as 1, or omit --seed for no random extras',
      ),
    );
  }
  const faults: FaultRule[] = [];
  for (const spec of flags.fault ?? []) {
    const rule = parseFaultSpec(spec);
    if (!rule.ok) return err(rule.error);
    faults.push(rule.value);
  }
  const verification = probability('--extra-verify', flags.extraVerify);
  if (!verification.ok) return verification;
  const lookAround = probability('--look-around', flags.lookAround);
  if (!lookAround.ok) return lookAround;
  if (flags.log !== undefined) {
    const writable = await checkOutputFile(flags.log, `--log ${flags.log}`);
    if (!writable.ok) return writable;
  }
  return ok({
    policy: flags.policy,
    port,
    seed: flags.seed,
    logFile: flags.log,
    faults,
    extras: {
      ...(verification.value === undefined ? {} : { verificationProbability: verification.value }),
      ...(lookAround.value === undefined ? {} : { lookAroundProbability: lookAround.value }),
    },
  });
}

/** Start the server, print its base URL, and serve until SIGINT/SIGTERM. Returns the exit code. */
export async function serveUntilSignalled(
  settings: ServeModelSettings,
  write: (line: string) => void,
): Promise<Result<void, InputError>> {
  let server: Awaited<ReturnType<typeof startModelServer>>;
  try {
    server = await startModelServer({
      policy: settings.policy,
      port: settings.port,
      faults: settings.faults,
      ...(settings.seed === undefined ? {} : { seed: settings.seed }),
      ...(settings.logFile === undefined ? {} : { logFile: settings.logFile }),
      ...(settings.extras === undefined ? {} : { extras: settings.extras }),
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      return err(
        inputError(
          `--port ${settings.port}`,
          code === 'EADDRINUSE' ? 'is already in use' : 'may not be bound',
          'choose another port, or 0 for any free port',
        ),
      );
    }
    throw error;
  }
  write(
    `redgreen model server (${scriptedModelId(settings.policy)}) listening on ${server.baseUrl}`,
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  return ok(undefined);
}

function probability(
  flag: string,
  raw: string | undefined,
): Result<number | undefined, InputError> {
  if (raw === undefined) return ok(undefined);
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    return err(inputError(`${flag} ${raw}`, 'is not a probability', 'give a number from 0 to 1'));
  }
  return ok(value);
}
