/**
 * Offline brains that pick a skill by its description, as a model with a
 * skills library installed is asked to (the triggering scenarios):
 *
 * - `skill-trigger`: reads the installed skills' names and descriptions from
 *   what the client sent (the engine's listing: `The following skills are
 *   available for use with the Skill tool:` then `- <name>: <description>`
 *   lines, in the system prompt or a `system` message), scores each against
 *   the user's request by word overlap (lower-cased words of three letters
 *   or more, a few common words and endings set aside: the number of
 *   distinct words both share; ties broken by name; fewer than
 *   MIN_OVERLAP shared words triggers nothing), invokes the best through the
 *   Skill tool, then acts on the plain imperative lines of the text it loads
 *   (skillPlan below). A request that names a source file (`src/x.js` in
 *   backticks) is a feature to implement; any other is a question it answers
 *   from the README.
 * - calibration twins: `never-invokes` (never calls the Skill tool),
 *   `invokes-wrong-skill` (invokes the runner-up, or the first other skill
 *   by name), `invokes-late` (writes the implementation, then invokes the
 *   best skill, then follows it).
 *
 * Without a loaded text a brain implements first and writes its test after,
 * or, when the request asks to skip the tests, writes none. It writes with
 * the Write tool when offered, else with a Bash here-document, and runs
 * `node --test` after writing a test. Everything is read from the
 * conversation, so the program is a pure function of it (program.ts).
 */
import type { ConversationText } from '../../../harness/model-server/conversation-text.js';
import { userRequest, workingDirectory } from '../../../harness/model-server/conversation-text.js';
import type { ScriptedPolicy } from '../../../harness/model-server/policies/policy.js';
import {
  call,
  type PolicyProgram,
  type SubProgram,
  type ToolCall,
} from '../../../harness/model-server/policies/program.js';
import { bash, fileText, read, shellQuote } from '../../../harness/model-server/policies/tools.js';

export const TRIGGER_POLICIES = [
  'skill-trigger',
  'never-invokes',
  'invokes-wrong-skill',
  'invokes-late',
] as const;
export type TriggerPolicyName = (typeof TRIGGER_POLICIES)[number];

const SUMMARIES: Readonly<Record<TriggerPolicyName, string>> = {
  'skill-trigger':
    'picks the installed skill whose description best matches the request (word overlap), invokes it, follows its imperative lines',
  'never-invokes': 'calibration: implements without ever invoking a skill',
  'invokes-wrong-skill': 'calibration: invokes the runner-up skill instead of the best match',
  'invokes-late': 'calibration: writes the implementation, then invokes the best-matching skill',
};

function triggerPolicy(name: TriggerPolicyName): ScriptedPolicy {
  return {
    name,
    summary: SUMMARIES[name],
    program: (request) =>
      triggerProgram(name, request.label, request.conversation, request.offeredTools),
  };
}

export const triggerPolicies: readonly ScriptedPolicy[] = TRIGGER_POLICIES.map(triggerPolicy);

/** A skill as the listing names it. */
export interface ListedSkill {
  readonly name: string;
  readonly description: string;
}

const LISTING_HEADER = 'The following skills are available for use with the Skill tool:';
const LOADED_HEADER = 'Base directory for this skill:';

/** The skills a listing in `text` names, in its order. */
export function listedSkills(text: string): ListedSkill[] {
  const at = text.indexOf(LISTING_HEADER);
  if (at < 0) return [];
  const skills: ListedSkill[] = [];
  for (const line of text
    .slice(at + LISTING_HEADER.length)
    .split('\n')
    .slice(1)) {
    if (line.trim() === '' && skills.length === 0) continue;
    const found = /^- (\S+?): (.*)$/.exec(line);
    if (found === null) break;
    skills.push({ name: found[1] ?? '', description: found[2] ?? '' });
  }
  return skills;
}

const STOPWORDS = new Set(
  'the and for use when with any this that before after you your are not all from into only also its has have can will was were been being what which who how does did done then than them they their there here about over under very just more most some such each other our out off onto per via'.split(
    ' ',
  ),
);

/** The distinct content words of a text, endings set aside (`adding` → `add`, `tests` → `test`). */
export function contentWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const raw of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    if (raw.length < 3 || STOPWORDS.has(raw)) continue;
    const stem = raw.replace(/(?:ing|ed|es|s)$/, '');
    const word = stem.length >= 3 ? stem : raw;
    if (!STOPWORDS.has(word)) words.add(word);
  }
  return words;
}

/** Fewer shared words than this triggers no skill. */
export const MIN_OVERLAP = 2;

/** The skills by how many words their description shares with the request; ties by name. */
export function rankSkills(
  skills: readonly ListedSkill[],
  request: string,
): { readonly skill: ListedSkill; readonly score: number }[] {
  const asked = contentWords(request);
  return skills
    .map((skill) => ({
      skill,
      score: [...contentWords(skill.description)].filter((word) => asked.has(word)).length,
    }))
    .sort((a, b) => b.score - a.score || (a.skill.name < b.skill.name ? -1 : 1));
}

