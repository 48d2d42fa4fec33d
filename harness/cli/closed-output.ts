/**
 * What redgreen does when a reader closes its output early (`redgreen run |
 * head -3`, a `tee` that dies): the work goes on with that stream's output
 * discarded, so a campaign is never left half-run, locked and unreported; the
 * exit status still says how the work went. A note on stderr says stdout is
 * gone.
 */
export function discardOutputOnceClosed(
  stream: NodeJS.WriteStream,
  onClosed: () => void = () => undefined,
): void {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (closed) return;
    closed = true;
    stream.write = ((_chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
      return true;
    }) as NodeJS.WriteStream['write'];
    onClosed();
  });
}
