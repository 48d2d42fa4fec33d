/**
 * The skill directory a session was told to follow, read back from the
 * prompt it was given: the scenario's template is rendered with markers in
 * place of the session's paths, and the prompt is matched against it, so the
 * words around `{{skillDir}}` are the template's own and nothing here knows
 * any prompt's wording. Used by scoring (skill-read counts only reads of this
 * skill) for reps run here (their prompt.md) and sessions run elsewhere
 * (the transcript's first user message).
 */
import { escapeRegExp } from '../lib/escape-reg-exp.js';
import type { PromptTemplate } from './prompt-template.js';

const SKILL_MARK = 'RGSKILLDIRMARK7f3a';
const REPO_MARK = 'RGFIXTUREREPOMARK7f3a';

/** The skill directory `prompt` names where the template puts `{{skillDir}}`; undefined when it does not fit. */
export function skillDirOfPrompt(template: PromptTemplate, prompt: string): string | undefined {
  const rendered = template.render({ skillDir: SKILL_MARK, fixtureRepo: REPO_MARK });
  const pieces = rendered.split(new RegExp(`(${SKILL_MARK}|${REPO_MARK})`));
  const source = pieces
    .map((piece) =>
      piece === SKILL_MARK
        ? '(\\S(?:[^\\n]*?\\S)?)'
        : piece === REPO_MARK
          ? '\\S(?:[^\\n]*?\\S)?'
          : escapeRegExp(piece).replace(/\s+/g, '\\s+'),
    )
    .join('');
  const found = new RegExp(`^\\s*${source}\\s*$`).exec(prompt);
  return found?.[1];
}
