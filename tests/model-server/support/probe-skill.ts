/**
 * Small skill directories for protocol tests that must not depend on the
 * reference texts in skills-under-test/ (the behaviour matrix uses those).
 * Each carries just the marker skill-reader looks for, and the plan-scoped one
 * a working `scripts/sdd-workspace PLAN_FILE`.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type ProbeSkillKind = 'plan-scoped' | 'flat' | 'none';

const texts: Record<ProbeSkillKind, string> = {
  'plan-scoped': [
    '# Probe skill: plan-scoped progress',
    '',
    "Resolve this plan's workspace: `scripts/sdd-workspace PLAN_FILE`.",
    'Read `<workspace>/progress.md`; trust it only if its first line is',
    '`# SDD ledger — plan: <plan file path>` naming your plan.',
    '',
  ].join('\n'),
  flat: [
    '# Probe skill: one flat ledger',
    '',
    'At start read `.superpowers/sdd/progress.md` at the repository root; tasks listed',
    'complete there are done.',
    '',
  ].join('\n'),
  none: ['# Probe skill without any ledger', '', 'Execute the plan task by task.', ''].join('\n'),
};

const workspaceScript = `#!/usr/bin/env bash
# Probe: print (and create) <repo>/.superpowers/sdd/<plan basename>.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: sdd-workspace PLAN_FILE" >&2; exit 2; }
[ -f "$1" ] || { echo "no such plan file: $1" >&2; exit 2; }
name=$(basename "$1" .md)
top=$(git rev-parse --show-toplevel)
mkdir -p "$top/.superpowers/sdd/$name"
printf '*\\n' > "$top/.superpowers/sdd/.gitignore"
cd "$top/.superpowers/sdd/$name" && pwd
`;

export function writeProbeSkill(dir: string, kind: ProbeSkillKind): string {
  mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  writeFileSync(path.join(dir, 'SKILL.md'), texts[kind]);
  const script = path.join(dir, 'scripts', 'sdd-workspace');
  writeFileSync(script, workspaceScript);
  chmodSync(script, 0o755);
  return dir;
}
