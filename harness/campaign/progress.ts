import type { RunEvent, RunEventSink } from './run-events.js';

function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
}

function formatCost(usd: number | null): string {
  return usd === null ? 'cost n/a' : `$${usd.toFixed(2)}`;
}

interface Tally {
  total: number;
  done: number;
  pass: number;
  fail: number;
  indeterminate: number;
  cost: number | null;
  started: number;
}

/**
 * Progress for people and machines:
 * - `tty`: one live status line (done/total, pass/fail/indeterminate, elapsed,
 *   ETA, cost so far), redrawn in place;
 * - `plain`: one line per finished rep (logs, CI);
 * - `json`: every event as one JSON line on stdout.
 */
export function progressReporter(
  mode: 'tty' | 'plain' | 'json',
  out: NodeJS.WritableStream,
  now: () => number = () => performance.now(),
): RunEventSink {
  const tally: Tally = {
    total: 0,
    done: 0,
    pass: 0,
    fail: 0,
    indeterminate: 0,
    cost: null,
    started: now(),
  };
  let lineShown = false;

  const statusLine = (): string => {
    const elapsed = now() - tally.started;
    const eta =
      tally.done === 0 ? '?' : formatDuration((elapsed / tally.done) * (tally.total - tally.done));
    const width = 24;
    const filled = tally.total === 0 ? width : Math.round((tally.done / tally.total) * width);
    const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
    return `[${bar}] ${tally.done}/${tally.total}  pass ${tally.pass}  fail ${tally.fail}  indeterminate ${tally.indeterminate}  elapsed ${formatDuration(elapsed)}  eta ${eta}  ${formatCost(tally.cost)}`;
  };

  const clearLine = (): void => {
    if (lineShown) out.write('\r\u001b[2K');
    lineShown = false;
  };

  const say = (text: string): void => {
    if (mode === 'tty') clearLine();
    out.write(`${text}\n`);
    if (mode === 'tty') {
      out.write(statusLine());
      lineShown = true;
    }
  };

  return (event: RunEvent) => {
    if (mode === 'json') {
      out.write(`${JSON.stringify(event)}\n`);
      return;
    }
    switch (event.type) {
      case 'run-start':
        tally.total = event.toRun;
        tally.started = now();
        say(
          `running ${event.toRun} rep(s) of ${event.total}` +
            (event.alreadyDone > 0 ? ` (${event.alreadyDone} already done)` : '') +
            ` — ${event.backend} backend, model ${event.model}, concurrency ${event.concurrency}`,
        );
        break;
      case 'rep-start':
        // A retry is one more rep to finish than the run started with.
        if (event.attempt > 1) tally.total += 1;
        break;
      case 'rep-done': {
        tally.done += 1;
        tally[event.verdict] += 1;
        if (event.costUsd !== null) tally.cost = (tally.cost ?? 0) + event.costUsd;
        const why = event.reason === undefined ? '' : ` (${event.reason})`;
        const line = `${event.id}${event.attempt > 1 ? ` attempt ${event.attempt}` : ''}: ${event.verdict}${why}, ${event.toolUses} tool_uses, ${formatDuration(event.durationMs)}`;
        if (mode === 'plain') out.write(`[${tally.done}/${tally.total}] ${line}\n`);
        else say(line);
        break;
      }
      case 'rep-dropped':
        say(`${event.id}: not recorded (${event.reason}); --resume runs it again`);
        break;
      case 'stopping':
        say(`stopping: ${event.reason}`);
        break;
      case 'notice':
        say(`note: ${event.message}`);
        break;
      case 'run-end':
        if (mode === 'tty') clearLine();
        out.write(
          `finished ${event.finished} rep(s): ${event.pass} pass, ${event.fail} fail, ${event.indeterminate} indeterminate` +
            (event.missing > 0 ? `, ${event.missing} not run` : '') +
            ` in ${formatDuration(event.elapsedMs)}, ${formatCost(event.costUsd)}\n`,
        );
        break;
    }
  };
}

export type { RunEvent };
