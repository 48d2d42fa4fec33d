/**
 * `redgreen export --atif`: every recorded rep of a results directory as an
 * ATIF v1.4 trajectory file, `<out>/<arm>/<scenario>-rep<N>.json` (default
 * out: `<results-dir>/atif`), each subagent seat of a full session as its
 * own trajectory in `<out>/<arm>/<scenario>-rep<N>/<agent-id>.json`
 * (subagent-trajectory.ts), plus `<out>/index.json` listing them.
 *
 * Everything is read, built and checked before anything is written, so bad
 * input writes nothing; each file is written atomically, the index last.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { readRegularText } from '../lib/contained-file.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { harnessVersion } from '../lib/package-root.js';
import { err, ok, type Result } from '../lib/result.js';
import { loadResults, type RecordedRep } from '../report/load-results.js';
import { REP_FILES } from '../results/results-layout.js';
import { type AtifTrajectory, atifTrajectorySchema } from './atif-document.js';
import {
  ATIF_INDEX_FILE,
  type AtifIndex,
  type AtifIndexEntry,
  atifIndexSchema,
} from './atif-index.js';
import { atifInvariantProblems, subagentLinkProblems } from './atif-invariants.js';
import { type AtifDocuments, buildAtifDocuments } from './build-trajectory.js';

export interface AtifExportOptions {
  /** Where to write; default `<results-dir>/atif`. */
  readonly outDir?: string;
}

export interface AtifExportSummary {
  readonly outDir: string;
  readonly indexFile: string;
  readonly index: AtifIndex;
}

