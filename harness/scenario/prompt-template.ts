import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Handlebars from 'handlebars';
import { didYouMean } from '../lib/did-you-mean.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { packageRoot } from '../lib/package-root.js';
import { err, ok, type Result } from '../lib/result.js';
import type { ScenarioShell } from '../score/scenario-schema.js';
import {
  CORE_VARIABLES,
  type PromptVariableSource,
  promptVariableOwner,
  promptVariableSources,
} from './scenario-extensions.js';

/**
 * The variables every session prompt is rendered with; a pack's variables
 * (scenario-extensions.ts) may be given too, overriding the value the
 * template took from the scenario.
 */
export interface PromptVariables {
  /** Absolute path of the read-only skill copy the session is told to follow. */
  readonly skillDir: string;
  /** Absolute path of the session's fixture repository (its main checkout). */
  readonly fixtureRepo: string;
  /**
   * Absolute path of the checkout the session starts in (the recipe's
   * `start` worktree); default `fixtureRepo`.
   */
  readonly startDir?: string;
  readonly [packVariable: string]: string;
}

export interface PromptTemplate {
  readonly path: string;
  readonly source: string;
  /** The pack variables the scenario gives, with their values (scenario-extensions.ts). */
  readonly packVariables: readonly {
    readonly source: PromptVariableSource;
    readonly value: string;
  }[];
  /** The session's variables plus the scenario's own prompt variables and its packs' ones. */
  render(variables: PromptVariables): string;
}

/** The scenario a template is loaded for: its packs' variables take their values from it. */
export interface PromptScenario {
  readonly packs: readonly string[];
  readonly config: ScenarioShell;
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
 * that it uses no variable redgreen does not supply (and no pack variable
 * the scenario gives no value). Without a scenario every installed pack's
 * variables are known, their values given at render. Whether the rendered
 * prompt names what a session needs depends on the arm: see
 * renderedPromptProblem.
 */
export async function loadPromptTemplate(
  templatePath: string,
  inputName: string,
  scenarioVariables: Readonly<Record<string, string>> = {},
  scenario?: PromptScenario,
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
  const sources = promptVariableSources(scenario?.packs);
  const known = new Set<string>([
    ...CORE_VARIABLES,
    ...sources.map((variable) => variable.name),
    ...Object.keys(scenarioVariables),
  ]);
  const unknown = [...used].filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const name = unknown[0] ?? '';
    const owner = promptVariableOwner(name);
    if (owner !== undefined && scenario !== undefined) {
      const addPack = `add "packs": ${JSON.stringify([...scenario.packs, owner.pack])}`;
      return err(
        owner.source.valueOf(scenario.config) === undefined
          ? inputError(
              inputName,
              `prompt template ${templatePath} uses {{${name}}}, but ${owner.source.absentProblem}`,
              `${owner.source.absentFix} and ${addPack}, or take {{${name}}} out of the template`,
            )
          : inputError(
              inputName,
              `prompt template ${templatePath} uses {{${name}}}, which the ${owner.pack} pack supplies, and the scenario does not name that pack`,
              `${addPack}, or take {{${name}}} out of the template`,
            ),
      );
    }
    return err(
      inputError(
        inputName,
        `prompt template ${templatePath} uses {{${name}}}, which redgreen does not supply`,
        `use only ${[...known].map((known) => `{{${known}}}`).join(', ')}, or declare it under prompt.variables`,
      ),
    );
  }
  const packVariables: { source: PromptVariableSource; value: string }[] = [];
  for (const source of sources) {
    const value = scenario === undefined ? '' : source.valueOf(scenario.config);
    if (value !== undefined) {
      packVariables.push({ source, value });
    } else if (used.has(source.name)) {
      return err(
        inputError(
          inputName,
          `prompt template ${templatePath} uses {{${source.name}}}, but ${source.absentProblem}`,
          `${source.absentFix}, or take {{${source.name}}} out of the template`,
        ),
      );
    }
  }
  const packValues = Object.fromEntries(
    packVariables.map(({ source, value }) => [source.name, value]),
  );
  const compiled = Handlebars.compile(source, { noEscape: true, strict: true });
  return ok({
    path: templatePath,
    source,
    packVariables: scenario === undefined ? [] : packVariables,
    render: (variables: PromptVariables) =>
      compiled({
        ...scenarioVariables,
        ...packValues,
        startDir: variables.fixtureRepo,
        ...variables,
      }),
  });
}

const SKILL_MARK = 'RGPROMPTSKILLMARK';
const PACK_MARK = 'RGPROMPTPACKMARK';

/**
 * What the rendered prompt fails to tell a session, or undefined: a
 * one-folder arm's sessions learn their skill only from the prompt, so it
 * must name {{skillDir}}; each pack variable the scenario gives must be
 * named (`packVariables`). Checked on the rendered text, so a mention a
 * condition or a comment hides does not count. A library arm's skills are
 * installed, and its prompt need not name {{skillDir}}.
 */
export function renderedPromptProblem(
  template: PromptTemplate,
  needs: { readonly skillDir: boolean; readonly packVariables?: boolean },
): { readonly problem: string; readonly fix: string } | undefined {
  const marks = Object.fromEntries(
    template.packVariables.map(({ source }, index) => [source.name, `${PACK_MARK}${index}X`]),
  );
  const rendered = template.render({
    skillDir: SKILL_MARK,
    fixtureRepo: '/repo',
    ...(needs.packVariables === true ? marks : {}),
  });
  if (needs.skillDir && !rendered.includes(SKILL_MARK)) {
    return {
      problem: `prompt template ${template.path} never mentions {{skillDir}} in what it renders, so a one-folder arm's sessions would not know their skill`,
      fix: 'add {{skillDir}} to the template, or make the arm a library (its skills are installed)',
    };
  }
  if (needs.packVariables !== true) return undefined;
  for (const { source } of template.packVariables) {
    if (rendered.includes(marks[source.name] ?? '')) continue;
    return {
      problem: `prompt template ${template.path} never mentions {{${source.name}}} in what it renders, so ${source.unmentionedProblem}`,
      fix: `add {{${source.name}}} to the template`,
    };
  }
  return undefined;
}
