import type { Command } from 'commander';

interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

async function versionOf(command: string, args: readonly string[]): Promise<string | undefined> {
  const { execa } = await import('execa');
  const result = await execa(command, args, { reject: false, timeout: 20_000 });
  return result.exitCode === 0 ? String(result.stdout).trim().split('\n')[0] : undefined;
}

/** `redgreen doctor`: what this machine can run, and what is missing. */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'report what this machine can run: Node and git versions, the Claude Code engine, which sandbox confines model-issued commands, and whether an API key is set (never its value).',
    )
    .option('--json', 'print the checks as JSON')
    .action(async (flags: { json?: boolean }) => {
      const { detectSandbox } = await import('../session/sandbox.js');
      const { locateClaudeCodeBinary } = await import('../session/locate-engine.js');
      const checks: Check[] = [];
      checks.push({ name: 'node', ok: true, detail: process.version });
      const git = await versionOf('git', ['--version']);
      checks.push({
        name: 'git',
        ok: git !== undefined,
        detail: git ?? 'not found: apt-get install git',
      });
      const binary = locateClaudeCodeBinary();
      const engine = binary === undefined ? undefined : await versionOf(binary, ['--version']);
      checks.push({
        name: 'claude-code engine',
        ok: engine !== undefined,
        detail:
          engine ??
          'not installed: npm install (ships in @anthropic-ai/claude-agent-sdk); --backend messages works without it',
      });
      const sandbox = await detectSandbox();
      checks.push({
        name: 'sandbox',
        ok: sandbox.kind === 'bubblewrap',
        detail: sandbox.description,
      });
      const key = (process.env.ANTHROPIC_API_KEY ?? '').trim() !== '';
      checks.push({
        name: 'ANTHROPIC_API_KEY',
        ok: true,
        detail: key
          ? 'set (live runs use the campaign model)'
          : 'not set (runs are offline, with scripted policies)',
      });
      const baseUrl = process.env.ANTHROPIC_BASE_URL;
      if (baseUrl !== undefined && baseUrl !== '')
        checks.push({ name: 'ANTHROPIC_BASE_URL', ok: true, detail: baseUrl });
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(checks, null, 2)}\n`);
      } else {
        const width = Math.max(...checks.map((check) => check.name.length));
        for (const check of checks) {
          process.stdout.write(
            `${check.ok ? 'ok  ' : 'WARN'}  ${check.name.padEnd(width)}  ${check.detail}\n`,
          );
        }
      }
      process.exitCode = checks.every((check) => check.ok) ? 0 : 1;
    });
}
