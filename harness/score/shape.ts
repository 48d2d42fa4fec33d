/**
 * Resolution shape: how a session decided whose ledger it was looking at,
 * read from its tool calls only, never from its prose (a reply can echo the
 * skill text without having done what it says).
 *
 * - structural: ran the skill's workspace script, or read/listed the own
 *   plan's scoped workspace (`<workspaceRoot>/<own-plan-slug>/…`).
 * - forensic: read a cited commit's content: `git show`, `git diff`,
 *   `git log -p` or `git cat-file -p` naming a cited hash (prefix match either
 *   way), or `git show <hash>:<path>`. `git log -p` with no revision at all
 *   also counts (it prints every commit's patch, the cited ones included).
 *   Summary-only forms (`git show --stat`, `--name-only`, `-s`,
 *   `git log --oneline`) are not content.
 * - both, or neither.
 */

import { escapeRegExp, planSlug } from './plan-names.js';
import type { ResolutionShapeSpec } from './scoring-spec.js';
import { basename, programOf, type SimpleCommand, simpleCommands } from './shell-words.js';
import { bashCommand, stringField, type ToolCall } from './tool-call.js';

export type ResolutionShape = 'structural' | 'forensic' | 'both' | 'neither';

export interface ShapeEvidence {
  readonly callId: string;
  readonly kind: 'structural' | 'forensic';
  /** What the call did, e.g. `ran sdd-workspace` or `git show 4b84f94`. */
  readonly why: string;
}

export interface ShapeResult {
  readonly shape: ResolutionShape;
  readonly structuralCalls: number;
  readonly forensicCalls: number;
  readonly evidence: readonly ShapeEvidence[];
}

export interface ShapeContext {
  readonly ownPlan: string;
  /** Every commit hash the fixture's ledgers cite (short or full). */
  readonly citedHashes: readonly string[];
  readonly spec: ResolutionShapeSpec;
}

const READ_PROGRAMS = new Set([
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'sed',
  'awk',
  'grep',
  'egrep',
  'rg',
  'ls',
  'test',
  '[',
  '[[',
  'stat',
  'find',
  'file',
  'wc',
  'nl',
  'bat',
  'xxd',
  'od',
  'tree',
  'readlink',
  'realpath',
  'diff',
  'cmp',
  'sha256sum',
  'md5sum',
  'strings',
  'tac',
  'cut',
  'sort',
  'uniq',
  'jq',
]);

const SUMMARY_ONLY_FLAGS = new Set([
  '-s',
  '--no-patch',
  '--stat',
  '--numstat',
  '--shortstat',
  '--name-only',
  '--name-status',
  '--summary',
  '--dirstat',
  '--quiet',
  '--exit-code',
]);
const PATCH_FLAGS = new Set([
  '-p',
  '-u',
  '--patch',
  '--patch-with-stat',
  '--patch-with-raw',
  '--cc',
]);

/** Git's own options before the subcommand, with the ones that take a separate value. */
const GIT_OPTIONS_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace']);

function gitInvocation(
  command: SimpleCommand,
): { sub: string; args: readonly string[] } | undefined {
  const { program, args } = programOf(command);
  if (basename(program) !== 'git') return undefined;
  let index = 0;
  while (index < args.length) {
    const word = args[index] ?? '';
    if (GIT_OPTIONS_WITH_VALUE.has(word)) {
      index += 2;
      continue;
    }
    if (word.startsWith('-')) {
      index++;
      continue;
    }
    return { sub: word, args: args.slice(index + 1) };
  }
  return undefined;
}

function hexRuns(word: string, minLength: number): string[] {
  const pattern = new RegExp(`(?<![0-9a-fA-F])[0-9a-fA-F]{${minLength},40}(?![0-9a-fA-F])`, 'g');
  return [...word.matchAll(pattern)].map((found) => found[0].toLowerCase());
}

function citedIn(word: string, cited: readonly string[], minLength: number): string | undefined {
  for (const run of hexRuns(word, minLength)) {
    const hit = cited.find((hash) => hash.startsWith(run) || run.startsWith(hash));
    if (hit !== undefined) return run;
  }
  return undefined;
}

function hasFlag(args: readonly string[], flags: ReadonlySet<string>): boolean {
  return args.some((arg) => flags.has(arg.split('=')[0] ?? arg));
}

/** Short flags bundled like `-1p`, `-pU3`: does the bundle contain `p` or `u`? */
function hasBundledPatchFlag(args: readonly string[]): boolean {
  return args.some((arg) => /^-[A-Za-z0-9]*[pu][A-Za-z0-9]*$/.test(arg) && !arg.startsWith('--'));
}

