import type { Command } from 'commander';

/** Placeholder until the fixture builder lands (issue 2). */
export function registerFixtureCommand(program: Command): void {
  program
    .command('fixture')
    .description('build a widget-v3 fixture repository (not yet implemented)')
    .action(() => {
      process.stderr.write('redgreen fixture: not yet implemented\n');
      process.exitCode = 2;
    });
}
