import type { Command } from 'commander';
import { scriptedPolicies, seats } from '../model-server/index.js';
import { ExitCode, failWithInputError } from './exit.js';

/** One term and its description, the description wrapped under itself. */
function helpRow(term: string, description: string, column: number, width: number): string[] {
  const lines: string[] = [];
  let line = `  ${term.padEnd(column - 2)}`;
  let filled = false;
  for (const word of description.split(' ')) {
    if (filled && line.length + 1 + word.length > width) {
      lines.push(line);
      line = ' '.repeat(column);
      filled = false;
    }
    line += filled ? ` ${word}` : word;
    filled = true;
  }
  return [...lines, line];
}

/** The policies and seats of the server and the installed packs, computed when help is shown. */
function policyHelp(): string {
  const policies = scriptedPolicies();
  const column = Math.max(...policies.map((policy) => policy.name.length)) + 4;
  return [
    '',
    'Policies (each answers as model "scripted:<policy>", so its numbers are never mistaken for a model\'s):',
    ...policies.flatMap((policy) => helpRow(policy.name, policy.summary, column, 100)),
    "Seats (a subagent whose dispatch prompt is a seat's is answered by that seat, under any policy):",
    ...seats().flatMap((seat) => helpRow(seat.name, seat.summary, column, 100)),
    `A request whose model id is "scripted:<policy>" is answered by that policy; any other model id is
answered by --policy. Usage numbers in responses are estimates (about 4 characters a token).

Fault specs (--fault, repeatable; counted per session unless :counter=server):
  429x2:retry-after=0   the first two requests of each session get 429 (retry-after default 1 s)
  529x*   500x1         overloaded on every request; one 500 api_error
  401x*                 every request refused as unauthenticated (what a bad API key gets)
  delay=200ms           every turn waits 200 ms; delay=50-300ms waits a seeded random time
  drop@2                the session's turn 2: connection dropped mid-stream, after message_start
  malformed@1           turn 1: invalid JSON (a broken SSE event when streaming)
  truncated@1           turn 1: the body stops partway
  any spec:session=<glob>   only sessions whose key matches (key: x-redgreen-session header,
                            else Claude Code's session id, else a hash of the first user message)

Example:
  redgreen serve-model --policy structural --port 8787 --log requests.jsonl
  ANTHROPIC_BASE_URL=http://127.0.0.1:8787 claude -p "..." --model scripted:structural`,
  ].join('\n');
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `redgreen serve-model`: a local Messages API whose model is a scripted policy. */
export function registerServeModelCommand(program: Command): void {
  program
    .command('serve-model')
    .description(
      'run a local Anthropic Messages API (JSON and SSE) on 127.0.0.1 whose "model" is a scripted ' +
        'policy, so sessions run offline on the real client and engine; prints its base URL and ' +
        'runs until interrupted',
    )
    .requiredOption('--policy <name>', 'the scripted policy that answers (see below)')
    .option('--port <n>', 'port to listen on; 0 picks a free one (default 0)')
    .option(
      '--seed <s>',
      'seed for optional extra tool calls and random delays; without it policies make no extra calls',
    )
    .option('--log <file>', 'append one JSON line per request (never any API key) to this file')
    .option('--fault <spec>', 'inject a fault; repeatable (see below)', collect, [])
    .option(
      '--extra-verify <p>',
      'with --seed: chance of each extra git-history verification call (default 0.5)',
    )
    .option(
      '--look-around <p>',
      'with --seed: chance of each extra look around the repository (default 0.4)',
    )
    .addHelpText('after', policyHelp)
    .action(async (flags: unknown) => {
      const { parseServeModelFlags, serveUntilSignalled } = await import(
        '../model-server/serve.js'
      );
      const settings = await parseServeModelFlags(flags);
      if (!settings.ok) {
        process.exitCode = failWithInputError(settings.error);
        return;
      }
      const served = await serveUntilSignalled(settings.value, (line) =>
        process.stdout.write(`${line}\n`),
      );
      process.exitCode = served.ok ? ExitCode.ok : failWithInputError(served.error);
    });
}
