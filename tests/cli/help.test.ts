/**
 * The command line's own surface: what `--help` says and what it loads.
 * Start-up time is measured by `scripts/bench-cli.ts`; here the test is the
 * cause of slowness, deterministic: which modules a process loads.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { setDefaultRecipeSource } from '../../harness/cli/cli-extensions.js';
import { commandListHelp } from '../../harness/cli/command-list.js';
import { COMMANDS } from '../../harness/cli/command-table.js';
import { registerFixtureCommand } from '../../harness/cli/fixture.js';
import { buildProgram, loadCommander } from '../../harness/cli/program.js';
import { defaultRecipeName } from '../../harness/fixture/index.js';
import { policyNames } from '../../harness/model-server/index.js';
import { cleanEnv, cliPath, repoRoot, runCli } from '../helpers/cli.js';

/** Run the CLI with tests/cli/trace-modules.mjs preloaded: every module it loads, by path. */
async function modulesLoaded(
  args: readonly string[],
): Promise<{ modules: string[]; exitCode: number | undefined }> {
  const register = path.join(repoRoot, 'tests/cli/trace-modules.mjs');
  const result = await execa(process.execPath, ['--import', register, cliPath, ...args], {
    cwd: repoRoot,
    env: cleanEnv(),
    extendEnv: false,
    reject: false,
  });
  const modules = String(result.stderr)
    .split('\n')
    .filter((line) => line.startsWith('LOADED file://'))
    .map((line) => path.relative(repoRoot, new URL(line.slice('LOADED '.length)).pathname));
  return { modules: [...new Set(modules)].sort(), exitCode: result.exitCode };
}

const commandModules = (modules: readonly string[]) =>
  modules.filter(
    (file) =>
      file.startsWith('dist/harness/cli/') &&
      ![
        // The entry's own modules, loaded by every process: the closed-output
        // guard must be in place before anything is written.
        'dist/harness/cli/closed-output.js',
        'dist/harness/cli/command-list.js',
        'dist/harness/cli/command-table.js',
        'dist/harness/cli/exit-codes.js',
        'dist/harness/cli/pack-loader.js',
        'dist/harness/cli/program.js',
        // The registries a pack's command-line additions are installed into
        // (pack/install-packs.ts), before any command is built.
        'dist/harness/cli/check-flags.js',
        'dist/harness/cli/cli-extensions.js',
      ].includes(file),
  );

describe('loading: a command loads its own modules only when it runs', () => {
  it('`redgreen --help` loads no command module and nothing from node_modules, not even commander', async () => {
    for (const args of [['--help'], ['-h'], ['help'], [], ['--version']]) {
      const { modules } = await modulesLoaded(args);
      expect(commandModules(modules), args.join(' ')).toEqual([]);
      expect(
        modules.filter((file) => file.startsWith('node_modules/')),
        args.join(' '),
      ).toEqual([]);
    }
  });

  it('a command loads commander as CommonJS, not through its ESM wrapper (a second parse)', async () => {
    const { modules } = await modulesLoaded(['fixture', '--help']);
    expect(modules).toContain('node_modules/commander/index.js');
    expect(modules).not.toContain('node_modules/commander/esm.mjs');
  });

  it('`redgreen fixture --help` loads the fixture command and no other command', async () => {
    const { modules, exitCode } = await modulesLoaded(['fixture', '--help']);
    expect(exitCode).toBe(0);
    expect(commandModules(modules)).toEqual([
      'dist/harness/cli/exit.js',
      'dist/harness/cli/fixture.js',
    ]);
  });

  it('`redgreen fixture` with missing arguments fails before loading the fixture engine or zod', async () => {
    const { modules, exitCode } = await modulesLoaded(['fixture']);
    expect(exitCode).toBe(2);
    expect(modules.filter((file) => file.startsWith('dist/harness/fixture/'))).toEqual([]);
    expect(modules.filter((file) => file.startsWith('node_modules/zod/'))).toEqual([]);
  });

  it('the loading probe sees a module that is loaded (planted negative)', async () => {
    const { modules } = await modulesLoaded(['fixture', '--help']);
    expect(modules).toContain('dist/harness/cli/fixture.js');
    expect(modules).toContain('node_modules/commander/index.js');
  });
});

