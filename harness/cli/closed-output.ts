/**
 * What redgreen does when a reader closes its output early (`redgreen run |
 * head -3`, a `tee` that dies): the work goes on with that stream's output
 * discarded, so a campaign is never left half-run, locked and unreported; the
 * exit status still says how the work went. The note that the output is
 * being discarded (`onClosed`) comes with the first write after the close:
 * a command that had nothing more to say (`--help | head -1`) says nothing.
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
    let noted = false;
    stream.write = ((_chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
      if (!noted) {
        noted = true;
        onClosed();
      }
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
      return true;
    }) as NodeJS.WriteStream['write'];
  });
}
