/**
 * Loading a policy file (`policies/<name>.yaml` or `.json`): parsed, checked
 * against the schema and for what can be known before it runs
 * (data-policy/check-policy.ts), and, for a replay, its recorded transcript read (any
 * format the transcript readers know) with the prompt recorded beside it.
 * Every problem is an InputError naming the file and the field, so a policy
 * that cannot run is refused at load, never mistaken for one that fails.
 * The only file I/O of a data brain happens here.
 */
import { existsSync, readdirSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { readTextInput } from '../lib/text-input.js';
import { parseYamlData } from '../lib/yaml-data.js';
import { inputErrorFromZod } from '../lib/zod-input-error.js';
import { readTranscriptInputs } from '../score/transcripts/transcript-input.js';
import type { Brain } from './brain.js';
import { checkPolicyFile } from './data-policy/check-policy.js';
import { type PolicyFile, policyFileSchema } from './data-policy/policy-schema.js';
import { type Recording, recordingOf } from './replay/recording.js';

/** A policy file is a page of steps; anything this large is something else. */
const MAX_POLICY_BYTES = 1024 * 1024;

/** The file names a policy may have, in the order they are looked for. */
export const POLICY_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

/**
 * The policy files in these folders, in the folders' order and by file name
 * within each (a folder that does not exist holds none): each file's policy
 * name is its name without the extension. A name found twice is listed each
 * time; which one wins, and what a built-in policy's name means, is the
 * caller's rule.
 */
export function policyFilesIn(
  dirs: Iterable<string>,
): { readonly name: string; readonly file: string }[] {
  const found: { name: string; file: string }[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir).sort()) {
      const extension = POLICY_EXTENSIONS.find((candidate) => entry.endsWith(candidate));
      if (extension === undefined) continue;
      found.push({ name: entry.slice(0, -extension.length), file: path.join(dir, entry) });
    }
  }
  return found;
}

export interface LoadedPolicy {
  readonly name: string;
  /** The policy file's path. */
  readonly file: string;
  readonly spec: PolicyFile;
  readonly brain: Brain;
  /** For a replay: the recording it answers with. */
  readonly recording?: Recording | undefined;
}

export async function loadPolicyFile(
  file: string,
  name: string,
): Promise<Result<LoadedPolicy, InputError>> {
  const text = await readTextInput(file, {
    maxBytes: MAX_POLICY_BYTES,
    what: 'a policy file',
    fix: 'give the path of a policy file (YAML or JSON)',
  });
  if (!text.ok) return text;
  const data = parseYamlData(text.value);
  if (!data.ok) {
    return data.error.field === ''
      ? err(inputError(file, `is not valid YAML or JSON (${data.error.problem})`, 'fix its syntax'))
      : err(
          inputError(
            `${file}: ${data.error.field}`,
            data.error.problem,
            'write the steps out, or alias a node outside the one that names it',
          ),
        );
  }
  const raw = data.value;
  const parsed = policyFileSchema.safeParse(raw);
  if (!parsed.success) {
    // A step's kind is read from the key it holds; the user never wrote a `kind` field.
    for (const issue of parsed.error.issues) {
      if (issue.path.at(-1) === 'kind') issue.path.pop();
    }
    return err(inputErrorFromZod(file, parsed.error));
  }
  const spec = parsed.data;
  const [problem] = checkPolicyFile(spec);
  if (problem !== undefined) {
    return err(inputError(`${file}: ${problem.field}`, problem.problem, problem.fix));
  }
  if (spec.replay === undefined) {
    return ok({ name, file, spec, brain: { kind: 'policy-file', name, file: spec } });
  }
  const dir = path.dirname(file);
  const replayed = await besidePolicy(dir, spec.replay);
  if (replayed === undefined) return err(outsideScenario(file, 'replay', spec.replay));
  const transcript = await readTranscriptInputs([replayed]);
  if (!transcript.ok) {
    return err(
      inputError(
        `${file}: replay`,
        `${transcript.error.input}: ${transcript.error.problem}`,
        transcript.error.fix,
      ),
    );
  }
  let prompt: string | undefined;
  if (spec.prompt !== undefined) {
    const promptFile = await besidePolicy(dir, spec.prompt);
    if (promptFile === undefined) return err(outsideScenario(file, 'prompt', spec.prompt));
    const read = await readTextInput(promptFile, {
      maxBytes: MAX_POLICY_BYTES,
      what: 'a recorded prompt',
      fix: 'name the recorded prompt file beside the policy, or drop prompt',
    });
    if (!read.ok) {
      return err(
        inputError(`${file}: prompt`, `${spec.prompt} ${read.error.problem}`, read.error.fix),
      );
    }
    prompt = read.value;
  }
  const recording = recordingOf(transcript.value, spec.replay, prompt);
  return ok({
    name,
    file,
    spec,
    recording,
    brain: { kind: 'replay', name, recordingFor: () => recording },
  });
}

/**
 * A file a policy names (its recorded transcript or prompt), resolved inside
 * the policy's scenario folder, symlinks followed: a scenario may come with a
 * change under review, so its policies read nothing of the machine outside
 * it. A file that does not exist resolves to itself (the reader says so).
 */
async function besidePolicy(dir: string, relative: string): Promise<string | undefined> {
  if (path.isAbsolute(relative)) return undefined;
  const policiesDir = await realpath(dir);
  const scenarioDir = path.dirname(policiesDir);
  const resolved = path.resolve(policiesDir, relative);
  const real = await realpath(resolved).catch(() => resolved);
  return real.startsWith(`${scenarioDir}${path.sep}`) ? real : undefined;
}

function outsideScenario(file: string, field: string, given: string): InputError {
  return inputError(
    `${file}: ${field}`,
    `${given} is not inside the scenario's folder`,
    `keep the recorded files in the scenario's ${path.basename(path.dirname(file))}/ folder and name them relative to the policy`,
  );
}
