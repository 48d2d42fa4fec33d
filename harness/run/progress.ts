import { plural } from '../lib/plural.js';
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

/** Counts of this run's own reps (not the results directory's totals). */
interface Tally {
  total: number;
  done: number;
  running: number;
  pass: number;
  fail: number;
  indeterminate: number;
  cost: number | null;
  started: number;
}

export type ProgressMode = 'tty' | 'plain' | 'json';

/**
 * How to show progress: JSON events when asked; a live status line only on a
 * terminal that understands cursor control (not `TERM=dumb`); plain lines
 * otherwise (logs, pipes, CI).
 */
export function chooseProgressMode(output: {
  readonly json: boolean;
  readonly isTTY: boolean;
  readonly term: string | undefined;
}): ProgressMode {
  if (output.json) return 'json';
  return output.isTTY && output.term !== 'dumb' ? 'tty' : 'plain';
}

export interface ProgressOptions {
  /** Only the essentials: warnings, the heartbeat (not on a terminal) and the end. */
  readonly quiet?: boolean;
  /** The terminal's width now (the status line is cut to fit, so it never wraps). */
  readonly columns?: () => number | undefined;
  /** In plain mode, a one-line heartbeat this often (default 30 s; 0: none). */
  readonly heartbeatMs?: number;
  /** Calls `tick` every `ms` until the returned function is called. */
  readonly every?: (tick: () => void, ms: number) => () => void;
}

const DEFAULT_HEARTBEAT_MS = 30_000;
/** How often the terminal's status line is redrawn between events. */
const TTY_TICK_MS = 1_000;

function everyUnref(tick: () => void, ms: number): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Progress for people and machines:
 * - `tty`: one live status line (done/total, pass/fail/indeterminate, elapsed,
 *   ETA, cost so far), redrawn in place and cut to the terminal's width;
 * - `plain`: one line per finished rep (logs, CI), plus a heartbeat line with
 *   the ETA every 30 s while reps run;
 * - `json`: every event as one JSON line on stdout.
 * Counts are this run's reps; the end line adds the directory's totals when
 * they differ (a resume, a retry).
 */
