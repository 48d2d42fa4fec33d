/**
 * The tool map between the scripted policies and Codex CLI. Policies call
 * tools under Claude Code's names (policies/program.ts); Codex offers a shell
 * (`exec_command`) and the `multi_agent_v1` namespace (`spawn_agent`,
 * `wait_agent`, `send_input`, `close_agent`), and no question tool outside
 * its collaboration modes. So at this face:
 *
 * - Bash → `exec_command{cmd}`; Read → `cat -n`; Glob → `rg --files --glob`;
 *   Grep → `rg` (`-l`, `-c` or `-n` by output mode); Write → a `printf` into
 *   the file. One policy call is one Codex call.
 * - Agent (or its legacy name 'Task') → `spawn_agent{message, model}` (a
 *   tier alias as the session's scripted id at that tier), then
 *   `wait_agent` on the agent it names; SendMessage →
 *   `send_input{target, message}`, then `wait_agent`.
 *   One policy call is TWO Codex calls: the face answers the second itself,
 *   and the request log counts both (what the engine did, never equated).
 * - Skill → `exec_command` reading the listed skill's SKILL.md (Codex has no
 *   Skill tool: it lists skills in a `<skills_instructions>` developer note
 *   and its model reads the file with the shell); the view gives the policy
 *   the Skill tool's answer (`Launching skill: <name>`, and the text after
 *   its front matter under `Base directory for this skill:`).
 * - AskUserQuestion is not offered, so a policy asks in its reply text.
 *
 * A Codex call's `call_id` carries the policy's tool_use id, the call's place
 * in its turn and the policy tool it stands for
 * (`<tool_use id>_<i>of<n>_<Tool>`; a face-made wait: `<tool_use id>_wait`),
 * so the conversation view is rebuilt from the request alone, with its turns
 * exactly as the policy made them.
 */
import { isScriptedModel, scriptedTierModelId, scriptedTierSeparator } from '../model-id.js';
import { shellQuote } from '../policies/tools.js';
import type { ResponsesTool } from './request-schema.js';

export const MULTI_AGENT_NAMESPACE = 'multi_agent_v1';
const shellTool = 'exec_command';

/** A skill Codex lists: its name, description and SKILL.md path. */
export interface ListedSkill {
  readonly name: string;
  readonly description: string;
  readonly file: string;
}

/**
 * The skills of Codex's `<skills_instructions>` note: `- \`r0\` = \`<root>\``
 * lines under `### Skill roots`, `- <name>: <description> (file: r0/<dir>/SKILL.md)`
 * lines under `### Available skills`.
 */
