/**
 * Score one session that ran elsewhere (`redgreen check`, and its shorthand
 * `redgreen score-reply`): read its transcript (any format score/transcripts/
 * reads, from its files or its directory), its reply (a file, else the
 * transcript's final reply) and the repository it left (optional), then
 * score them with the scenario's checks. The pre-checks are not assessed
 * (the fixture is not ours to vouch for); checks whose evidence was not given
 * (no repository: no file or git checks; a repository but no `--layout`: no
 * before-snapshot, so no check comparing before and after; no transcript: no
 * tool or dispatch checks; command outcomes are never recorded here) are
 * reported as not assessed. With `--layout`, the before-snapshot is the
 * scenario's fixture in that layout, built afresh.
 */

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fixtureFacts, recipeFixtureFields, takeSnapshot } from '../fixture/index.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { readTextInput } from '../lib/text-input.js';
import { COMMAND_JSON_VERSION } from '../report/command-json.js';
import { captureFiles } from '../run/rep-evidence.js';
import { skillDirOfPrompt } from '../scenario/prompt-skill-dir.js';
import { resolveScenarioIn, scenarioSearchDirs } from '../scenario/resolve-scenario.js';
import { filesNeeded } from '../score/evidence-needs.js';
import { resolveScenarioDir } from '../score/load-scenario.js';
import { parseReplyFile } from '../score/reply-file.js';
import { type RepInputs, type RepScore, type RunnerStatus, scoreRep } from '../score/score-rep.js';
import { type TranscriptFormat, unknownSeatsOf } from '../score/transcripts/session-transcript.js';
import { readTranscriptInputs } from '../score/transcripts/transcript-input.js';
import { beforeSnapshotFor } from './check-before.js';
import { type CheckPart, checkExtensions, installedCheckExtensions } from './check-extensions.js';

export interface CheckRequest {
  /** A scenario id (under one of `scenariosDirs`) or a scenario folder. */
  readonly scenario: string;
  /** The session's transcript: a file, `-`, a directory, or several files of one session. */
  readonly transcript?: string | readonly string[] | undefined;
  readonly reply?: string | undefined;
  readonly repo?: string | undefined;
  /** The fixture layout the session ran on; every layout's facts merged when not given. */
  readonly layout?: string | undefined;
  /** The skill directory the session was given, as its tool calls name it (default: read from its prompt). */
  readonly skillDir?: string | undefined;
  /**
   * The command asking (default `check`): `score-reply` judges only the
   * checks the reply can assess, and its errors and hints name its own inputs.
   */
  readonly command?: CheckCommand | undefined;
  /** Where an id is looked for, in order (default: scenarioSearchDirs()). */
  readonly scenariosDirs?: readonly string[] | undefined;
  /**
   * The pack flags given (`--name value`), each with the pack whose check
   * part reads it: one for a pack the scenario does not name is refused.
   */
  readonly packFlags?: readonly { readonly input: string; readonly pack: string }[] | undefined;
  /** An input a pack's flag sets (harness/cli/check-flags.ts); its pack's check part reads it. */
  readonly [packInput: string]: unknown;
}

export type CheckCommand = 'check' | 'score-reply';

export interface CheckReport {
  /** The `--json` envelope, as `gate --json` and `report --json` carry it. */
  readonly schemaVersion: typeof COMMAND_JSON_VERSION;
  readonly command: CheckCommand;
  readonly scenario: string;
  readonly sources: {
    readonly transcript: {
      /** The first file read (the one named). */
      readonly file: string;
      /** Every file read: those named, and those found beside them (subagents' logs, linked trajectories). */
      readonly files: readonly string[];
      readonly format: TranscriptFormat;
      readonly toolCalls: number;
      /** Lines of a JSON-lines transcript that could not be read (skipped, never fatal). */
      readonly malformedLines: number;
      /** The seats whose calls the files do not hold (`controller`, or a subagent's dispatch id). */
      readonly unknownSeats: readonly string[];
    } | null;
    readonly reply: 'file' | 'transcript' | null;
    readonly toolUses: number | null;
    readonly repo: string | null;
    /** The skill under test's directory, and where it was learnt; null when unknown. */
    readonly skillDir: { readonly path: string; readonly from: '--skill-dir' | 'prompt' } | null;
  };
  readonly score: RepScore;
  /** What may be wrong with the inputs, though nothing refuses them (a prompt of another scenario). */
  readonly hints: readonly string[];
  /** A field an installed pack adds (check-extensions.ts), written after `scenario`. */
  readonly [packField: string]: unknown;
}