/** The feature a request asks for: the source file it names in backticks, and a function name. */
function featureOf(request: string): { impl: string; test: string; name: string } | undefined {
  const impl = [...request.matchAll(/`([\w./-]+\.(?:js|mjs|ts))`/g)].map((found) => found[1])[0];
  if (impl === undefined) return undefined;
  const base = (impl.split('/').pop() ?? impl).replace(/\.\w+$/, '');
  const name = /`([A-Za-z_]\w*)\(/.exec(request)?.[1] ?? base.replace(/\W/g, '');
  return { impl, test: `test/${base}.test.js`, name };
}

const PRESSURE =
  /\b(?:skip (?:the )?tests?|tests? (?:can wait|later)|no time for tests?|without tests?)\b/i;

/** What the plain imperative lines of a loaded skill tell a brain to do. */
export interface SkillPlan {
  /** Write the failing test before the implementation. */
  readonly testsFirst: boolean;
  /** Keep to the skill's order even when the user asks to skip or postpone tests. */
  readonly holdsUnderPressure: boolean;
  /** Write no code yet: ask the user first. */
  readonly askFirst: boolean;
}

export function skillPlan(text: string | undefined): SkillPlan {
  const lines = (text ?? '').split('\n');
  const any = (pattern: RegExp): boolean => lines.some((line) => pattern.test(line));
  return {
    testsFirst: any(/\b(?:write|add)\b[^.\n]*\btests?\b[^.\n]*\b(?:first|before)\b/i),
    holdsUnderPressure: any(/\b(?:even|also)\s+(?:if|when)\b[^.\n]*\b(?:skip|later|hurry|rush)/i),
    askFirst: any(/\b(?:do not|don't|never)\s+(?:write|implement)\b[^.\n]*\b(?:code|anything)\b/i),
  };
}

/** The text the engine loaded for the last skill invoked (the `Base directory …` block), if any. */
export function loadedText(conversation: ConversationText): string | undefined {
  const blocks = conversation.userMessages
    .flat()
    .filter((block) => block.startsWith(LOADED_HEADER));
  return blocks.at(-1);
}

export function writeCall(
  offered: ReadonlySet<string>,
  repo: string,
  file: string,
  content: string,
): ToolCall {
  if (offered.has('Write')) {
    return { name: 'Write', input: { file_path: `${repo}/${file}`, content } };
  }
  const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.';
  return bash(
    `cd ${shellQuote(repo)} && mkdir -p ${shellQuote(dir)} && cat > ${shellQuote(file)} <<'EOF'\n${content}EOF`,
    `Write ${file}`,
  );
}

function implementation(name: string): string {
  return `export function ${name}(text) {\n  return String(text).trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');\n}\n`;
}

function testFile(name: string, impl: string): string {
  return `import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { ${name} } from '../${impl}';\n\ntest('${name} makes a slug', () => {\n  assert.equal(${name}('Hello World'), 'hello-world');\n});\n`;
}

function* triggerProgram(
  policy: TriggerPolicyName,
  label: string,
  conversation: ConversationText,
  offered: ReadonlySet<string>,
): PolicyProgram {
  const repo = workingDirectory(conversation.system);
  const request = userRequest(conversation);
  if (repo === undefined) {
    return `${label} found no working directory in what it was sent; no tools were run.`;
  }
  const listed = listedSkills(
    [conversation.system, ...conversation.userMessages.flat()].join('\n\n'),
  );
  const ranked = rankSkills(listed, request);
  const best =
    ranked[0] !== undefined && ranked[0].score >= MIN_OVERLAP ? ranked[0].skill : undefined;
  const invoked =
    policy === 'never-invokes' || !offered.has('Skill')
      ? undefined
      : policy === 'invokes-wrong-skill'
        ? ranked.find((entry) => entry.skill.name !== best?.name)?.skill
        : best;
  const feature = featureOf(request);
  const pressure = PRESSURE.test(request);

  if (policy === 'invokes-late' && feature !== undefined) {
    yield* call(writeCall(offered, repo, feature.impl, implementation(feature.name)));
    const plan = yield* invokeSkill(invoked, conversation);
    if (!pressure || plan.holdsUnderPressure) {
      yield* call(writeCall(offered, repo, feature.test, testFile(feature.name, feature.impl)));
      yield* call(bash(`cd ${shellQuote(repo)} && node --test`, 'Run the tests'));
    }
    return `Added \`${feature.impl}\`${!pressure || plan.holdsUnderPressure ? ` and \`${feature.test}\`` : ''}.`;
  }
  const plan = yield* invokeSkill(invoked, conversation);
  if (feature === undefined) {
    const readme = yield* call(read(`${repo}/README.md`));
    const text = fileText(readme);
    const licence =
      /\b([A-Z][A-Za-z0-9.-]+) licen[cs]e\b/.exec(text) ??
      /\blicen[cs]ed? (?:under )?(?:the )?([A-Z][A-Za-z0-9.-]+)/.exec(text);
    return licence?.[1] ?? 'The README does not say.';
  }
  if (plan.askFirst) {
    return `Before I write any code: what should \`${feature.name}\` do with input it cannot handle?`;
  }
  const testsFirst = plan.testsFirst && (!pressure || plan.holdsUnderPressure);
  const writesTest = testsFirst || !pressure;
  const steps = testsFirst ? ['test', 'impl'] : writesTest ? ['impl', 'test'] : ['impl'];
  for (const step of steps) {
    yield* call(
      step === 'impl'
        ? writeCall(offered, repo, feature.impl, implementation(feature.name))
        : writeCall(offered, repo, feature.test, testFile(feature.name, feature.impl)),
    );
  }
  if (writesTest) yield* call(bash(`cd ${shellQuote(repo)} && node --test`, 'Run the tests'));
  return `Added \`${feature.impl}\`${writesTest ? ` and \`${feature.test}\`` : ''}.`;
}

/** Invoke a skill through the Skill tool and read what its loaded text says to do. */
function* invokeSkill(
  invoked: ListedSkill | undefined,
  conversation: ConversationText,
): SubProgram<SkillPlan> {
  if (invoked === undefined) return skillPlan(undefined);
  yield* call({ name: 'Skill', input: { skill: invoked.name } });
  return skillPlan(loadedText(conversation));
}
