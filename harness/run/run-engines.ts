import type { InputError } from '../lib/input-error.js';
import { ok, type Result } from '../lib/result.js';
import type { ScheduledRep } from '../schedule/schedule.js';
import {
  type BackendChoice,
  createBackend,
  type PreparedBackend,
} from '../session/create-backend.js';
import type { BackendName } from '../session/session-tool-table.js';

/**
 * The engines of a run, each prepared once: one for a one-engine campaign,
 * one per engine of `engines`/`--engine`. The first problem (a binary
 * missing, a sandbox refusal) is the run's. The identity records every
 * engine's name and version (`claude-code 2.1.332; codex codex-cli 0.169.0`),
 * so one engine's upgrade is a new campaign identity as it is for one.
 */
export interface RunEngines {
  readonly byEngine: ReadonlyMap<BackendName, PreparedBackend>;
  /** The first engine's: the fixtures' git and the identity's sandbox kind (all engines share the host's sandbox). */
  readonly first: PreparedBackend;
  /** Every engine's name and version, `; `-joined; one engine's as it always was. */
  readonly engine: string;
  /** Every engine's sandbox line, `; `-joined when they differ. */
  readonly sandboxDescription: string;
}

export async function prepareRunEngines(
  engines: readonly BackendName[],
  choice: BackendChoice,
): Promise<Result<RunEngines, InputError>> {
  const byEngine = new Map<BackendName, PreparedBackend>();
  for (const engine of engines) {
    const prepared = await createBackend(engine, choice);
    if (!prepared.ok) return prepared;
    byEngine.set(engine, prepared.value);
  }
  const all = [...byEngine.values()];
  const first = all[0];
  if (first === undefined) throw new Error('a run prepared no engine');
  return ok({
    byEngine,
    first,
    engine: all.map((prepared) => prepared.engine).join('; '),
    sandboxDescription: [...new Set(all.map((prepared) => prepared.sandboxDescription))].join('; '),
  });
}

/** The prepared engine a rep runs on: its model entry's engine, else the run's one. */
export function engineForRep(
  engines: RunEngines,
  entryEngine: BackendName | undefined,
  rep: Pick<ScheduledRep, 'id'>,
): PreparedBackend {
  const engine = entryEngine ?? engines.first.backend.name;
  const prepared = engines.byEngine.get(engine);
  if (prepared === undefined) throw new Error(`rep ${rep.id} names engine ${engine}, not prepared`);
  return prepared;
}