async function readRepFile(rep: RecordedRep, name: string): Promise<Result<string, InputError>> {
  const file = path.join(rep.dir, name);
  try {
    return ok(await readRegularText(file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return err(
      inputError(
        file,
        code === 'ENOENT' ? 'is missing' : `cannot be read (${code ?? String(error)})`,
        'rerun the rep (`redgreen run --resume`), or export a complete results directory',
      ),
    );
  }
}

/**
 * The output directory must not exist yet, or be an empty directory: an
 * export never writes into (or over) files a user already has, even inside
 * the results directory. `flag` names it as the user gave it.
 */
function checkOutDir(outDir: string, flag: string | undefined): InputError | undefined {
  if (!existsSync(outDir)) return undefined;
  if (!statSync(outDir).isDirectory()) {
    return flag === undefined
      ? inputError(outDir, 'exists and is not a directory', 'move it away, or pass --out <dir>')
      : inputError(flag, `${outDir} exists and is not a directory`, 'pass a directory path');
  }
  if (readdirSync(outDir).length > 0) {
    return flag === undefined
      ? inputError(
          outDir,
          'already exists and is not empty (an earlier export?)',
          'move or delete it, or pass --out <new-dir>',
        )
      : inputError(
          flag,
          `${outDir} already exists and is not empty`,
          'pass a new or empty directory',
        );
  }
  return undefined;
}

/** Validate the documents we built; a failure is a bug in the exporter, not bad input. */
function assertValidTrajectories(documents: AtifDocuments, repId: string): void {
  const problems: string[] = [];
  for (const [where, trajectory] of [
    ['', documents.main] as const,
    ...documents.subagents.map((sub) => [`${sub.path}: `, sub.trajectory] as const),
  ]) {
    const parsed = atifTrajectorySchema.safeParse(trajectory);
    problems.push(
      ...(parsed.success
        ? atifInvariantProblems(trajectory)
        : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      ).map((problem) => `${where}${problem}`),
    );
  }
  problems.push(
    ...subagentLinkProblems(
      documents.main,
      new Map(documents.subagents.map((sub) => [sub.path, sub.trajectory])),
    ),
  );
  if (problems.length > 0) {
    throw new Error(`ATIF export of ${repId} is not valid ATIF: ${problems.join('; ')}`);
  }
}

function toolCallCount(trajectory: AtifTrajectory): number {
  return trajectory.steps.reduce((sum, step) => sum + (step.tool_calls?.length ?? 0), 0);
}

export async function exportAtif(
  resultsDir: string,
  options: AtifExportOptions = {},
): Promise<Result<AtifExportSummary, InputError>> {
  const loaded = await loadResults(resultsDir);
  if (!loaded.ok) return loaded;
  const { layout, record, reps, missing, overrides } = loaded.value;
  const outDir = path.resolve(options.outDir ?? path.join(layout.root, 'atif'));
  const outProblem = checkOutDir(outDir, options.outDir === undefined ? undefined : '--out');
  if (outProblem !== undefined) return err(outProblem);

  const built: { file: string; trajectory: AtifTrajectory; entry?: AtifIndexEntry }[] = [];
  for (const rep of reps) {
    const prompt = await readRepFile(rep, REP_FILES.prompt);
    if (!prompt.ok) return prompt;
    const transcript = await readRepFile(rep, REP_FILES.transcript);
    if (!transcript.ok) return transcript;
    const documents = buildAtifDocuments({
      record,
      rep,
      override: overrides[rep.id],
      prompt: prompt.value,
      transcript: transcript.value,
    });
    assertValidTrajectories(documents, rep.id);
    const trajectory = documents.main;
    // In a campaign of several models, each model's trajectories go in a directory of their own.
    const model = rep.meta.model.name === undefined ? '' : `${rep.meta.model.name}/`;
    const relative = `${model}${rep.meta.arm}/${rep.meta.scenario}-rep${rep.meta.rep}.json`;
    const file = path.resolve(outDir, relative);
    if (path.relative(outDir, file).startsWith('..')) {
      throw new Error(`rep ${rep.id} maps outside the export directory: ${file}`);
    }
    const subagents = documents.subagents.map((sub) => {
      const subRelative = `${path.posix.dirname(relative)}/${sub.path}`;
      const subFile = path.resolve(outDir, subRelative);
      if (path.relative(outDir, subFile).startsWith('..')) {
        throw new Error(
          `a subagent of rep ${rep.id} maps outside the export directory: ${subFile}`,
        );
      }
      built.push({ file: subFile, trajectory: sub.trajectory });
      const seat = sub.trajectory.extra?.seat as
        | { agent_id: string | null; description: string | null }
        | undefined;
      return {
        file: subRelative,
        session_id: sub.trajectory.session_id,
        agent_id: seat?.agent_id ?? null,
        description: seat?.description ?? null,
        steps: sub.trajectory.steps.length,
        tool_calls: toolCallCount(sub.trajectory),
      };
    });
    built.push({
      file,
      trajectory,
      entry: {
        file: relative,
        rep_id: rep.id,
        arm: rep.meta.arm,
        scenario: rep.meta.scenario,
        rep: rep.meta.rep,
        attempt: rep.meta.attempt,
        session_id: trajectory.session_id,
        verdict: overrides[rep.id]?.verdict ?? rep.score.verdict,
        steps: trajectory.steps.length,
        tool_calls: toolCallCount(trajectory),
        ...(subagents.length === 0 ? {} : { subagents }),
      },
    });
  }

  const index = atifIndexSchema.parse({
    schema_version: 'ATIF-v1.4',
    generated_by: `redgreen ${harnessVersion()}`,
    campaign: { id: record.campaign.id, title: record.campaign.title, identity: record.identity },
    results_dir: path.relative(outDir, layout.root).split(path.sep).join('/') || '.',
    trajectories: built.flatMap((item) => (item.entry === undefined ? [] : [item.entry])),
    missing: [...missing],
  } satisfies AtifIndex);

  await mkdir(outDir, { recursive: true });
  for (const item of built) {
    await mkdir(path.dirname(item.file), { recursive: true });
    await writeFileAtomic(item.file, `${JSON.stringify(item.trajectory, null, 2)}\n`);
  }
  const indexFile = path.join(outDir, ATIF_INDEX_FILE);
  await writeFileAtomic(indexFile, `${JSON.stringify(index, null, 2)}\n`);
  return ok({ outDir, indexFile, index });
}
