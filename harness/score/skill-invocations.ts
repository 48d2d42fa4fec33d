/**
 * Skill invocations, derived from a session's tool calls: the one place that
 * says when a session used a skill, and how, for every check that asks
 * (`skill-read`, `skill-invoked`) and for `redgreen transcript`. The
 * transcript readers (score/transcripts/) give every format's calls Claude
 * Code's names, so three forms cover them all:
 *
 * - `tool`: a call of a Skill tool naming the skill (`Skill {skill}`: Claude
 *   Code's Skill tool, ATIF's `use_skill`), bare (`test-driven-development`)
 *   or plugin-qualified (`superpowers:test-driven-development`). This is the
 *   invocation the engine records; it failed when its result is an error, and
 *   an engine that records where it loaded the skill from gives its directory;
 * - `read`: a Read call of a `<name>/SKILL.md`: the agent opened the file,
 *   which is not the same act as invoking the skill, so it is its own form;
 * - `shell`: a Bash command whose reading program prints the text of a
 *   `<name>/SKILL.md` it names (`cat`, `head`, `sed`, `grep`, …; Codex reads
 *   skills this way: it has no skill tool); a program that only looks at the
 *   file (`ls`, `test -f`, `stat`, `wc`, a checksum) reads none of its words,
 *   and invokes nothing.
 *
 * Each invocation keeps the call it came from, its seat (with the dispatch
 * that created a subagent's) and its position (the call's index among the
 * session's calls and, in a compound shell command, the simple command's),
 * so ordering checks can place it among other events. Only what a tool did
 * counts, never a reply quoting a skill's words.
 */
import { type Seat, seatOf } from './evidence.js';
import { TEXT_PROGRAMS } from './extractors/language/shell-reads.js';
import { basename, commandParts, programOf } from './extractors/language/shell-words.js';
import { bashCommand, stringField, type ToolCall } from './tool-call.js';

export const SKILL_FORMS = ['tool', 'read', 'shell'] as const;
export type SkillForm = (typeof SKILL_FORMS)[number];

/** The engine's tool that loads a skill (the readers give every format's skill tool this name). */
export const SKILL_TOOL_NAME = 'Skill';

export interface SkillInvocation {
  /** The name as invoked: `superpowers:brainstorming`, `brainstorming`, or a SKILL.md's directory name. */
  readonly name: string;
  /** The name without its plugin qualifier. */
  readonly bare: string;
  /** The plugin qualifier (`superpowers`), or null for a bare name. */
  readonly plugin: string | null;
  readonly form: SkillForm;
  readonly seat: Seat;
  /** The dispatch that created the subagent seat; null for the controller. */
  readonly dispatch: string | null;
  readonly callId: string;
  /** The call's index among the session's calls, from 0. */
  readonly position: number;
  /** Where a compound shell command invoked it: the simple command's index (0 for other calls). */
  readonly part: number;
  /** How it was seen, as a reader would quote it: `Skill superpowers:tdd`, `Read …/tdd/SKILL.md`. */
  readonly how: string;
  /** The SKILL.md read, or the directory the engine loaded a Skill call's skill from; null when unknown. */
  readonly path: string | null;
  /** False for a call whose result is an error (a Skill call naming no skill the engine has). */
  readonly succeeded: boolean;
}

/** `plugin:skill` split into its parts; a name without `:` has no plugin. */
export function splitSkillName(name: string): {
  readonly plugin: string | null;
  readonly bare: string;
} {
  const at = name.lastIndexOf(':');
  return at <= 0
    ? { plugin: null, bare: name }
    : { plugin: name.slice(0, at), bare: name.slice(at + 1) };
}

/**
 * Whether an invoked name is the skill a check names: equal names, or equal
 * bare names when either side is bare (`tdd` matches `superpowers:tdd`, and
 * the other way round); two different plugin qualifiers never match.
 */
export function sameSkill(invoked: string, named: string): boolean {
  if (invoked === named) return true;
  const a = splitSkillName(invoked);
  const b = splitSkillName(named);
  if (a.plugin !== null && b.plugin !== null) return false;
  return a.bare === b.bare;
}

const SKILL_FILE = /(?:^|\/)([^/\s]+)\/SKILL\.md$/;

/** The skill a SKILL.md path belongs to (its directory's name), or undefined. */
function skillOfPath(path: string): string | undefined {
  return SKILL_FILE.exec(path.trim())?.[1];
}

/** The skill invocations one tool call makes (none for most calls); `position` is its index in the session. */
export function skillInvocationsOfCall(call: ToolCall, position = 0): SkillInvocation[] {
  const seat = seatOf(call);
  const found = (
    name: string,
    form: SkillForm,
    part: number,
    how: string,
    path: string | null,
  ): SkillInvocation => ({
    name,
    ...splitSkillName(name),
    form,
    seat,
    dispatch: seat === 'controller' ? null : (call.parentToolUseId ?? null),
    callId: call.id,
    position,
    part,
    how,
    path,
    succeeded: call.isError !== true,
  });
  if (call.name === SKILL_TOOL_NAME) {
    const name = stringField(call.input, 'skill')?.trim().replace(/^\//, '');
    return name === undefined || name === ''
      ? []
      : [found(name, 'tool', 0, `Skill ${name}`, call.loadedFrom ?? null)];
  }
  if (call.name === 'Read') {
    const path = stringField(call.input, 'file_path');
    const name = path === undefined ? undefined : skillOfPath(path);
    return name === undefined || path === undefined
      ? []
      : [found(name, 'read', 0, `Read ${path}`, path)];
  }
  const command = bashCommand(call);
  if (command === undefined) return [];
  const invocations: SkillInvocation[] = [];
  for (const [part, simple] of commandParts(command).entries()) {
    const { program, args } = programOf(simple);
    if (!TEXT_PROGRAMS.has(basename(program))) continue;
    for (const arg of args) {
      const name = skillOfPath(arg);
      if (name !== undefined) {
        invocations.push(found(name, 'shell', part, `${basename(program)} ${arg}`, arg));
      }
    }
  }
  return invocations;
}

/** Every skill invocation of a session, in call order. */
export function skillInvocations(calls: readonly ToolCall[]): SkillInvocation[] {
  return calls.flatMap((call, position) => skillInvocationsOfCall(call, position));
}
