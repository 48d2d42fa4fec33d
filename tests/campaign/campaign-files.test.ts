/**
 * Campaign and scenario files (issue 27, item 7 and what a new user hit
 * with them): the JSON Schemas in schemas/ are what the zod schemas
 * generate, every shipped file validates against them and names them in
 * `$schema`; `redgreen campaign lint` validates a file and dry-runs its
 * plan; shipped campaigns are found from any directory, as shipped
 * scenarios are; a no-scenario-regresses gate the reps cannot decide is
 * said before anything runs; `doctor` treats a missing campaign as bad
 * input and its --json has the common envelope.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { publishedSchemas } from '../../harness/campaign/file-schemas.js';
import { gatesOutOfReach } from '../../harness/run/gate-reach.js';
import { cleanEnv, repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { readJson } from './support.js';

const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false, validateFormats: false });
const schemaFile = (name: string) => path.join(repoRoot, 'schemas', name);
const validateCampaign = ajv.compile(
  JSON.parse(readFileSync(schemaFile('campaign.schema.json'), 'utf8')),
);
const validateScenario = ajv.compile(
  JSON.parse(readFileSync(schemaFile('scenario.schema.json'), 'utf8')),
);

const scenariosDir = path.join(repoRoot, 'scenarios');
const campaignFiles = readdirSync(scenariosDir)
  .filter((name) => name.endsWith('.campaign.json'))
  .map((name) => path.join(scenariosDir, name));
const scenarioFiles = readdirSync(scenariosDir)
  .map((name) => path.join(scenariosDir, name, 'scenario.json'))
  .filter((file) => existsSync(file));

describe('the published JSON Schemas', () => {
  it('are what the zod schemas generate (run node dist/scripts/write-schemas.js after a format change)', () => {
    for (const { file, text } of publishedSchemas()) {
      // Compared as JSON: the files are laid out by the formatter (npm run format).
      expect(JSON.parse(readFileSync(schemaFile(file), 'utf8')), file).toEqual(JSON.parse(text));
    }
  });

  it('validate every shipped campaign and scenario file, which names its schema in $schema', () => {
    expect(campaignFiles.length).toBeGreaterThan(5);
    expect(scenarioFiles.length).toBeGreaterThan(10);
    for (const [files, validate, schema] of [
      [campaignFiles, validateCampaign, 'campaign.schema.json'],
      [scenarioFiles, validateScenario, 'scenario.schema.json'],
    ] as const) {
      for (const file of files) {
        const data = readJson<{ $schema?: string }>(file);
        expect(validate(data), `${file}: ${JSON.stringify(validate.errors?.slice(0, 2))}`).toBe(
          true,
        );
        expect(path.resolve(path.dirname(file), data.$schema ?? '')).toBe(schemaFile(schema));
      }
    }
  });

  it('refuse a misspelt field and an unknown verb (planted negatives)', () => {
    const campaign = readJson<Record<string, unknown>>(campaignFiles[0] ?? '');
    expect(validateCampaign({ ...campaign, gatez: [] })).toBe(false);
    const scenario = readJson<{ checks: { post: unknown[] } }>(
      path.join(scenariosDir, 's1/scenario.json'),
    );
    expect(validateScenario(scenario)).toBe(true);
    scenario.checks.post.push({ id: 'x', verb: 'tool-caled', tool: 'Bash' });
    expect(validateScenario(scenario)).toBe(false);
  });
});

describe('redgreen campaign lint', () => {
  it('validates a shipped campaign from another directory and dry-runs its plan', async () => {
    const lint = await runCli(['campaign', 'lint', 'sdd-panel'], { cwd: makeTempDir() });
    expect(lint.exitCode, lint.stderr).toBe(0);
    expect(lint.stdout).toMatch(
      /^campaign sdd-panel \(.*scenarios\/sdd-panel\.campaign\.json\): valid/,
    );
    expect(lint.stdout).toContain('cell BROKEN-PLAN-RULING GREEN');
    expect(lint.stdout).toMatch(/sessions: 100, backend claude-code/);
    expect(lint.stdout).toMatch(/lint: sdd-panel is sound$/);
  });

  it('says a gate cannot be decided at the reps (the panel at 2: no up-front note before), exit 1', async () => {
    const dir = makeTempDir();
    const panel = readJson<Record<string, unknown>>(
      path.join(scenariosDir, 'sdd-panel.campaign.json'),
    );
    const file = path.join(dir, 'short.campaign.json');
    writeFileSync(
      file,
      JSON.stringify({
        ...panel,
        reps: 2,
        $schema: undefined,
        scenarios: (panel.scenarios as string[]).map((id) => path.join(scenariosDir, id)),
        arms: (panel.arms as { skill: string }[]).map((arm) => ({
          ...arm,
          skill: path.resolve(scenariosDir, arm.skill),
        })),
      }),
    );
    const lint = await runCli(['campaign', 'lint', file]);
    expect(lint.exitCode, lint.stderr).toBe(1);
    expect(lint.stdout).toMatch(
      /problem: gate no scenario regresses \(holm\) cannot be decided with 2 rep\(s\) per cell: even RED 2\/2 against GREEN 0\/2 is not below α\/10 = 0\.005 \(Holm over 10 scenarios\), so it stays undecided \(run with --reps 5 or more\)/,
    );
    expect(lint.stdout).toMatch(/lint: sdd-panel has 1 problem\(s\)/);
  });

  it('refuses a bad file with one line naming the field, exit 2', async () => {
    const file = path.join(makeTempDir(), 'bad.campaign.json');
    const campaign = readJson<Record<string, unknown>>(
      path.join(scenariosDir, 'plan-scoped-workspace.campaign.json'),
    );
    writeFileSync(file, JSON.stringify({ ...campaign, repz: 3 }));
    const lint = await runCli(['campaign', 'lint', file]);
    expect(lint.exitCode).toBe(2);
    expect(lint.stdout).toBe('');
    expect(lint.stderr.trim().split('\n')).toHaveLength(1);
    expect(lint.stderr).toMatch(/repz/);
  });

  it('names the campaigns redgreen ships when none of the name exists', async () => {
    const lint = await runCli(['campaign', 'lint', 'sdd-panle'], { cwd: makeTempDir() });
    expect(lint.exitCode).toBe(2);
    expect(lint.stderr).toMatch(
      /redgreen ships no campaign of that name; did you mean "sdd-panel\.campaign\.json"\? .*sdd-panel\.campaign\.json/,
    );
  });
});

describe('gates the reps cannot decide, said before the run', () => {
  it('no-scenario-regresses: Holm over the scenarios needs 5 reps for 10 scenarios (planted negative at 5)', () => {
    const gate = { kind: 'no-scenario-regresses', alpha: 0.05, correction: 'holm' } as const;
    const scenarios = Array.from({ length: 10 }, (_, index) => ({ id: `s${index}` }));
    expect(gatesOutOfReach({ gates: [gate], reps: 2, scenarios })[0]).toMatch(
      /run with --reps 5 or more/,
    );
    expect(gatesOutOfReach({ gates: [gate], reps: 5, scenarios })).toEqual([]);
    expect(
      gatesOutOfReach({ gates: [{ ...gate, correction: 'none' }], reps: 4, scenarios }),
    ).toEqual([]);
  });
});

describe('redgreen doctor with a campaign', () => {
  it('a missing campaign is bad input: exit 2, one line, nothing on stdout', async () => {
    const doctor = await runCli(['doctor', 'nowhere.campaign.json'], { cwd: makeTempDir() });
    expect(doctor.exitCode).toBe(2);
    expect(doctor.stdout).toBe('');
    expect(doctor.stderr).toMatch(/^redgreen: campaign: .*nowhere\.campaign\.json does not exist/);
  });

  it('--json has the common envelope', async () => {
    const doctor = await runCli(['doctor', 'plan-scoped-workspace', '--json'], {
      cwd: makeTempDir(),
      env: cleanEnv(),
    });
    const json = JSON.parse(doctor.stdout) as Record<string, unknown>;
    expect(json).toMatchObject({
      schemaVersion: 1,
      command: 'doctor',
      exitCode: doctor.exitCode,
      campaign: path.join(scenariosDir, 'plan-scoped-workspace.campaign.json'),
    });
    expect(Array.isArray(json.checks)).toBe(true);
  });
});
