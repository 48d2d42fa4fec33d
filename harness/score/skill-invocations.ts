/**
 * Skill invocations, derived from a session's tool calls: the one place that
 * says when a session used a skill, and how. A transcript reader of any
 * format produces tool calls; this module reads them, so every format counts
 * invocations the same way.
 *
 * - `tool`: a call of the engine's Skill tool naming the skill (`skill`
 *   input: a bare name such as `test-driven-development`, or a
 *   plugin-qualified one such as `superpowers:test-driven-development`). This
 *   is the invocation the engine records; its result (the skill's own text)
 *   is the engine's, never the agent's words.
 * - `read`: a Read call of a `<name>/SKILL.md`: the agent opened the file,
 *   which is not the same act as invoking the skill (quorum counted both as
 *   one), so it is its own form.
 * - `shell`: a Bash command whose reading program (`cat`, `head`, `sed`, …)
 *   names a `<name>/SKILL.md`.
 *
 * Each invocation keeps the call it came from, its seat and its position (the
 * call's index among the session's calls and, in a compound shell command,
 * the simple command's), so ordering checks can place it among other events.
 */
import { type Seat, seatOf } from './evidence.js';
import { READ_PROGRAMS } from './extractors/language/shell-reads.js';
import { basename, commandParts, programOf } from './extractors/language/shell-words.js';
import { bashCommand, stringField, type ToolCall } from './tool-call.js';

export const SKILL_FORMS = ['tool', 'read', 'shell'] as const;
export type SkillForm = (typeof SKILL_FORMS)[number];

/** The engine's tool that loads a skill (Claude Code 2.1.332). */
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
  readonly callId: string;
  /** Where a compound shell command invoked it: the simple command's index (0 for other calls). */
  readonly part: number;
  /** How it was seen, as a reader would quote it: `Skill superpowers:tdd`, `Read …/tdd/SKILL.md`. */
  readonly how: string;
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

function invocation(
  call: ToolCall,
  name: string,
  form: SkillForm,
  part: number,
  how: string,
): SkillInvocation {
  return { name, ...splitSkillName(name), form, seat: seatOf(call), callId: call.id, part, how };
}

/** The skill invocations one tool call makes (none for most calls). */
export function skillInvocationsOfCall(call: ToolCall): SkillInvocation[] {
  if (call.name === SKILL_TOOL_NAME) {
    const name = stringField(call.input, 'skill')?.trim().replace(/^\//, '');
    return name === undefined || name === ''
      ? []
      : [invocation(call, name, 'tool', 0, `Skill ${name}`)];
  }
  if (call.name === 'Read') {
    const path = stringField(call.input, 'file_path');
    const name = path === undefined ? undefined : skillOfPath(path);
    return name === undefined ? [] : [invocation(call, name, 'read', 0, `Read ${path}`)];
  }
  const command = bashCommand(call);
  if (command === undefined) return [];
  const found: SkillInvocation[] = [];
  for (const [part, simple] of commandParts(command).entries()) {
    const { program, args } = programOf(simple);
    if (!READ_PROGRAMS.has(basename(program))) continue;
    for (const arg of args) {
      const name = skillOfPath(arg);
      if (name !== undefined)
        found.push(invocation(call, name, 'shell', part, `${basename(program)} ${arg}`));
    }
  }
  return found;
}

/** Every skill invocation of a session, in call order. */
export function skillInvocations(calls: readonly ToolCall[]): SkillInvocation[] {
  return calls.flatMap(skillInvocationsOfCall);
}
