import type { Command } from 'commander';
import { ExitCode, failWithInputError } from './exit.js';

/** `redgreen campaign lint`: prove a campaign file before a run spends anything on it. */
export function registerCampaignCommand(program: Command): void {
  const campaign = program
    .command('campaign')
    .description('check campaign files: lint validates one and dry-runs its schedule');

  campaign
    .command('lint')
    .description(
      'validate a campaign file as a run would load it (the file against its schema, schemas/campaign.schema.json; ' +
        'every scenario, check, prompt, fixture, skill source and model it names), then dry-run its schedule: the cells, ' +
        'sessions, estimated cost and wall time, and whether its gates can decide at its reps. Builds and runs nothing. ' +
        'Exits 0 when sound, 1 when a gate cannot be decided at its reps or it declares none, 2 on bad input.',
    )
    .argument(
      '<file>',
      'a campaign file (*.campaign.json), or one redgreen ships by name (sdd-panel.campaign.json, sdd-panel)',
    )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  redgreen campaign lint scenarios/my.campaign.json',
        '  redgreen campaign lint sdd-panel',
      ].join('\n'),
    )
    .action(async (file: string) => {
      const { lintCampaign, formatCampaignLint } = await import('../authoring/campaign-lint.js');
      const lint = await lintCampaign(file, process.cwd(), process.env, new Date());
      if (!lint.ok) {
        process.exitCode = failWithInputError(lint.error);
        return;
      }
      process.stdout.write(formatCampaignLint(lint.value));
      process.exitCode = lint.value.ok ? ExitCode.ok : ExitCode.failed;
    });
}
