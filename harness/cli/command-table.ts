import type { Command } from 'commander';

/**
 * Every redgreen command, in the order `redgreen --help` lists them: its name,
 * the usage and one-line summary the command list shows, and how to load and
 * register it. Nothing here imports a command's module: `redgreen --help` reads
 * this table alone, and a command's module (and whatever it imports) is loaded
 * only when that command runs. `tests/cli/help.test.ts` checks that each
 * command registers with exactly this usage and summary.
 */
export interface CommandEntry {
  readonly name: string;
  /** Arguments as commander prints them after the name, e.g. `[options] <results-dir>`. */
  readonly usage: string;
  /** One line for the command list; the command's own `--help` says the rest. */
  readonly summary: string;
  /** Load the command's module and register the command, with this summary, on `program`. */
  readonly register: (program: Command) => Promise<void>;
}

type Registrar = (program: Command) => void;

function lazy(
  name: string,
  usage: string,
  summary: string,
  load: () => Promise<Registrar>,
): CommandEntry {
  return {
    name,
    usage,
    summary,
    register: async (program) => {
      const registerCommand = await load();
      registerCommand(program);
      program.commands.find((command) => command.name() === name)?.summary(summary);
    },
  };
}

export const COMMANDS: readonly CommandEntry[] = [
  lazy(
    'run',
    '[options] [campaign]',
    'run a campaign: fresh model sessions per arm and scenario, recorded, scored and summarised',
    async () => (await import('./run.js')).registerRunCommand,
  ),
  lazy(
    'fixture',
    '[options] [scenario] [layout] [dest]',
    'build a fixture repository from a recipe, check it with the sanity gate, and print its fingerprint',
    async () => (await import('./fixture.js')).registerFixtureCommand,
  ),
  lazy(
    'serve-model',
    '[options]',
    'run a local Anthropic Messages API whose "model" is a scripted policy',
    async () => (await import('./serve-model.js')).registerServeModelCommand,
  ),
  lazy(
    'score',
    '[options] <results-dir>',
    'rescore every rep of a results directory from its files, then regenerate the reports',
    async () => (await import('./report-commands.js')).registerScoreCommand,
  ),
  lazy(
    'score-reply',
    '[options] <reply>',
    "score one standalone reply with a scenario's reply checks (a shorthand for check --reply)",
    async () => (await import('./score-reply.js')).registerScoreReplyCommand,
  ),
  lazy(
    'check',
    '[options] <scenario>',
    "score one session that ran elsewhere (its transcript in any format redgreen transcript reads) with a scenario's checks",
    async () => (await import('./check.js')).registerCheckCommand,
  ),
  lazy(
    'transcript',
    '[options] <file...>',
    "show what redgreen reads from a session's files (format, complete or not, models, calls per seat, dispatches, skills, reply) before scoring them",
    async () => (await import('./transcript.js')).registerTranscriptCommand,
  ),
  lazy(
    'scenario',
    '[options] [command]',
    'write and check scenarios: lint proves one offline, new scaffolds one, migrate converts the old format',
    async () => (await import('./scenario.js')).registerScenarioCommand,
  ),
  lazy(
    'campaign',
    '[options] [command]',
    'check campaign files: lint validates one and dry-runs its schedule',
    async () => (await import('./campaign.js')).registerCampaignCommand,
  ),
  lazy(
    'evals',
    '[options] [command]',
    "a skill's own evals: lint shows what each case and expectation of its evals.json becomes (run them with run --evals)",
    async () => (await import('./evals.js')).registerEvalsCommand,
  ),
  lazy(
    'judge',
    '[options] <results-dir>',
    'a second opinion on every rep from a judge model (scripted offline), stored per rep, with agreement tables',
    async () => (await import('./judge.js')).registerJudgeCommand,
  ),
  lazy(
    'adjudicate',
    '[options] <results-dir>',
    'settle each disagreement and indeterminate rep by hand, in a terminal or from a decisions file (overrides.json)',
    async () => (await import('./adjudicate.js')).registerAdjudicateCommand,
  ),
  lazy(
    'report',
    '[options] <results-dir>',
    'regenerate the reports of a results directory and print the Results table and gates',
    async () => (await import('./report-commands.js')).registerReportCommand,
  ),
  lazy(
    'gate',
    '[options] <results-dir>',
    "check a results directory against its campaign's gates: exit 0 all hold, 1 one fails, 2 undecided",
    async () => (await import('./report-commands.js')).registerGateCommand,
  ),
  lazy(
    'diff',
    '[options] <dir-a> <dir-b>',
    'compare two results directories cell by cell: pass-rate change with an exact test, tool_uses change, reps whose verdicts differ',
    async () => (await import('./diff.js')).registerDiffCommand,
  ),
  lazy(
    'list',
    '[options] [results-root]',
    'list past runs, newest first: campaign, arms, model, reps and gate outcome',
    async () => (await import('./list.js')).registerListCommand,
  ),
  lazy(
    'merge',
    '[options] <results-dirs...>',
    'combine results directories of one campaign (e.g. the shards of a CI run) into a new one',
    async () => (await import('./report-commands.js')).registerMergeCommand,
  ),
  lazy(
    'export',
    '[options]',
    'write the reps of a results directory in a format other tools read (ATIF v1.4)',
    async () => (await import('./export.js')).registerExportCommand,
  ),
  lazy(
    'doctor',
    '[options] [campaign]',
    'report what this machine can run: Node, git, the engine, the sandbox, whether a key is set (given a campaign: each model and endpoint profile)',
    async () => (await import('./doctor.js')).registerDoctorCommand,
  ),
];

/**
 * The command a command line asks for: the first argument that is not an
 * option (redgreen's own options take no values), or for `help <command>` the
 * one after it. Undefined when there is none or it is not a command.
 */
export function requestedCommand(args: readonly string[]): CommandEntry | undefined {
  const words = args.filter((arg) => !arg.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return COMMANDS.find((entry) => entry.name === name);
}