export function codexListedSkills(developerText: string): ListedSkill[] {
  const roots = new Map(
    [...developerText.matchAll(/^- `(r\d+)` = `([^`]+)`$/gm)].map((found) => [found[1], found[2]]),
  );
  return [...developerText.matchAll(/^- (\S+?): (.*) \(file: (r\d+)\/([^)]+)\)$/gm)].flatMap(
    (found) => {
      const [, name, description, root, rest] = found;
      const base = root === undefined ? undefined : roots.get(root);
      if (name === undefined || description === undefined || base === undefined) return [];
      return [{ name, description, file: `${base}/${rest ?? ''}` }];
    },
  );
}

/** Codex's skill list as Claude Code's listing, which the policies read. */
export function skillListing(skills: readonly ListedSkill[]): string | undefined {
  if (skills.length === 0) return undefined;
  return [
    'The following skills are available for use with the Skill tool:',
    '',
    ...skills.map((skill) => `- ${skill.name}: ${skill.description}`),
  ].join('\n');
}

/** The policy tools a request's Codex tools stand for. */
export function viewToolsOffered(
  tools: readonly ResponsesTool[],
  developerText: string,
  skills: readonly ListedSkill[] = [],
): ReadonlySet<string> {
  const offered = new Set<string>();
  const names = new Set(tools.flatMap((tool) => (tool.name === undefined ? [] : [tool.name])));
  const agentTools = new Set(
    tools
      .filter((tool) => tool.type === 'namespace' && tool.name === MULTI_AGENT_NAMESPACE)
      .flatMap((tool) => (tool.tools ?? []).flatMap((inner) => inner.name ?? [])),
  );
  // With catalog metadata of the gpt-5.5 kind the namespace is deferred behind
  // tool_search, announced in the developer text, and still callable directly.
  if (/Deferred tool namespaces:[\s\S]*?\bmulti_agent_v1\b/.test(developerText)) {
    for (const name of ['spawn_agent', 'wait_agent', 'send_input', 'close_agent']) {
      agentTools.add(name);
    }
  }
  if (names.has(shellTool)) {
    for (const name of ['Bash', 'Read', 'Glob', 'Grep', 'Write']) offered.add(name);
    if (skills.length > 0) offered.add('Skill');
  }
  if (agentTools.has('spawn_agent') && agentTools.has('wait_agent')) offered.add('Agent');
  if (agentTools.has('send_input') && agentTools.has('wait_agent')) offered.add('SendMessage');
  return offered;
}

/** A call as the face sends it to Codex (an output item without its item id). */
export interface CodexCall {
  readonly callId: string;
  readonly name: string;
  readonly namespace?: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

export interface PolicyCall {
  readonly id: string;
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** The Codex calls one policy turn becomes, or why a call has no Codex form. */
export function codexCallsOf(
  calls: readonly PolicyCall[],
  skills: readonly ListedSkill[] = [],
  /** The request's model: a spawn asking for a tier gets this id at that tier. */
  sessionModel?: string,
): { ok: true; value: CodexCall[] } | { ok: false; error: string } {
  const mapped: CodexCall[] = [];
  for (const [index, policyCall] of calls.entries()) {
    const callId = `${policyCall.id}_${index}of${calls.length}_${policyCall.name}`;
    const codex = codexFormOf(policyCall, skills, sessionModel);
    if (typeof codex === 'string') return { ok: false, error: codex };
    mapped.push({ callId, ...codex });
  }
  return { ok: true, value: mapped };
}

/**
 * The model a spawn names for a policy's `model` (a tier alias such as
 * `opus`): the session's scripted id at that tier (`scripted:<policy>@opus`,
 * which the backend's catalog lists, so Codex accepts it and the child's
 * requests carry it); a full id is passed as given; none when the call names
 * none or the session's model is not scripted.
 */
export function spawnModelOf(model: string, sessionModel: string | undefined): string | undefined {
  if (model === '') return undefined;
  if (model.includes(':')) return model;
  if (sessionModel === undefined || !isScriptedModel(sessionModel)) return undefined;
  const at = sessionModel.indexOf(scriptedTierSeparator);
  return scriptedTierModelId(at === -1 ? sessionModel : sessionModel.slice(0, at), model);
}

function codexFormOf(
  policyCall: PolicyCall,
  skills: readonly ListedSkill[],
  sessionModel: string | undefined,
): Omit<CodexCall, 'callId'> | string {
  const input = policyCall.input;
  const text = (key: string): string => (typeof input[key] === 'string' ? input[key] : '');
  switch (policyCall.name) {
    case 'Skill': {
      const skill = skills.find((listed) => listed.name === text('skill'));
      if (skill === undefined) return `Skill names ${text('skill')}, which Codex does not list`;
      return shell(`cat -- ${shellQuote(skill.file)}`);
    }
    case 'Bash':
      return shell(text('command'));
    case 'Read':
      return shell(readCommand(text('file_path'), input.offset, input.limit));
    case 'Glob': {
      const path = text('path') === '' ? '.' : text('path');
      return shell(
        `rg --files --hidden --glob ${shellQuote(text('pattern'))} -- ${shellQuote(path)} | sort`,
      );
    }
    case 'Grep': {
      const mode = text('output_mode');
      const flag = mode === 'content' ? '-n' : mode === 'count' ? '-c' : '-l';
      const path = text('path') === '' ? '.' : text('path');
      return shell(`rg ${flag} -e ${shellQuote(text('pattern'))} -- ${shellQuote(path)}`);
    }
    case 'Write': {
      const path = text('file_path');
      const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '.';
      return shell(
        `mkdir -p -- ${shellQuote(dir === '' ? '/' : dir)} && printf '%s' ${shellQuote(text('content'))} > ${shellQuote(path)}`,
      );
    }
    case 'Agent':
    case 'Task': {
      const model = spawnModelOf(text('model'), sessionModel);
      return {
        name: 'spawn_agent',
        namespace: MULTI_AGENT_NAMESPACE,
        arguments: { message: text('prompt'), ...(model === undefined ? {} : { model }) },
      };
    }
    case 'SendMessage':
      return {
        name: 'send_input',
        namespace: MULTI_AGENT_NAMESPACE,
        arguments: { target: text('to'), message: text('message') },
      };
    default:
      return `${policyCall.name} has no form on Codex (the face offers Bash, Read, Glob, Grep, Write, Skill, Agent and SendMessage only)`;
  }
}

function shell(cmd: string): Omit<CodexCall, 'callId'> {
  return { name: shellTool, arguments: { cmd } };
}

function readCommand(path: string, offset: unknown, limit: unknown): string {
  const cat = `cat -n -- ${shellQuote(path)}`;
  if (typeof offset !== 'number' && typeof limit !== 'number') return cat;
  const first = typeof offset === 'number' && offset > 0 ? offset : 1;
  const last = typeof limit === 'number' && limit > 0 ? `${first + limit - 1}` : '$';
  return `${cat} | sed -n '${first},${last}p'`;
}

/** The wait the face adds after a spawn or a send_input, for the agent it concerns. */
export function waitCallFor(policyCallId: string, agentId: string): CodexCall {
  return {
    callId: `${policyCallId}_wait`,
    name: 'wait_agent',
    namespace: MULTI_AGENT_NAMESPACE,
    arguments: { targets: [agentId], timeout_ms: 3_600_000 },
  };
}

/** What a call id made by this face says. */
export type FaceCallId =
  | {
      readonly kind: 'call';
      readonly policyId: string;
      readonly index: number;
      readonly count: number;
      readonly tool: string;
    }
  | { readonly kind: 'wait'; readonly policyId: string };

export function readCallId(callId: string): FaceCallId | undefined {
  const wait = /^(.+)_wait$/.exec(callId);
  if (wait?.[1] !== undefined) return { kind: 'wait', policyId: wait[1] };
  const made = /^(.+)_(\d+)of(\d+)_([A-Za-z]+)$/.exec(callId);
  if (made === null) return undefined;
  const [, policyId, index, count, tool] = made;
  if (policyId === undefined || tool === undefined) return undefined;
  return { kind: 'call', policyId, index: Number(index), count: Number(count), tool };
}

export interface Outcome {
  readonly text: string;
  readonly isError: boolean;
}

/**
 * A shell call's result as a policy reads a tool_result: the command's output
 * without Codex's header (`Chunk ID`, `Wall time`, `Process exited with code
 * N`, `Original token count`, `Output:`), an error when the exit code is not 0.
 */
export function shellOutcome(output: string): Outcome {
  const exit = /^Process exited with code (-?\d+)$/m.exec(output);
  const body = /^Output:\n/m.exec(output);
  if (body === null) return { text: output, isError: exit !== null && exit[1] !== '0' };
  return {
    text: output.slice(body.index + body[0].length),
    isError: exit !== null && exit[1] !== '0',
  };
}

/**
 * A skill read through the shell as the Skill tool's answer: the result, and
 * the loaded text (after its front matter) as Claude Code gives it beside
 * the result. A failed read is the call's error.
 */
export function skillOutcome(
  output: string,
  command: string,
  skills: readonly ListedSkill[],
): Outcome & { readonly loaded?: string } {
  const read = shellOutcome(output);
  const skill = skills.find((listed) => command === `cat -- ${shellQuote(listed.file)}`);
  if (read.isError || skill === undefined) return read;
  const body = read.text.replace(/^---\n[\s\S]*?\n---\n/, '').replace(/^\n+/, '');
  const dir = skill.file.slice(0, skill.file.lastIndexOf('/'));
  return {
    text: `Launching skill: ${skill.name}`,
    isError: false,
    loaded: `Base directory for this skill: ${dir}\n\n${body}`,
  };
}

/** The agent id a spawn_agent result names (`{"agent_id": …, "nickname": …}`). */
export function spawnedAgentId(output: string): string | undefined {
  const parsed = jsonObject(output);
  const id = parsed?.agent_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * A wait_agent result as the Agent (or SendMessage) result a policy reads:
 * the agent's final text, then its id, the way the messages backend frames a
 * subagent's report. An agent that did not complete is an error result.
 */
export function waitOutcome(output: string, agentId: string): Outcome {
  const parsed = jsonObject(output);
  const status = parsed?.status;
  const entry =
    typeof status === 'object' && status !== null
      ? (status as Record<string, unknown>)[agentId]
      : undefined;
  const completed =
    typeof entry === 'object' && entry !== null
      ? (entry as Record<string, unknown>).completed
      : undefined;
  if (typeof completed === 'string') {
    return {
      text: `${completed}\n\nagentId: ${agentId} (use SendMessage with to: '${agentId}' to continue this agent)`,
      isError: false,
    };
  }
  return { text: `agent ${agentId} did not complete: ${output}`, isError: true };
}

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