/** The largest reply read: replies are a few KB; this leaves room for pasted logs. */
const MAX_REPLY_BYTES = 4 * 1024 * 1024;

/** Score one session's files against a scenario. */
export async function checkSession(
  request: CheckRequest,
): Promise<Result<CheckReport, InputError>> {
  if (request.transcript === undefined && request.reply === undefined) {
    return err(
      inputError(
        'check',
        'needs a transcript or a reply',
        'pass --transcript <file> and/or --reply <file>',
      ),
    );
  }
  const transcripts =
    request.transcript === undefined
      ? []
      : typeof request.transcript === 'string'
        ? [request.transcript]
        : request.transcript;
  if (transcripts.includes('-') && request.reply === '-') {
    return err(
      inputError(
        '--transcript - --reply -',
        'both read stdin',
        'read at most one of them from stdin (-); pass the other as a file',
      ),
    );
  }
  const command = request.command ?? 'check';
  const dir = resolveScenarioDir(
    request.scenario,
    request.scenariosDirs ?? scenarioSearchDirs(),
    command === 'check' ? '<scenario>' : '--scenario',
  );
  if (!dir.ok) return dir;
  const scenario = await resolveScenarioIn(dir.value);
  if (!scenario.ok) return scenario;
  const computed = recipeFixtureFields(
    scenario.value.recipe,
    scenario.value.config.fixture.scenario,
    request.layout,
  );
  if (!computed.ok) return computed;
  const packs = scenario.value.config.packs ?? [];
  const unread = (request.packFlags ?? []).find((given) => !packs.includes(given.pack));
  if (unread !== undefined) {
    return err(
      inputError(
        unread.input,
        `is read by the ${unread.pack} pack, which scenario ${scenario.value.id} does not name (its packs: ${packs.length === 0 ? 'none' : packs.join(', ')})`,
        `add "${unread.pack}" to the scenario's "packs" in its scenario.json, or leave ${unread.input.split(' ')[0]} off`,
      ),
    );
  }
  const parts: CheckPart[] = [];
  for (const extension of checkExtensions(packs)) {
    const part = extension.prepare({
      scenarioId: scenario.value.id,
      scenario: scenario.value.config,
      fixture: computed.value.fields,
      request,
    });
    if (!part.ok) return part;
    parts.push(part.value);
  }
  const facts = fixtureFacts({
    packs: scenario.value.config.packs ?? [],
    fixture: computed.value.fields,
    branch: computed.value.branch,
    variables: scenario.value.config.fixture.variables,
    scenario: scenario.value.config,
    overrides: Object.assign({}, ...parts.map((part) => part.overrides ?? {})),
  });

  let inputs: RepInputs = {};
  const hints: string[] = [];
  let transcriptSource: CheckReport['sources']['transcript'] = null;
  let replySource: CheckReport['sources']['reply'] = null;
  let toolUses: number | null = null;
  // Without a transcript nothing says the session did not finish.
  let runner: RunnerStatus = { kind: 'completed' };
  let skillDir: CheckReport['sources']['skillDir'] =
    request.skillDir === undefined
      ? null
      : { path: request.skillDir.replace(/(.)\/+$/, '$1'), from: '--skill-dir' };
  if (request.skillDir !== undefined && request.skillDir.trim() === '') {
    return err(
      inputError('--skill-dir', 'is empty', 'give the skill directory as the session saw it'),
    );
  }
  if (transcripts.length > 0) {
    const read = await readTranscriptInputs(transcripts);
    if (!read.ok) return read;
    const unknownSeats = unknownSeatsOf(read.value);
    inputs = {
      ...inputs,
      toolCalls: read.value.toolCalls,
      sessionModel: read.value.model ?? null,
      repoDir: read.value.cwd ?? null,
      transcriptPartial: read.value.malformed.length > 0,
      unknownSeats,
      questions: read.value.questions,
      turns: read.value.turns,
    };
    runner = read.value.ending;
    const sessionPrompt = read.value.prompt;
    const prompted =
      sessionPrompt === undefined
        ? undefined
        : skillDirOfPrompt(scenario.value.prompt, sessionPrompt);
    if (skillDir === null && prompted !== undefined) skillDir = { path: prompted, from: 'prompt' };
    if (sessionPrompt !== undefined) {
      for (const part of parts) {
        const hint = part.promptHint?.(sessionPrompt);
        if (hint !== undefined) hints.push(hint);
      }
    }
    transcriptSource = {
      file: read.value.files[0] ?? transcripts[0] ?? '',
      files: read.value.files,
      format: read.value.format,
      toolCalls: read.value.toolCalls.length,
      malformedLines: read.value.malformed.length,
      unknownSeats,
    };
    // A subagent's log read alone ends on the subagent's reply, not the session's final reply.
    if (read.value.reply !== undefined && read.value.controllerRecorded) {
      inputs = { ...inputs, reply: read.value.reply };
      replySource = 'transcript';
    }
  }
  if (request.reply !== undefined) {
    const text = await readTextInput(request.reply, {
      maxBytes: MAX_REPLY_BYTES,
      what: 'a reply',
      fix: 'pass a reply file (reply.md or a bare reply), or - to read it from stdin',
    });
    if (!text.ok) return text;
    const file = parseReplyFile(text.value);
    inputs = { ...inputs, reply: file.reply };
    replySource = 'file';
    toolUses = file.toolUses ?? null;
  }
  if (request.layout !== undefined && request.repo === undefined) {
    return err(
      inputError(
        '--layout',
        'is used only with --repo (it builds the fixture as the before-snapshot of that repository); alone it would be ignored',
        'add --repo <the work tree the session left>, or leave --layout off',
      ),
    );
  }
  if (request.repo !== undefined) {
    if (!existsSync(path.join(request.repo, '.git'))) {
      return err(
        inputError(
          `--repo ${request.repo}`,
          'is not a git repository (it has no .git)',
          'pass the work tree the session left, with its .git',
        ),
      );
    }
    let after: Awaited<ReturnType<typeof takeSnapshot>>;
    try {
      after = await takeSnapshot(request.repo);
    } catch (error) {
      return err(
        inputError(
          request.repo,
          `cannot be read as a repository (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
          'pass the work tree the session left',
        ),
      );
    }
    const captured = await captureFiles(
      request.repo,
      filesNeeded(scenario.value.compiled, 'post', facts),
    );
    inputs = { ...inputs, after, filesAfter: captured.files };
    if (request.layout !== undefined) {
      const before = await beforeSnapshotFor(scenario.value, request.layout, request.repo, after);
      if (!before.ok) return before;
      inputs = { ...inputs, before: before.value };
    }
  }
  const score = scoreRep({
    scenario: scenario.value.compiled,
    facts,
    inputs: { ...inputs, skillDir: skillDir?.path ?? null },
    runner,
    assessPre: false,
    judgeAssessedOnly: command === 'score-reply',
  });
  return ok({
    schemaVersion: COMMAND_JSON_VERSION,
    command,
    scenario: scenario.value.id,
    ...Object.assign({}, ...parts.map((part) => part.reportFields ?? {})),
    sources: {
      transcript: transcriptSource,
      reply: replySource,
      toolUses,
      repo: request.repo ?? null,
      skillDir,
    },
    score,
    hints,
  });
}

const MARK = { pass: 'pass', fail: 'FAIL', undecided: '  ? ' } as const;
/** Observations never gate: they say what was seen, not pass or FAIL. */
const OBSERVED = { pass: 'yes ', fail: 'no  ', undecided: '  ? ' } as const;

/** What an observation saw: a classification's label, a yes/no for a predicate. */
function observationLine(observation: RepScore['observations'][number]): string {
  if (observation.notAssessed === true) return `  n/a   ${observation.detail}`;
  if (observation.verb === 'classify') return `  seen  ${observation.detail}`;
  return `  ${OBSERVED[observation.outcome]}  ${observation.detail}`;
}

/**
 * The inputs that would let the not-assessed checks be judged, by the
 * evidence they lacked; `commands` no input can give (a command's result is
 * captured only in a redgreen run).
 */
function inputsFor(missing: ReadonlySet<string>, report: CheckReport): string[] {
  const hasRepo = report.sources.repo !== null;
  const inputs: string[] = [];
  if (missing.has('transcript')) inputs.push('--transcript <file>');
  if (missing.has('reply')) inputs.push('--reply <file>');
  if (missing.has('before'))
    inputs.push(hasRepo ? '--layout <name>' : '--repo <dir> --layout <name>');
  else if (missing.has('after') || missing.has('contents')) inputs.push('--repo <dir>');
  return inputs;
}

/** The line saying which checks were not assessed and what would assess them. */
function notAssessedLine(report: CheckReport): string {
  const { score } = report;
  const missing = new Set(
    [...score.pre, ...score.checks]
      .filter((check) => check.notAssessed === true)
      .flatMap((check) => check.missingEvidence ?? []),
  );
  const inputs = inputsFor(missing, report);
  const commandOnly = missing.has('commands')
    ? ['command checks are assessed only in a redgreen run']
    : [];
  const hint =
    report.command === 'score-reply'
      ? [
          ...(inputs.length === 0
            ? []
            : [
                `score-reply judges the reply alone; redgreen check ${report.scenario} --reply <file> ${inputs.join(' ')} assesses them`,
              ]),
          ...commandOnly,
        ]
      : [...(inputs.length === 0 ? [] : [`give ${inputs.join(' ')} for them`]), ...commandOnly];
  return `not assessed: ${score.notAssessed.join(', ')}${hint.length === 0 ? '' : ` (${hint.join('; ')})`}`;
}

/** The notes of the packs that took part on the scenario line: ` (…)`, or nothing. */
function scenarioNotes(report: CheckReport): string {
  const notes = installedCheckExtensions().flatMap(
    (extension) => extension.scenarioNote?.(report) ?? [],
  );
  return notes.length === 0 ? '' : ` (${notes.join('; ')})`;
}

/** The text `redgreen check` and `redgreen score-reply` print. */
export function formatCheckReport(report: CheckReport): string {
  const { score, sources } = report;
  const transcript =
    sources.transcript === null
      ? 'none'
      : `${sources.transcript.format}, ${sources.transcript.toolCalls} tool call(s)${sources.transcript.malformedLines === 0 ? '' : `, ${sources.transcript.malformedLines} unreadable line(s) skipped`}${sources.transcript.unknownSeats.length === 0 ? '' : `, calls not in the files given: ${sources.transcript.unknownSeats.join(', ')}`}`;
  const lines = [
    `verdict: ${score.verdict}`,
    `scenario: ${report.scenario}${scenarioNotes(report)}`,
    `evidence: transcript ${transcript}; reply ${sources.reply ?? 'none'}; repository ${sources.repo ?? 'none'}${sources.toolUses === null ? '' : `; tool_uses ${sources.toolUses}`}`,
    'values read:',
    ...Object.entries(score.values).map(
      ([section, reading]) =>
        `  ${section}: ${reading.ok ? JSON.stringify(reading.value) : `unreadable (${reading.why})`}`,
    ),
    'checks:',
    ...score.checks.map(
      (check) => `  ${check.notAssessed === true ? 'n/a ' : MARK[check.outcome]}  ${check.detail}`,
    ),
    ...(score.observations.length === 0
      ? []
      : ['observations (never gate):', ...score.observations.map(observationLine)]),
    'reasons:',
    ...score.reasons.map((reason) => `  - ${reason}`),
    ...(score.notAssessed.length === 0 ? [] : [notAssessedLine(report)]),
    ...report.hints.map((hint) => `hint: ${hint}`),
  ];
  return `${lines.join('\n')}\n`;
}
