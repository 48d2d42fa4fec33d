import type { Command } from 'commander';
import { ExitCode, failWithInputError } from './exit.js';

const policyHelp = `
Policies (each answers as model "scripted:<policy>", so its numbers are never mistaken for a model's):
  literal       trusts whatever ledger the released text points at (.superpowers/sdd/progress.md)
  forensic      checks each cited commit's content against the plan files before trusting a ledger
  structural    resolves its plan's workspace with the skill's script; trusts only a ledger naming its plan
  always-redo   ignores every ledger and starts the plan at Task 1
  skill-reader  follows SKILL.md: literal under a flat-ledger text, structural under a plan-scoped text,
                and at the fix-loop chain's moments what the text's mechanisms (markers.json) say
  asks-human    stops to ask the human about the decision in front of it (AskUserQuestion when offered)
  sixth-round   dispatches one more fix round for a task mid-loop, past any cap
  resume-cheap-model  resumes the task's latest implementer (SendMessage), whatever its model and round
  moves-on-silently   treats a task mid-loop as done and dispatches the next, writing nothing
  reopens-parked      with every task done, reopens the parked task instead of the final review
  full-controller     full sessions (stop: complete): per task an implementer then a reviewer; a
                      finding goes back to the implementer (SendMessage); subagents whose prompt is
                      a seat's (implementer, reviewer) are answered by that seat, under any policy
  full-fresh-fixer    calibration: as full-controller, but a fix goes to a fresh implementer
  re-reviews          sends a task reviewer (not an implementer) back over a task's open findings
  echoes-template     writes the skill text's own ruling/parked template lines to the ledger, goes on
  asks-user-tool      scripted user (stop: complete): asks the greeting style with AskUserQuestion,
                      then writes the style the answer names to greeting-style.txt
  asks-user-reply     scripted user: replies with the question; writes the style an answer names,
                      asks again while none does
  full-env-dump       key canary (stop: complete): the controller and two subagents (one on the opus
                      tier) dump their tool environment (env, /proc/self/environ, git config -l)
A request whose model id is "scripted:<policy>" is answered by that policy; any other model id is
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
  ANTHROPIC_BASE_URL=http://127.0.0.1:8787 claude -p "..." --model scripted:structural`;

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
