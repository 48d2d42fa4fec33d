import path from 'node:path';

/**
 * Where everything of one campaign run lives under `results/<run>/`. The
 * only module that knows these names; every writer and reader goes through it.
 */
export interface ResultsLayout {
  readonly root: string;
  readonly campaignFile: string;
  readonly journalFile: string;
  readonly skillsDir: string;
  readonly repsDir: string;
  readonly resultsMarkdown: string;
  readonly resultsCsv: string;
  /** Tool calls by seat, one row per full-session rep and seat group (written only when there are some). */
  readonly seatsCsv: string;
  readonly resultsJson: string;
  readonly reportHtml: string;
  readonly overridesFile: string;
  /** A campaign redgreen generated for this run from a skill's own evals (`run --evals`), when it has one. */
  readonly evalsDir: string;
  /** skill-creator's benchmark.json of an evals run (beside redgreen's own tables). */
  readonly benchmarkJson: string;
  /** The evals tables (expectations by arm, trigger figures), written for an evals run. */
  readonly evalsMarkdown: string;
  skillDir(arm: string): string;
  /**
   * Where one attempt of a rep lives: attempt 1 in `<scenario>-rep<N>`, a
   * retry k in `<scenario>-rep<N>.attempt<k>`, under `reps/<arm>/`, or under
   * `reps/<model>/<arm>/` in a campaign of several models (`model` given).
   * Directories are never renamed once landed; the journal says which attempt
   * is the rep's newest.
   */
  attemptDir(
    arm: string,
    scenario: string,
    rep: number,
    attempt: number,
    model?: string | null,
  ): string;
}

/** The folder of a results directory that holds the campaign generated from a skill's evals. */
export const EVALS_DIR = 'evals';

export function resultsLayout(root: string): ResultsLayout {
  const abs = path.resolve(root);
  const reps = path.join(abs, 'reps');
  return {
    root: abs,
    campaignFile: path.join(abs, 'campaign.json'),
    journalFile: path.join(abs, 'ledger.jsonl'),
    skillsDir: path.join(abs, 'skills'),
    repsDir: reps,
    resultsMarkdown: path.join(abs, 'results.md'),
    resultsCsv: path.join(abs, 'results.csv'),
    seatsCsv: path.join(abs, 'seats.csv'),
    resultsJson: path.join(abs, 'results.json'),
    reportHtml: path.join(abs, 'report.html'),
    overridesFile: path.join(abs, 'overrides.json'),
    evalsDir: path.join(abs, EVALS_DIR),
    benchmarkJson: path.join(abs, 'benchmark.json'),
    evalsMarkdown: path.join(abs, 'evals.md'),
    skillDir: (arm) => path.join(abs, 'skills', arm),
    attemptDir: (arm, scenario, rep, attempt, model = null) =>
      path.join(
        reps,
        ...(model === null ? [] : [model]),
        arm,
        `${scenario}-rep${rep}${attempt === 1 ? '' : `.attempt${attempt}`}`,
      ),
  };
}

/** Files inside one rep's directory. */
export const REP_FILES = {
  reply: 'reply.md',
  transcript: 'transcript.jsonl',
  meta: 'meta.json',
  score: 'score.json',
  prompt: 'prompt.md',
  snapshotBefore: 'snapshot-before.json',
  snapshotAfter: 'snapshot-after.json',
  engineLog: 'engine.log',
  /** Text of the files the pre-checks read, and of those the session modified or removed, from the fixture before the session. */
  filesBefore: 'files-before.json',
  /** Text of every file the session added or modified, and of the files the checks read. */
  filesAfter: 'files-after.json',
  /** Outcomes of the command-succeeds commands run at rep time. */
  commands: 'commands.json',
} as const;
