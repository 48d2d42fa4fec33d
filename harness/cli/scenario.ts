import { type Command, Option } from 'commander';
import { defaultScenarioTemplate } from '../authoring/scenario-templates.js';
import { ExitCode, failWithInputError } from './exit.js';

interface LintFlags {
  readonly backend: 'messages' | 'claude-code' | 'codex';
  readonly keep?: string;
}

/** `redgreen scenario lint|new|migrate`: author and prove scenarios. */
export function registerScenarioCommand(program: Command): void {
  const scenario = program
    .command('scenario')
    .description(
      'write and check scenarios: lint proves one offline, new scaffolds one, calibrate turns a recorded rep into a calibration, migrate converts the old format',
    );

  scenario
    .command('lint')
    .description(
      'validate a scenario, build its fixture and run its pre-checks, then run every calibration policy offline ' +
        '(local model server, one rep each) and print whether each must-pass policy passes and each must-fail one ' +
        'fails for the declared checks. Exits 0 when all do, 1 when one does not, 2 on bad input.',
    )
    .argument(
      '<dir-or-id>',
      "a scenario folder, or an id: looked for in ./scenarios/ first, then in redgreen's own scenarios/",
    )
    .addOption(
      new Option(
        '--backend <name>',
        'the backend the calibration sessions run on; on codex a scenario the run would refuse there (an event stop other than a dispatch, a scripted user, user turns, tools changes) is refused the same way',
      )
        .choices(['messages', 'claude-code', 'codex'])
        .default('messages'),
    )
    .option(
      '--keep <dir>',
      "keep each calibration session's results directory in <dir> (a new or empty folder): <dir>/<n>-<policy>/, its reps' transcript.jsonl, reply.md and score.json, to see what a policy did",
    )
    .action(async (target: string, flags: LintFlags) => {
      const { lintScenario, formatLintReport } = await import('../authoring/scenario-lint.js');
      const { scenarioSearchDirs } = await import('../scenario/resolve-scenario.js');
      const report = await lintScenario(target, {
        backend: flags.backend,
        scenariosDirs: scenarioSearchDirs(),
        keep: flags.keep,
      });
      if (!report.ok) {
        process.exitCode = failWithInputError(report.error);
        return;
      }
      process.stdout.write(formatLintReport(report.value));
      process.exitCode = report.value.ok ? ExitCode.ok : ExitCode.failed;
    });

  scenario
    .command('new')
    .description(
      `scaffold a working scenario in <dir>/<id>/ to edit; it lints as written. Without --skill: ${defaultScenarioTemplate()?.summary ?? 'the scenario template of an installed pack (none is installed)'}; with --skill <folder>: a scenario for that skill that needs no pack, calibrated by two policy files in its policies/ (no TypeScript). Never overwrites.`,
    )
    .argument('<id>', 'the new scenario id (lower-case letters, digits, dashes)')
    .option('--dir <dir>', 'the folder that holds your scenarios', 'scenarios')
    .option(
      '--skill <folder>',
      "a skill's folder (holding its SKILL.md): scaffold a scenario for it that needs no pack, with a must-pass and a must-fail policy file",
    )
    .action(async (id: string, flags: { dir: string; skill?: string }) => {
      const made =
        flags.skill === undefined
          ? await (await import('../authoring/scenario-scaffold.js')).scaffoldScenario(
              id,
              flags.dir,
            )
          : await (await import('../authoring/skill-scenario-scaffold.js')).scaffoldSkillScenario(
              id,
              flags.dir,
              flags.skill,
            );
      if (!made.ok) {
        process.exitCode = failWithInputError(made.error);
        return;
      }
      process.stdout.write(
        `wrote ${made.value.dir}/scenario.json and prompt.hbs${flags.skill === undefined ? '' : ', and policies/follows-skill.yaml and policies/skips-skill.yaml'}; next: redgreen scenario lint ${made.value.dir}; a campaign file ${flags.dir === 'scenarios' ? 'in this folder or in scenarios/' : `in ${flags.dir}/`} names it "${id}" in its "scenarios"\n`,
      );
      process.exitCode = ExitCode.ok;
    });

  scenario
    .command('calibrate')
    .description(
      "make a rep that really ran a permanent calibration of its scenario: copy its transcript, prompt and skill text into the scenario's policies/ as a replay policy, and add it to the scenario's mustPass or mustFail. `scenario lint` then replays it offline; a rep whose session no longer fits the recording is reported as diverged. Never overwrites.",
    )
    .argument(
      '<scenario>',
      "the scenario's folder, or its id in ./scenarios/ (a scenario redgreen ships is copied there first: calibrate writes into it)",
    )
    .requiredOption('--from <rep-dir>', 'the rep: <results-dir>/reps/<arm>/<scenario>-rep<N>')
    .addOption(
      new Option('--must <verdict>', 'whether the replay must pass or must fail')
        .choices(['pass', 'fail'])
        .makeOptionMandatory(),
    )
    .option('--name <policy>', 'the policy name (default: replay-<arm>-<scenario>-rep<N>)')
    .option(
      '--failing <ids>',
      'with --must fail: the post checks it must fail, comma-separated (default: those the rep failed)',
    )
    .action(
      async (
        target: string,
        flags: { from: string; must: 'pass' | 'fail'; name?: string; failing?: string },
      ) => {
        const { calibrateFromRep } = await import('../authoring/scenario-calibrate.js');
        const path = await import('node:path');
        const done = await calibrateFromRep({
          scenario: target,
          // It writes into the scenario: an id names one of the user's own, never a shipped one.
          scenariosDirs: [path.resolve('scenarios')],
          from: flags.from,
          must: flags.must,
          name: flags.name,
          failing: flags.failing
            ?.split(',')
            .map((id) => id.trim())
            .filter((id) => id !== ''),
        });
        if (!done.ok) {
          process.exitCode = failWithInputError(done.error);
          return;
        }
        const { policy, policyFile, scenarioFile, recordedVerdict, failing } = done.value;
        process.stdout.write(
          `wrote ${policyFile} and added ${policy} to ${scenarioFile} (must ${flags.must}${failing.length > 0 ? `: ${failing.join(', ')}` : ''}; the rep was recorded ${recordedVerdict}); next: redgreen scenario lint ${target}\n`,
        );
        process.exitCode = ExitCode.ok;
      },
    );

  scenario
    .command('migrate')
    .description(
      'convert a scenario of the old format (scenario.json + scoring.json) into one scenario.json with a report ' +
        'contract and checks that judge as the old scorer did; removes scoring.json, keeping the old files as ' +
        'scenario.json.pre-migration and scoring.json.pre-migration (refused if those exist). Calibration is guessed: lint it.',
    )
    .argument('<dir>', 'the old scenario folder')
    .action(async (dir: string) => {
      const { migrateScenario } = await import('../authoring/scenario-migrate.js');
      const path = await import('node:path');
      const migrated = await migrateScenario(dir);
      if (!migrated.ok) {
        process.exitCode = failWithInputError(migrated.error);
        return;
      }
      process.stdout.write(
        `wrote ${migrated.value.file} and removed scoring.json (the old files are kept as ${migrated.value.backups.map((file) => path.basename(file)).join(' and ')}); the calibration is a guess: run redgreen scenario lint ${dir}\n`,
      );
      process.exitCode = ExitCode.ok;
    });
}