/** Why this simple command reads a cited commit's content, or undefined. */
function forensicReason(
  command: SimpleCommand,
  cited: readonly string[],
  minLength: number,
): string | undefined {
  const git = gitInvocation(command);
  if (git === undefined) return undefined;
  const { sub, args } = git;
  const operands = args.filter((arg) => !arg.startsWith('-'));
  const named = operands
    .map((arg) => ({ arg, hash: citedIn(arg, cited, minLength) }))
    .find((entry) => entry.hash !== undefined);
  const patchForced = hasFlag(args, PATCH_FLAGS) || hasBundledPatchFlag(args);
  const summaryOnly = hasFlag(args, SUMMARY_ONLY_FLAGS) && !patchForced;

  switch (sub) {
    case 'show': {
      if (named === undefined) return undefined;
      if (/^[0-9a-fA-F]+[~^0-9]*:/.test(named.arg)) return `git show ${named.arg}`;
      return summaryOnly ? undefined : `git show ${named.arg}`;
    }
    case 'diff':
      return named !== undefined && !summaryOnly ? `git diff ${named.arg}` : undefined;
    case 'log': {
      if (!patchForced) return undefined;
      if (named !== undefined) return `git log -p ${named.arg}`;
      const dashDash = args.indexOf('--');
      const beforePaths =
        dashDash < 0 ? operands : args.slice(0, dashDash).filter((a) => !a.startsWith('-'));
      return beforePaths.length === 0 ? 'git log -p over the whole history' : undefined;
    }
    case 'cat-file': {
      if (named === undefined) return undefined;
      const prints =
        args.includes('-p') ||
        operands.some((arg) => arg === 'blob' || arg === 'commit' || arg === 'tree');
      return prints ? `git cat-file ${args.join(' ')}` : undefined;
    }
    default:
      return undefined;
  }
}

/** A loop or xargs that feeds cited hashes to a content-reading git command. */
function loopForensicReason(
  commandLine: string,
  cited: readonly string[],
  minLength: number,
): string | undefined {
  if (!/\b(?:for|while|xargs)\b/.test(commandLine)) return undefined;
  if (
    !/\bgit\s+(?:[-\w=]+\s+)*(?:show|diff|cat-file\s+-p|log\s+(?:\S+\s+)*-(?:p|-patch)\b)/.test(
      commandLine,
    )
  ) {
    return undefined;
  }
  const hash = citedIn(commandLine, cited, minLength);
  return hash === undefined ? undefined : `loop over cited commits (${hash})`;
}

function ownWorkspacePattern(context: ShapeContext): RegExp {
  const root = context.spec.workspaceRoot.replace(/\/+$/, '');
  const dir = `${root}/${planSlug(context.ownPlan)}`;
  return new RegExp(`${escapeRegExp(dir)}(?:/|$|(?=[\\s"'*;|&)]))`);
}

function structuralReason(
  call: ToolCall,
  context: ShapeContext,
  ownWorkspace: RegExp,
): string | undefined {
  const command = bashCommand(call);
  if (command !== undefined) {
    for (const simple of simpleCommands(command)) {
      const { program, args } = programOf(simple);
      if (basename(program) === context.spec.workspaceScript)
        return `ran ${context.spec.workspaceScript}`;
      if (READ_PROGRAMS.has(basename(program)) && args.some((arg) => ownWorkspace.test(arg))) {
        return `${basename(program)} on the own workspace`;
      }
    }
    return undefined;
  }
  const fields: Record<string, readonly string[]> = {
    Read: ['file_path'],
    Glob: ['pattern', 'path'],
    Grep: ['path', 'glob'],
    LS: ['path'],
  };
  for (const field of fields[call.name] ?? []) {
    const value = stringField(call.input, field);
    if (value !== undefined && ownWorkspace.test(value)) return `${call.name} on the own workspace`;
  }
  return undefined;
}

/** Classify a session's resolution shape from its tool calls. Pure. */
export function resolutionShape(calls: readonly ToolCall[], context: ShapeContext): ShapeResult {
  const minLength = context.spec.minHashPrefix;
  // A ledger may cite a range (`base..head`): every hash in it counts as cited.
  const cited = [
    ...new Set(context.citedHashes.flatMap((citation) => hexRuns(citation, minLength))),
  ];
  const ownWorkspace = ownWorkspacePattern(context);
  const evidence: ShapeEvidence[] = [];
  let structuralCalls = 0;
  let forensicCalls = 0;

  for (const call of calls) {
    const structural = structuralReason(call, context, ownWorkspace);
    if (structural !== undefined) {
      structuralCalls++;
      evidence.push({ callId: call.id, kind: 'structural', why: structural });
    }
    const command = bashCommand(call);
    if (command === undefined || cited.length === 0) continue;
    const forensic =
      simpleCommands(command)
        .map((simple) => forensicReason(simple, cited, minLength))
        .find((reason) => reason !== undefined) ?? loopForensicReason(command, cited, minLength);
    if (forensic !== undefined) {
      forensicCalls++;
      evidence.push({ callId: call.id, kind: 'forensic', why: forensic });
    }
  }

  const shape: ResolutionShape =
    structuralCalls > 0 && forensicCalls > 0
      ? 'both'
      : structuralCalls > 0
        ? 'structural'
        : forensicCalls > 0
          ? 'forensic'
          : 'neither';
  return { shape, structuralCalls, forensicCalls, evidence };
}
