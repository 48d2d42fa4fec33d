/**
 * Benchmark: where `npm test`'s vitest time goes. Reads the JSON report of a
 * vitest run (`npx vitest run --reporter=default --reporter=json
 * --outputFile.json=<file>`) and prints the run's totals (files, tests, wall
 * time, sum of per-file durations), the slowest files, and, given a second
 * report, each of those files before and after with the difference.
 * With --tests N it also prints the N slowest single tests (a file's slowest
 * test names what to share or merge next), and the time of each tests/
 * folder. Durations of one run are comparable with each other; two runs only
 * at the same load, so the load average when it was read is printed too.
 * Prints figures; asserts nothing about time.
 *
 *   node dist/scripts/bench-tests.js <report.json> [--top N] [--tests N] [--before <report.json>]
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const fileResultSchema = z.object({
  name: z.string(),
  status: z.string(),
  startTime: z.number(),
  endTime: z.number(),
  assertionResults: z.array(
    z.object({ status: z.string(), title: z.string(), duration: z.number().nullish() }),
  ),
});

const reportSchema = z.object({
  startTime: z.number(),
  numTotalTests: z.number(),
  numPassedTests: z.number(),
  numFailedTests: z.number(),
  numPendingTests: z.number(),
  testResults: z.array(fileResultSchema),
});

type Report = z.infer<typeof reportSchema>;

interface FileFigure {
  readonly file: string;
  /** From the file's start to its end as vitest reports them, in ms. */
  readonly duration: number;
  /** The sum of its tests' durations, in ms (concurrent tests overlap). */
  readonly tests: number;
  readonly count: number;
}

function usage(problem: string): never {
  process.stderr.write(
    `bench-tests: ${problem}\nusage: node dist/scripts/bench-tests.js <report.json> [--top N] [--tests N] [--before <report.json>]\n`,
  );
  process.exit(2);
}

function loadReport(file: string): Report {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    usage(`cannot read ${file}: give the file vitest's json reporter wrote`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    usage(`${file} is not JSON: give the file vitest's json reporter wrote`);
  }
  const parsed = reportSchema.safeParse(json);
  if (!parsed.success)
    usage(`${file} is not a vitest json report (${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

function figures(report: Report, root: string): FileFigure[] {
  return report.testResults
    .map((result) => ({
      file: path.relative(root, result.name),
      duration: result.endTime - result.startTime,
      tests: result.assertionResults.reduce((sum, test) => sum + (test.duration ?? 0), 0),
      count: result.assertionResults.length,
    }))
    .sort((a, b) => b.duration - a.duration);
}

const seconds = (ms: number): string => (ms / 1000).toFixed(1);

function summary(label: string, report: Report, files: readonly FileFigure[]): void {
  const end = Math.max(...report.testResults.map((result) => result.endTime));
  const sum = files.reduce((total, file) => total + file.duration, 0);
  process.stdout.write(
    `${label}: ${files.length} files, ${report.numTotalTests} tests (${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped); ` +
      `wall ${seconds(end - report.startTime)} s from start to the last file's end; sum of file durations ${seconds(sum)} s\n`,
  );
}

/** The N slowest single tests of a report, slowest first. */
function slowestTests(report: Report, root: string, count: number): void {
  const tests = report.testResults
    .flatMap((result) =>
      result.assertionResults.map((test) => ({
        file: path.relative(root, result.name),
        title: test.title,
        duration: test.duration ?? 0,
      })),
    )
    .sort((a, b) => b.duration - a.duration)
    .slice(0, count);
  process.stdout.write(`\nslowest ${count} tests (s)\n| s | file | test |\n| --- | --- | --- |\n`);
  for (const test of tests)
    process.stdout.write(`| ${seconds(test.duration)} | ${test.file} | ${test.title} |\n`);
}

/** The sum of file durations of each folder under tests/, largest first. */
function folders(files: readonly FileFigure[]): void {
  const byFolder = new Map<string, { duration: number; files: number }>();
  for (const file of files) {
    const folder = path.dirname(file.file);
    const known = byFolder.get(folder) ?? { duration: 0, files: 0 };
    byFolder.set(folder, { duration: known.duration + file.duration, files: known.files + 1 });
  }
  process.stdout.write(
    '\nfolders (sum of file durations s, files)\n| folder | s | files |\n| --- | --- | --- |\n',
  );
  for (const [folder, figure] of [...byFolder].sort((a, b) => b[1].duration - a[1].duration))
    process.stdout.write(`| ${folder} | ${seconds(figure.duration)} | ${figure.files} |\n`);
}

function main(): void {
  const args = process.argv.slice(2);
  let top = 25;
  let before: string | undefined;
  let tests: number | undefined;
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--top') {
      top = Number(args[++i]);
      if (!Number.isInteger(top) || top < 1)
        usage('--top takes a whole number of files, 1 or more');
    } else if (arg === '--tests') {
      tests = Number(args[++i]);
      if (!Number.isInteger(tests) || tests < 1)
        usage('--tests takes a whole number of tests, 1 or more');
    } else if (arg === '--before') {
      before = args[++i];
      if (before === undefined) usage('--before takes the report of the earlier run');
    } else if (arg.startsWith('-')) usage(`unknown option ${arg}`);
    else positional.push(arg);
  }
  const [afterFile] = positional;
  if (afterFile === undefined || positional.length > 1) usage('give one report file');
  const root = process.cwd();
  const after = loadReport(afterFile);
  const afterFiles = figures(after, root);
  const beforeReport = before === undefined ? undefined : loadReport(before);
  const beforeFiles = beforeReport === undefined ? undefined : figures(beforeReport, root);
  process.stdout.write(
    `load average now: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}\n`,
  );
  if (beforeReport !== undefined && beforeFiles !== undefined)
    summary('before', beforeReport, beforeFiles);
  summary(beforeReport === undefined ? 'run' : 'after', after, afterFiles);
  const earlier = new Map(beforeFiles?.map((file) => [file.file, file]) ?? []);
  process.stdout.write(`\nslowest ${top} files (duration s, sum of test durations s, tests)\n`);
  const header =
    beforeFiles === undefined
      ? '| file | s | tests s | tests |'
      : '| file | s | before s | change s | tests |';
  process.stdout.write(`${header}\n|${' --- |'.repeat(header.split('|').length - 2)}\n`);
  for (const file of afterFiles.slice(0, top)) {
    const was = earlier.get(file.file);
    const cells =
      beforeFiles === undefined
        ? [file.file, seconds(file.duration), seconds(file.tests), String(file.count)]
        : [
            file.file,
            seconds(file.duration),
            was === undefined ? 'new' : seconds(was.duration),
            was === undefined ? '' : seconds(file.duration - was.duration),
            String(file.count),
          ];
    process.stdout.write(`| ${cells.join(' | ')} |\n`);
  }
  if (tests !== undefined) {
    slowestTests(after, root, tests);
    folders(afterFiles);
  }
}

main();
