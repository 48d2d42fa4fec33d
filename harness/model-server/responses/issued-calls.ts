/**
 * The model server's own record of the calls it issued on the Responses
 * face: for each session key and thread (Codex's `thread-id`), every
 * `function_call` a 200 answer carried (the scripted brain's calls and the
 * waits the tool map owes), by `call_id`, with its name, namespace and
 * arguments as sent. An answer a fault replaced (a status, a dropped,
 * malformed or truncated stream) issued nothing: Codex never ran its calls.
 *
 * It is what the codex backend checks a spawned thread's rollout against
 * (harness/session/codex-issued-check.ts): Codex's `--json` stream reports
 * the root thread only, and a rollout is a file the session's commands can
 * write, while this record is kept in redgreen's own process. It is read
 * with `GET /v1/redgreen/issued-calls?session=<key>&token=<token>` (IssuedCallsSchema).
 *
 * Each session's calls are kept under the token its requests carried in
 * `x-redgreen-record` (RECORD_TOKEN_HEADER), a random value the codex
 * backend writes into that rep's own CODEX_HOME: another rep's commands, which
 * can reach this server but not that directory, can neither read the record
 * nor add to it (a request with another token, or none, fills another page).
 *
 * A call id issued twice (a replayed request) keeps its first issue.
 */
import { z } from 'zod';

export const IssuedCallSchema = z.object({
  call_id: z.string(),
  name: z.string(),
  namespace: z.string().optional(),
  /** The arguments text exactly as sent. */
  arguments: z.string(),
});
export type IssuedCall = z.infer<typeof IssuedCallSchema>;

export const IssuedCallsSchema = z.object({
  session: z.string(),
  threads: z.array(
    z.object({
      /** Codex's thread id; null when a request named none. */
      thread: z.string().nullable(),
      calls: z.array(IssuedCallSchema),
    }),
  ),
});
export type IssuedCalls = z.infer<typeof IssuedCallsSchema>;

/** The path the record is read at. */
export const ISSUED_CALLS_PATH = '/v1/redgreen/issued-calls';

/** The header a session's requests carry its record token in. */
export const RECORD_TOKEN_HEADER = 'x-redgreen-record';

export interface IssuedCallBook {
  record(session: string, token: string, thread: string | null, calls: readonly IssuedCall[]): void;
  of(session: string, token: string): IssuedCalls;
}

/** A session's page of the record under one token (a NUL cannot occur in a header). */
function pageOf(session: string, token: string): string {
  return `${token}\u0000${session}`;
}

export function createIssuedCallBook(): IssuedCallBook {
  const sessions = new Map<string, Map<string | null, Map<string, IssuedCall>>>();
  return {
    record(session, token, thread, calls) {
      if (calls.length === 0) return;
      const key = pageOf(session, token);
      let threads = sessions.get(key);
      if (threads === undefined) {
        threads = new Map();
        sessions.set(key, threads);
      }
      let issued = threads.get(thread);
      if (issued === undefined) {
        issued = new Map();
        threads.set(thread, issued);
      }
      for (const call of calls) if (!issued.has(call.call_id)) issued.set(call.call_id, call);
    },
    of(session, token) {
      const threads =
        sessions.get(pageOf(session, token)) ?? new Map<string | null, Map<string, IssuedCall>>();
      return {
        session,
        threads: [...threads].map(([thread, calls]) => ({ thread, calls: [...calls.values()] })),
      };
    },
  };
}