export function progressReporter(
  mode: ProgressMode,
  out: NodeJS.WritableStream,
  now: () => number = () => performance.now(),
  options: ProgressOptions = {},
): RunEventSink {
  const quiet = options.quiet === true;
  const tally: Tally = {
    total: 0,
    done: 0,
    running: 0,
    pass: 0,
    fail: 0,
    indeterminate: 0,
    cost: null,
    started: now(),
  };
  let lineShown = false;
  let stopHeartbeat: (() => void) | undefined;

  const eta = (): string => {
    const elapsed = now() - tally.started;
    return tally.done === 0
      ? '?'
      : formatDuration((elapsed / tally.done) * (tally.total - tally.done));
  };

  const statusLine = (): string => {
    const width = 24;
    const filled = tally.total === 0 ? width : Math.round((tally.done / tally.total) * width);
    const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
    const line = `[${bar}] ${tally.done}/${tally.total}  running ${tally.running}  pass ${tally.pass}  fail ${tally.fail}  indeterminate ${tally.indeterminate}  elapsed ${formatDuration(now() - tally.started)}  eta ${eta()}  ${formatCost(tally.cost)}`;
    // One column short of the width: a line that fills the last column wraps on some terminals.
    const columns = options.columns?.();
    return columns === undefined || columns < 2 ? line : line.slice(0, columns - 1);
  };

  const heartbeat = (): string =>
    `... ${tally.done}/${plural(tally.total, 'rep')} done (${tally.pass} pass, ${tally.fail} fail, ${tally.indeterminate} indeterminate), ${tally.running} running, elapsed ${formatDuration(now() - tally.started)}, eta ${eta()}`;

  const clearLine = (): void => {
    if (lineShown) out.write('\r\u001b[2K');
    lineShown = false;
  };

  const drawStatus = (): void => {
    if (mode !== 'tty' || quiet) return;
    out.write(statusLine());
    lineShown = true;
  };

  /** A line for the log; `essential` lines are shown even when quiet. */
  const say = (text: string, essential = false): void => {
    if (quiet && !essential) return;
    if (mode === 'tty') clearLine();
    out.write(`${text}\n`);
    drawStatus();
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
          (event.toRun === event.total
            ? `running ${plural(event.toRun, 'rep')}`
            : `running ${event.toRun} of ${plural(event.total, 'scheduled rep')}`) +
            (event.alreadyDone > 0 ? ` (${event.alreadyDone} already done)` : '') +
            ` — ${event.backend} backend, model ${event.model}, concurrency ${event.concurrency}`,
        );
        if (mode === 'tty' && !quiet && event.toRun > 0) {
          // The status line keeps time between reps (a full session can run for minutes).
          stopHeartbeat = (options.every ?? everyUnref)(() => {
            clearLine();
            drawStatus();
          }, TTY_TICK_MS);
        }
        if (mode === 'plain' && event.toRun > 0) {
          const interval = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
          if (interval > 0) {
            stopHeartbeat = (options.every ?? everyUnref)(
              () => out.write(`${heartbeat()}\n`),
              interval,
            );
          }
        }
        break;
      case 'rep-start':
        tally.running += 1;
        if (mode === 'tty' && !quiet) {
          clearLine();
          drawStatus();
        }
        // A retry is one more rep to finish than the run started with.
        if (event.attempt > 1 && tally.done + tally.running > tally.total) tally.total += 1;
        break;
      case 'rep-done': {
        tally.done += 1;
        tally.running = Math.max(0, tally.running - 1);
        tally[event.verdict] += 1;
        if (event.costUsd !== null) tally.cost = (tally.cost ?? 0) + event.costUsd;
        const why = event.reason === undefined ? '' : ` (${event.reason})`;
        const line = `${event.id}${event.attempt > 1 ? ` attempt ${event.attempt}` : ''}: ${event.verdict}${why}, ${event.toolUses} tool_uses, ${formatDuration(event.durationMs)}`;
        if (mode === 'plain') {
          if (!quiet) out.write(`[${tally.done}/${tally.total}] ${line}\n`);
        } else say(line);
        break;
      }
      case 'rep-judged':
        if (event.costUsd !== null) tally.cost = (tally.cost ?? 0) + event.costUsd;
        say(
          `${event.id}: judge ${event.overall === undefined ? event.verdict : `${event.overall} (${event.verdict} on the items a check also decides)`}, checks ${event.checks}: ${event.agreement}`,
          event.agreement === 'disagree',
        );
        break;
      case 'rep-dropped':
        tally.running = Math.max(0, tally.running - 1);
        say(`${event.id}: not recorded (${event.reason}); --resume runs it again`, true);
        break;
      case 'stopping':
        say(`stopping: ${event.reason}`, true);
        break;
      case 'notice':
        say(`note: ${event.message}`, true);
        break;
      case 'run-end': {
        stopHeartbeat?.();
        if (mode === 'tty') clearLine();
        const own = event.thisRun;
        const directory =
          event.recorded === own.pass + own.fail + own.indeterminate &&
          own.pass === event.pass &&
          own.fail === event.fail
            ? ''
            : `; the directory records ${event.recorded}/${plural(event.planned, 'scheduled rep')}: ${event.pass} pass, ${event.fail} fail, ${event.indeterminate} indeterminate`;
        out.write(
          `finished ${plural(event.finished, 'rep')}: ${own.pass} pass, ${own.fail} fail, ${own.indeterminate} indeterminate` +
            ` in ${formatDuration(event.elapsedMs)}, ${formatCost(event.costUsd)}${directory}` +
            (event.missing > 0 ? `; ${plural(event.missing, 'scheduled rep')} not run` : '') +
            '\n',
        );
        break;
      }
    }
  };
}

export type { RunEvent };
