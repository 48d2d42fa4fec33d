import http, { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test doubles for the network around the model axis, never for the client
 * or the engine: a recording gateway (a pass-through HTTP proxy in front of
 * a local model server, which notes the headers each request carried, as a
 * real gateway would see them) and a port nobody listens on.
 */
export interface RecordingGateway {
  readonly baseUrl: string;
  /** The headers of each request, lower-cased names. */
  readonly requests: readonly Record<string, string | string[] | undefined>[];
  close(): Promise<void>;
}

export async function startRecordingGateway(upstream: string): Promise<RecordingGateway> {
  const target = new URL(upstream);
  const requests: Record<string, string | string[] | undefined>[] = [];
  const server = createServer((request, response) => {
    requests.push({ ...request.headers });
    const forward = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: target.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forward.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A local port that refuses connections (bound, then released). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The most reps of each model in flight at once, from a run's --json events. */
export function maxInFlight(jsonLines: string): { perModel: Map<string, number>; overall: number } {
  const running = new Map<string, number>();
  const perModel = new Map<string, number>();
  let total = 0;
  let overall = 0;
  for (const line of jsonLines.split('\n')) {
    if (!line.startsWith('{')) continue;
    const event = JSON.parse(line) as { type: string; id?: string };
    const model = event.id?.split('/')[0] ?? '';
    if (event.type === 'rep-start') {
      running.set(model, (running.get(model) ?? 0) + 1);
      total += 1;
    } else if (event.type === 'rep-done' || event.type === 'rep-dropped') {
      running.set(model, (running.get(model) ?? 0) - 1);
      total -= 1;
    } else continue;
    perModel.set(model, Math.max(perModel.get(model) ?? 0, running.get(model) ?? 0));
    overall = Math.max(overall, total);
  }
  return { perModel, overall };
}
