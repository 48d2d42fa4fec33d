/**
 * A plan file as a policy reads it: its `## Task N: Title` sections, and the
 * files each task's spec names (backticked paths such as `src/schema.py` or
 * `.lint.cfg`), which is what a careful controller matches a commit against.
 */

export interface PlanTask {
  readonly number: number;
  readonly title: string;
  readonly spec: string;
  /** Files the task's spec names. */
  readonly files: readonly string[];
}

const taskHeading = /^#{2,3}\s*Task\s+(\d+)\s*[:.\-—–]\s*(.+?)\s*$/i;
const backticked = /`([^`\s]+)`/g;
const fileExtensions = new Set([
  'py',
  'ts',
  'js',
  'mjs',
  'json',
  'md',
  'cfg',
  'toml',
  'yaml',
  'yml',
  'txt',
  'sh',
  'rs',
  'go',
  'java',
  'rb',
]);

export function parsePlanTasks(text: string): readonly PlanTask[] {
  const tasks: PlanTask[] = [];
  let current: { number: number; title: string; lines: string[] } | undefined;
  const finish = (): void => {
    if (current === undefined) return;
    const spec = current.lines.join('\n').trim();
    tasks.push({ number: current.number, title: current.title, spec, files: filesNamedIn(spec) });
  };
  for (const line of text.split('\n')) {
    const heading = taskHeading.exec(line);
    if (heading !== null) {
      finish();
      current = { number: Number(heading[1]), title: heading[2] ?? '', lines: [] };
    } else if (/^#{1,2}\s/.test(line)) {
      finish();
      current = undefined;
    } else {
      current?.lines.push(line);
    }
  }
  finish();
  return tasks;
}

function filesNamedIn(spec: string): readonly string[] {
  const files = new Set<string>();
  for (const match of spec.matchAll(backticked)) {
    const token = match[1] ?? '';
    const extension = token.includes('.') ? (token.split('.').pop() ?? '') : '';
    if (token.includes('/') || fileExtensions.has(extension)) files.add(token);
  }
  return [...files];
}

/** `Task 3 (JSON serializer)`, or `Task 3` when the plan gave no title. */
export function taskLabel(number: number, tasks: readonly PlanTask[]): string {
  const task = tasks.find((candidate) => candidate.number === number);
  return task === undefined ? `Task ${number}` : `Task ${number} (${task.title})`;
}
