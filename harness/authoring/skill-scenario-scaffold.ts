/**
 * `redgreen scenario new <id> --skill <dir>`: a working scenario for any one
 * skill, to edit into the one you mean. No pack: the `textkit` fixture (a
 * small Node project), a prompt that points the session at the skill and
 * asks for a short note, post checks on what tools did (the skill was read,
 * the note was written, the code was left alone), and a calibration of two
 * policy files in its `policies/`: `follows-skill` reads the skill and
 * writes the note (must pass), `skips-skill` writes it without reading
 * (must fail, on `read-the-skill`). `redgreen scenario lint` passes on it as
 * written, on either backend; every construct of the policy language the
 * README teaches has an example in it. Nothing is overwritten.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { POLICIES_DIR } from '../scenario/scenario-policies.js';
import { schemaPathFrom, writeScenarioFolder } from './scenario-scaffold.js';

interface SkillFacts {
  readonly name: string;
  readonly description: string;
}

async function skillFacts(skillDir: string): Promise<Result<SkillFacts, InputError>> {
  let text: string;
  try {
    text = await readFile(path.join(skillDir, 'SKILL.md'), 'utf8');
  } catch {
    return err(
      inputError(
        '--skill',
        `${skillDir} holds no SKILL.md`,
        "give a skill's folder (the one holding its SKILL.md)",
      ),
    );
  }
  const front = /^---\s*\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
  const field = (key: string): string | undefined =>
    new RegExp(`^${key}:\\s*["']?(.+?)["']?\\s*$`, 'm').exec(front)?.[1];
  return ok({
    name: field('name') ?? path.basename(skillDir),
    description: field('description') ?? '',
  });
}

function scenarioFile(
  id: string,
  skill: SkillFacts,
  skillPath: string,
  schema: string,
): Record<string, unknown> {
  return {
    $schema: schema,
    id,
    title: `${id}: a session given the ${skill.name} skill reads it before it acts`,
    description: `Scaffolded by \`redgreen scenario new --skill\` for ${skill.name}${skill.description === '' ? '' : ` (${skill.description})`}. Edit the prompt, the checks and the two policies in policies/ to say what the skill should make a session do, then run \`redgreen scenario lint\`.`,
    fixture: { recipe: 'textkit', scenario: 'start' },
    prompt: { template: 'prompt.hbs', variables: {} },
    stop: 'report',
    checks: {
      pre: [{ id: 'project-present', verb: 'file-exists', path: 'package.json' }],
      post: [
        {
          id: 'read-the-skill',
          verb: 'skill-read',
          seat: 'controller',
          why: 'the session was pointed at the skill: it reads SKILL.md before it acts',
        },
        { id: 'notes-written', verb: 'file-exists', path: 'NOTES.md' },
        {
          id: 'code-untouched',
          verb: 'files-matching',
          globs: ['src/**', 'test/**'],
          among: 'changed',
          max: 0,
          why: 'the request asks for a note, not for code',
        },
      ],
    },
    observe: [{ id: 'no-new-commits', verb: 'git-head-unchanged' }],
    calibration: {
      mustPass: [
        {
          policy: 'follows-skill',
          skill: skillPath,
          layout: 'default',
          why: 'reads SKILL.md, then writes the note',
        },
      ],
      mustFail: [
        {
          policy: 'skips-skill',
          skill: skillPath,
          layout: 'default',
          failing: ['read-the-skill'],
          why: 'writes the note without reading the skill',
        },
      ],
    },
  };
}

const PROMPT = `Use the skill whose complete text is at {{skillDir}} for this work: read its SKILL.md first.

What to do: look around this repository and write, in NOTES.md at its top, a few lines on how you would apply the skill here. Do not change any code. Then reply with one line saying what you wrote.
`;

const FOLLOWS = `# The must-pass calibration: what a session that follows the skill does,
# written as data. Edit it to do what your skill asks for. The README's
# "Calibration as data: policy files" section describes every step kind.
summary: reads the skill, looks at the repository, writes NOTES.md

steps:
  # A value from what the session was sent: the skill's folder, as the prompt's first
  # line names it (change this pattern with that line).
  - capture: skill-dir
    from: prompt
    pattern: 'complete text is at\\s+(\\S+?)\\s+for'

  # A tool call; its result is the value "skill-file" (a Read gives the file's text).
  - tool: Read
    input: { file_path: '{{skill-dir}}/SKILL.md' }
    id: skill-file

  - branch:
      # A call that failed: stop with a reply (every path ends with one).
      - when: { failed: skill-file }
        steps:
          - reply: Could not read the skill at {{skill-dir}}.

  # The first heading of the skill's text, from the result above.
  - capture: title
    from: skill-file
    pattern: '^#\\s+(.+)$'
    default: the skill

  - tool: Bash
    input:
      command: git ls-files
      description: See what the repository holds
    id: files

  - tool: Bash
    input:
      description: Write the notes
      command: |
        cat > NOTES.md <<'NOTES'
        # Notes

        Following {{title}} in a repository of {{count (lines files)}} files.
        NOTES

  - reply: Wrote NOTES.md on applying {{title}} here.
`;

const SKIPS = `# The must-fail calibration: the note is written without reading the
# skill, so read-the-skill fails.
summary: writes NOTES.md without reading the skill

steps:
  - tool: Bash
    input:
      description: Write the notes
      command: printf '# Notes\\n\\nNothing to apply.\\n' > NOTES.md
  - reply: Wrote NOTES.md.
`;

/** Write `<scenariosDir>/<id>/` for the skill in `skillDir`; refuses an existing folder. */
export function scaffoldSkillScenario(
  id: string,
  scenariosDir: string,
  skillDir: string,
): Promise<Result<{ dir: string }, InputError>> {
  return writeScenarioFolder(id, scenariosDir, async (dir) => {
    const skill = await skillFacts(path.resolve(skillDir));
    if (!skill.ok) return skill;
    const skillPath = path.relative(dir, path.resolve(skillDir)).split(path.sep).join('/');
    return ok({
      'scenario.json': `${JSON.stringify(scenarioFile(id, skill.value, skillPath, schemaPathFrom(dir)), null, 2)}\n`,
      'prompt.hbs': PROMPT,
      [`${POLICIES_DIR}/follows-skill.yaml`]: FOLLOWS,
      [`${POLICIES_DIR}/skips-skill.yaml`]: SKIPS,
    });
  });
}
