/**
 * How a Codex engine confined in bubblewrap reaches the local model server,
 * and nothing else. The sandbox has a network namespace of its own with only
 * loopback in it, so the engine cannot reach the host's 127.0.0.1 where the
 * model server listens. Two halves join them:
 *
 * - outside, `openModelBridge` listens on a unix socket in the session's
 *   private runtime directory and forwards every connection to the model
 *   server's TCP port;
 * - inside, `bridgedCommand` starts `socat` listening on the sandbox's own
 *   127.0.0.1 at the same port, forwarding to that socket (bind-mounted in),
 *   waits until it listens, and executes the engine.
 *
 * The engine (and every command it runs, which share its namespace) can so
 * reach the model server's port and no other address: no DNS, no host
 * service, no internet. The socket admits any local user who can reach its
 * path (0711 directories above it), as the model server's TCP port does.
 */
import { chmod, rm } from 'node:fs/promises';
import net from 'node:net';

/** socat, from Debian's `socat` package (installed by .ci/run). */
export const SOCAT = '/usr/bin/socat';

export interface ModelBridge {
  /** The unix socket the sandbox's socat connects to. */
  readonly socket: string;
  close(): Promise<void>;
}

/** Listen on `socket` and forward each connection to `target` (the model server's host and port). */
export async function openModelBridge(
  socket: string,
  target: { readonly host: string; readonly port: number },
): Promise<ModelBridge> {
  await rm(socket, { force: true });
  const open = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(target.port, target.host);
    open.add(inbound);
    open.add(outbound);
    const end = (): void => {
      inbound.destroy();
      outbound.destroy();
      open.delete(inbound);
      open.delete(outbound);
    };
    inbound.on('error', end).on('close', end);
    outbound.on('error', end).on('close', end);
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The sandbox runs as another host user (nobody), who must be able to connect.
  await chmod(socket, 0o666);
  return {
    socket,
    close: async () => {
      for (const connection of open) connection.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(socket, { force: true });
    },
  };
}

/**
 * The argv, run inside the sandbox, that starts the bridge's inner half on
 * 127.0.0.1:`port`, waits (up to 5 s, reading /proc/net/tcp, so no
 * connection is made to the model server) until it listens, and executes
 * `command`. socat is left running as the engine's child; it ends with the
 * sandbox.
 */
export function bridgedCommand(socket: string, port: number, command: readonly string[]): string[] {
  const listening = `:${port.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A`;
  const script = [
    // Its stdout is not the engine's: the --json stream on it is what redgreen trusts.
    `${SOCAT} TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:"$0" >/dev/null &`,
    `for _ in $(seq 200); do grep -q '${listening}' /proc/net/tcp && break; sleep 0.025; done`,
    `grep -q '${listening}' /proc/net/tcp || { echo "redgreen: the model server bridge did not start" >&2; exit 97; }`,
    'exec "$@"',
  ].join('\n');
  return ['/bin/bash', '-c', script, socket, ...command];
}
