import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Handlebars from 'handlebars';
import { didYouMean } from '../lib/did-you-mean.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { packageRoot } from '../lib/package-root.js';
import { err, ok, type Result } from '../lib/result.js';

/** The variables every session prompt is rendered with. */
export interface PromptVariables {
  /** Absolute path of the read-only skill copy the session is told to follow. */
  readonly skillDir: string;
  /** Absolute path of the session's fixture repository. */
  readonly fixtureRepo: string;
  /** The session's own plan, relative to the fixture repository. */
  readonly planPath: string;
}

export const promptVariableNames: readonly (keyof PromptVariables)[] = [
  'skillDir',
  'fixtureRepo',
  'planPath',
];

export interface PromptTemplate {
  readonly path: string;
  readonly source: string;
  /** The session's variables plus the scenario's own prompt variables. */
  render(variables: PromptVariables): string;
}

/**
 * Variable names a parsed template reads: every path expression, except the
 * names of helpers (`{{#if x}}` reads `x`, not `if`).
 */
function referencedNames(program: hbs.AST.Program): Set<string> {
  const names = new Set<string>();
  const helperPaths = new Set<unknown>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const typed = node as { type?: string; path?: unknown; params?: unknown[]; original?: unknown };
    const isCall = typed.type === 'BlockStatement' || (typed.params?.length ?? 0) > 0;
    if (isCall && typed.path !== undefined) helperPaths.add(typed.path);
    if (
      typed.type === 'PathExpression' &&
      !helperPaths.has(node) &&
      typeof typed.original === 'string'
    ) {
      names.add(typed.original);
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value !== null && typeof value === 'object') visit(value);
    }
  };
  visit(program);
  return names;
}

/** The templates a bare prompt name may take: those of `dir` and those redgreen ships, sorted. */
function templateNames(dir: string): string[] {
  const names = new Set<string>();
  for (const folder of [dir, path.join(packageRoot(), 'scenarios', 'prompts')]) {
    try {
      for (const file of readdirSync(folder)) {
        if (file.endsWith('.hbs')) names.add(file.slice(0, -'.hbs'.length));
      }
    } catch {
      // a folder that is not there offers no template
    }
  }
  return [...names].sort();
}

/**
 * Load a Handlebars prompt template and check, before any session starts,
 * that it uses no variable redgreen does not supply (and no {{planPath}} in
 * a scenario without a plan). Whether the rendered prompt names what a
 * session needs depends on the arm: see renderedPromptProblem.
 */
export async function loadPromptTemplate(
  templatePath: string,
  inputName: string,
  scenarioVariables: Readonly<Record<string, string>> = {},
  options: { readonly hasPlan: boolean } = { hasPlan: true },
): Promise<Result<PromptTemplate, InputError>> {
  let source: string;
  try {
    source = await readFile(templatePath, 'utf8');
  } catch {
    const known = templateNames(path.dirname(templatePath));
    const wanted = path.basename(templatePath, '.hbs');
    return err(
      inputError(
        inputName,
        `prompt template ${templatePath} cannot be read`,
        known.length === 0
          ? 'name a template that exists in the prompts/ folder beside the scenario folder, or one redgreen ships (without .hbs), or give a .hbs path'
          : `${didYouMean(wanted, known)}name one of ${known.join(', ')} (without .hbs), or give a .hbs path`,
      ),
    );
  }
  let program: hbs.AST.Program;
  try {
    program = Handlebars.parse(source);
  } catch (error) {
    return err(
      inputError(
        inputName,
        `prompt template ${templatePath} is not valid Handlebars (${String(error instanceof Error ? error.message.split('\n')[0] : error)})`,
        'fix the template syntax',
      ),
    );
  }
  const used = referencedNames(program);
  const known = new Set<string>([...promptVariableNames, ...Object.keys(scenarioVariables)]);
  const unknown = [...used].filter((name) => !known.has(name));
  if (unknown.length > 0) {
    return err(
      inputError(
        inputName,
        `prompt template ${templatePath} uses {{${unknown[0]}}}, which redgreen does not supply`,
        `use only ${[...known].map((name) => `{{${name}}}`).join(', ')}, or declare it under prompt.variables`,
      ),
    );
  }
  if (!options.hasPlan && used.has('planPath')) {
    return err(
      inputError(
        inputName,
        `prompt template ${templatePath} uses {{planPath}}, but the scenario has no plan`,
        'give the scenario a "plan", or take {{planPath}} out of the template',
      ),
    );
  }
  const compiled = Handlebars.compile(source, { noEscape: true, strict: true });
  return ok({
    path: templatePath,
    source,
    render: (variables: PromptVariables) => compiled({ ...scenarioVariables, ...variables }),
  });
}

const SKILL_MARK = 'RGPROMPTSKILLMARK';
const PLAN_MARK = 'RGPROMPTPLANMARK';

/**
 * What the rendered prompt fails to tell a session, or undefined: a
 * one-folder arm's sessions learn their skill only from the prompt, so it
 * must name {{skillDir}}; a scenario with a plan must name {{planPath}}.
 * Checked on the rendered text, so a mention a condition or a comment hides
 * does not count. A library arm's skills are installed, and its prompt need
 * name neither.
 */
export function renderedPromptProblem(
  template: PromptTemplate,
  needs: { readonly skillDir: boolean; readonly planPath: boolean },
): { readonly problem: string; readonly fix: string } | undefined {
  const rendered = template.render({
    skillDir: SKILL_MARK,
    fixtureRepo: '/repo',
    planPath: needs.planPath ? PLAN_MARK : '',
  });
  if (needs.skillDir && !rendered.includes(SKILL_MARK)) {
    return {
      problem: `prompt template ${template.path} never mentions {{skillDir}} in what it renders, so a one-folder arm's sessions would not know their skill`,
      fix: 'add {{skillDir}} to the template, or make the arm a library (its skills are installed)',
    };
  }
  if (needs.planPath && !rendered.includes(PLAN_MARK)) {
    return {
      problem: `prompt template ${template.path} never mentions {{planPath}} in what it renders, so sessions would not know their plan`,
      fix: 'add {{planPath}} to the template',
    };
  }
  return undefined;
}
