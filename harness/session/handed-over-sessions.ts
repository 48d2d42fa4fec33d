import { mkdir } from 'node:fs/promises';
import { type Sandbox, whileHandedOver } from '../sandbox/sandbox.js';
import type { SessionBackend, SessionRequest } from './session-types.js';

/**
 * A session backend whose sessions run with the directories their commands
 * write in (`writable`: the fixture, the engine's TMPDIR) made first and
 * handed over to the sandbox's user, and taken back when the session ends.
 */
export function handedOverSessions(
  sandbox: Sandbox,
  writable: (request: SessionRequest) => readonly string[],
  backend: SessionBackend,
): SessionBackend {
  return {
    name: backend.name,
    run: async (request) => {
      const dirs = writable(request);
      for (const dir of dirs) await mkdir(dir, { recursive: true });
      return whileHandedOver(sandbox, dirs, () => backend.run(request));
    },
  };
}
