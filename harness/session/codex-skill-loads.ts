/**
 * How a skill load looks on Codex. Codex has no Skill tool: it lists the
 * installed skills (name, description, file) and its model loads one by
 * reading that SKILL.md through the shell. So on the codex backend a shell
 * call that prints a whole installed SKILL.md, and nothing else, IS the skill
 * load, and the transcript records it as Claude Code records one: a `Skill
 * {skill}` call, with `recorded_as` naming Codex's own tool and the input
 * keeping the command Codex really ran (`command`, and its `workdir`).
 *
 * Only that counts: one `cat` (flags such as `-n` allowed) of exactly one
 * file `<CODEX_HOME>/skills/<name>/SKILL.md`, the one root where a session's
 * skills are installed (the library's and the opted-in project ones,
 * codex-backend.ts) and the one root Codex lists for them: its bundled
 * `.system` skills are not installed (codex-home.ts), the session's HOME has
 * no `.agents/skills`, and a fixture's own `.agents/skills` or
 * `.codex/skills` holds nothing the arm installed. A grep, an `ls`, a
 * `head`, a ranged `sed`, a compound command, a pipe or redirection, or a
 * SKILL.md anywhere else (the fixture's own, `.system`, a copy) stays the
 * shell call it was; the evidence layer still sees it as a shell read of the
 * file where a check asks for one (score/skill-invocations.ts).
 */
import path from 'node:path';
import { basename, commandParts, programOf } from '../score/extractors/language/shell-words.js';
import { SKILL_TOOL_NAME } from '../score/skill-invocations.js';
import { bashCommand, stringField, type ToolCall } from '../score/tool-call.js';

/** The installed skill a whole-file read names, or undefined for any other command. */
export function installedSkillRead(
  command: string,
  skillsDir: string,
  workdir: string,
): string | undefined {
  const parts = commandParts(command);
  if (parts.length !== 1 || parts[0] === undefined) return undefined;
  if (parts[0].words.some((word) => /^[<>]|^\d?>/.test(word))) return undefined;
  const { program, args } = programOf(parts[0]);
  if (basename(program) !== 'cat') return undefined;
  const files = args.filter((arg) => arg !== '--' && !/^-[A-Za-z]+$/.test(arg));
  if (files.length !== 1 || files[0] === undefined) return undefined;
  const file = path.resolve(workdir, files[0]);
  const relative = path.relative(path.resolve(skillsDir), file).split(path.sep);
  const name = relative.length === 2 && relative[1] === 'SKILL.md' ? relative[0] : undefined;
  return name === undefined || name === '' || name.startsWith('.') ? undefined : name;
}

/** A call as the codex transcript records it: a read of an installed SKILL.md as a Skill call. */
export function asSkillLoad(call: ToolCall, skillsDir: string, cwd: string): ToolCall {
  const command = bashCommand(call);
  if (command === undefined) return call;
  const workdir = stringField(call.input, 'workdir') ?? cwd;
  const skill = installedSkillRead(command, skillsDir, path.resolve(cwd, workdir));
  if (skill === undefined) return call;
  return {
    ...call,
    name: SKILL_TOOL_NAME,
    input: { skill, command, ...(workdir === cwd ? {} : { workdir }) },
    recordedAs: call.recordedAs ?? 'exec_command',
  };
}
