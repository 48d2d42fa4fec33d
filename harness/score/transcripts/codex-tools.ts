/**
 * Codex CLI's tool calls as scoring reads them: a call Codex makes for
 * something Claude Code has a tool for gets Claude Code's name and input
 * (the name Codex used is kept as `recordedAs`), so every check reads both
 * engines alike:
 *
 * - `exec_command {cmd}`, `shell {command: argv}` and `local_shell_call` are
 *   `Bash {command}`;
 * - a code-mode `exec` script that runs shell commands is `Bash` with those
 *   commands, one per line (codex-code-mode.ts reads them), the script kept
 *   as `script`; one that runs none stays `exec`;
 * - `spawn_agent` is `Agent {prompt}` (its `message`), and `send_input` /
 *   `followup_task` / `send_message` are `SendMessage {to, message}`.
 *
 * - a `web_search_call` item is `WebSearch {query}`.
 *
 * Everything else (apply_patch, wait_agent, `update_plan`, …)
 * keeps its own name and input.
 */
import { codeModeCommands } from './codex-code-mode.js';
import { contentText } from './content-text.js';
import { recordOf } from './format-reader.js';

export interface CodexCall {
  readonly name: string;
  readonly input: unknown;
  /** Codex's own name (with its namespace), when the call was renamed. */
  readonly recordedAs?: string;
}

/** A command line from an argv: `bash -lc <script>` is its script; else the words joined. */
function commandOfArgv(argv: readonly unknown[]): string {
  const words = argv.filter((word): word is string => typeof word === 'string');
  const [program, flag, script] = words;
  if (
    words.length === 3 &&
    program !== undefined &&
    /(?:^|\/)(?:ba|z|da)?sh$/.test(program) &&
    flag !== undefined &&
    /^-\w*c$/.test(flag)
  ) {
    return script ?? '';
  }
  return words
    .map((word) => (/^[\w./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`))
    .join(' ');
}

function parsedArguments(text: unknown): Record<string, unknown> {
  if (typeof text !== 'string') return recordOf(text) ?? {};
  try {
    return recordOf(JSON.parse(text)) ?? { arguments: text };
  } catch {
    return { arguments: text };
  }
}

/** The text of `items` content parts (a spawn or send given as items rather than a message). */
function itemsText(items: unknown): string | undefined {
  if (!Array.isArray(items)) return undefined;
  const texts = items
    .map((item) => recordOf(item)?.text)
    .filter((text): text is string => typeof text === 'string');
  return texts.length === 0 ? undefined : texts.join('\n');
}

/** A `web_search_call` item (Codex's built-in search) is `WebSearch {query}`. */
export function webSearchCall(action: unknown): CodexCall {
  const record = recordOf(action) ?? {};
  const query = typeof record.query === 'string' ? record.query : undefined;
  return {
    name: 'WebSearch',
    input: { ...record, ...(query === undefined ? {} : { query }) },
    recordedAs: 'web_search_call',
  };
}

const SPAWN = new Set(['spawn_agent']);
const SEND = new Set(['send_input', 'followup_task', 'send_message']);

/** Whether a Codex agent tool dispatches work: a spawn, or a message to a live agent. */
export function isCodexDispatchTool(name: string): boolean {
  return SPAWN.has(name) || SEND.has(name);
}

/** A `function_call` item, read. */
export function functionCall(name: string, namespace: unknown, argumentsText: unknown): CodexCall {
  const args = parsedArguments(argumentsText);
  const recordedAs =
    typeof namespace === 'string' && namespace !== '' ? `${namespace}.${name}` : name;
  if (name === 'exec_command' && typeof args.cmd === 'string') {
    return { name: 'Bash', input: { ...args, command: args.cmd }, recordedAs };
  }
  if ((name === 'shell' || name === 'container.exec') && Array.isArray(args.command)) {
    return { name: 'Bash', input: { ...args, command: commandOfArgv(args.command) }, recordedAs };
  }
  if (SPAWN.has(name)) {
    const prompt = typeof args.message === 'string' ? args.message : itemsText(args.items);
    return {
      name: 'Agent',
      input: {
        ...args,
        ...(prompt === undefined ? {} : { prompt }),
        ...(typeof args.task_name === 'string' ? { description: args.task_name } : {}),
      },
      recordedAs,
    };
  }
  if (SEND.has(name)) {
    const message = typeof args.message === 'string' ? args.message : itemsText(args.items);
    return {
      name: 'SendMessage',
      input: {
        ...args,
        ...(typeof args.target === 'string' ? { to: args.target } : {}),
        ...(message === undefined ? {} : { message }),
      },
      recordedAs,
    };
  }
  return { name, input: args };
}

/** A `custom_tool_call` item (freeform input: a patch, a code-mode script), read. */
export function customToolCall(name: string, input: unknown): CodexCall {
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  if (name === 'exec') {
    const { commands } = codeModeCommands(text);
    return commands.length === 0
      ? { name, input: { script: text } }
      : { name: 'Bash', input: { command: commands.join('\n'), script: text }, recordedAs: name };
  }
  return { name, input: { input: text } };
}

/** A `local_shell_call` item (older Codex), read. */
export function localShellCall(action: unknown): CodexCall {
  const command = recordOf(action)?.command;
  return {
    name: 'Bash',
    input: { command: Array.isArray(command) ? commandOfArgv(command) : '' },
    recordedAs: 'local_shell_call',
  };
}

/** The text of a call's output: a string, content parts, or Codex's `{output}` JSON. */
export function outputText(output: unknown): string {
  if (typeof output === 'string' || Array.isArray(output)) return contentText(output);
  const record = recordOf(output);
  if (record !== undefined && typeof record.content === 'string') return record.content;
  return output === undefined ? '' : JSON.stringify(output);
}

/** Whether a shell call's output says the command failed (`Process exited with code N`, N ≠ 0). */
export function outputFailed(output: string): boolean {
  const code =
    /^Process exited with code (\d+)/m.exec(output)?.[1] ??
    /"exit_code"\s*:\s*(\d+)/.exec(output)?.[1];
  return code !== undefined && code !== '0';
}

/** The agent id a spawn_agent result names (`{"agent_id": …}`). */
export function spawnedAgentId(output: string): { agentId?: string; nickname?: string } {
  try {
    const parsed = recordOf(JSON.parse(output));
    return {
      ...(typeof parsed?.agent_id === 'string' ? { agentId: parsed.agent_id } : {}),
      ...(typeof parsed?.nickname === 'string' ? { nickname: parsed.nickname } : {}),
    };
  } catch {
    return {};
  }
}