describe('help text', () => {
  it('bare `redgreen` is a usage error: the command list on stderr, exit 2', async () => {
    const result = await runCli([]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage: redgreen [options] [command]');
    for (const entry of COMMANDS) expect(result.stderr).toContain(entry.name);
  });

  it('`redgreen --help` lists every command with its whole summary on stdout, exit 0', async () => {
    const result = await runCli(['--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const flat = result.stdout.replace(/\s+/g, ' ');
    for (const entry of COMMANDS) expect(flat).toContain(entry.summary);
    expect(flat).not.toMatch(/\be\.?g?\s*$|\(e\s/m);
    expect(flat).toContain('e.g. the shards of a CI run');
  });

  it('prints the command list without commander exactly as commander renders the program', async () => {
    const commander = loadCommander();
    for (const width of [40, 80, 120, 200]) {
      const program = await buildProgram([], commander);
      let rendered = '';
      program.configureOutput({
        getOutHelpWidth: () => width,
        writeOut: (text) => {
          rendered += text;
        },
      });
      program.outputHelp();
      expect(commandListHelp(width), `${width} columns`).toBe(rendered);
    }
  });

  it('`redgreen --version` prints the package version', async () => {
    const result = await runCli(['--version']);
    expect(result.exitCode).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(result.stdout).toBe(manifest.version); // execa strips the final newline
  });

  it("`redgreen help <command>` shows that command's help", async () => {
    const result = await runCli(['help', 'gate']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Usage: redgreen gate [options] <results-dir>');
  });

  it('every command registers with the usage and summary the command list shows', async () => {
    for (const entry of COMMANDS) {
      const program = new Command('redgreen');
      await entry.register(program);
      const command = program.commands.find((candidate) => candidate.name() === entry.name);
      expect(command, entry.name).toBeDefined();
      expect(command?.usage(), entry.name).toBe(entry.usage);
      expect(command?.summary(), entry.name).toBe(entry.summary);
    }
  });

  it('has no hard line breaks in descriptions: commander wraps them to the terminal', async () => {
    for (const entry of COMMANDS) {
      const program = new Command('redgreen');
      await entry.register(program);
      const command = program.commands.find((candidate) => candidate.name() === entry.name);
      const texts = [
        command?.description() ?? '',
        ...(command?.options ?? []).map((option) => option.description),
        ...(command?.registeredArguments ?? []).map((argument) => argument.description),
      ];
      for (const text of texts) expect(text, `${entry.name}: ${text}`).not.toContain('\n');
    }
  });

  it('`run --help` shows effective defaults and the --retry-indeterminate rule the README states', async () => {
    const result = await runCli(['run', '--help']);
    expect(result.exitCode).toBe(0);
    const flat = result.stdout.replace(/\s+/g, ' ');
    expect(flat).toContain(
      "sessions per cell (arm x scenario) (default: the campaign's reps; 5 in the default campaign)",
    );
    expect(flat).toContain("(default: the campaign's concurrency; 4 in the default campaign)");
    expect(flat).toMatch(
      /--max-turns <n> .*\(default: the campaign's limit; 40 in the default campaign\)/,
    );
    // A scripted user's answers and turns each give the controller a fresh turn budget; help and README say so.
    const answers =
      'so a session may run up to (maxAnswers + declared turns + 1) x maxTurns controller turns';
    expect(flat).toContain(answers);
    expect(readFileSync(path.join(repoRoot, 'README.md'), 'utf8').replace(/\s+/g, ' ')).toContain(
      answers.replace(' x ', ' × '),
    );
    const rule = 'fails, turn-limit hits and missing replies are never retried';
    expect(flat).toContain(rule);
    expect(readFileSync(path.join(repoRoot, 'README.md'), 'utf8').replace(/\s+/g, ' ')).toContain(
      rule,
    );
    expect(flat).not.toContain('no reply)');
  });

  it('`run --help` names every scripted policy --model scripted:<policy> takes', async () => {
    const result = await runCli(['run', '--help']);
    const flat = result.stdout.replace(/\s+/g, ' ');
    const model = /--model <spec> (.*?) --backend/.exec(flat)?.[1] ?? '';
    for (const name of policyNames()) expect(model).toContain(name);
  });
});

describe('`redgreen fixture --help` and the default recipe', () => {
  const recipeHelp = (): string => {
    const program = new Command();
    registerFixtureCommand(program);
    const fixture = program.commands.find((command) => command.name() === 'fixture');
    return (fixture?.helpInformation() ?? '').replace(/\s+/g, ' ');
  };

  it('names the default recipe the installed packs give', async () => {
    const fallback = defaultRecipeName();
    expect(fallback).toBeDefined();
    const result = await runCli(['fixture', '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.replace(/\s+/g, ' ')).toContain(
      `or a recipe directory (a path with a /); default ${fallback}`,
    );
  });

  it('computes it (planted: another default, or none, is what it names)', () => {
    try {
      setDefaultRecipeSource(() => 'probe-recipe');
      expect(recipeHelp()).toContain('(a path with a /); default probe-recipe');
      setDefaultRecipeSource(() => undefined);
      expect(recipeHelp()).toContain('(a path with a /); no default: no installed pack names one');
    } finally {
      setDefaultRecipeSource(defaultRecipeName);
    }
  });
});
