import type { DiffCell, DiffModel } from './diff.js';
import { pValue } from './html/format.js';
import { cellName } from './markdown.js';

/** `redgreen diff` as markdown: what is compared, one row per cell, the reps whose verdicts changed. */

function signed(value: number | null, format: (value: number) => string): string {
  if (value === null) return 'n/a';
  const text = format(value);
  return value > 0 ? `+${text}` : text;
}

function count(side: DiffCell['a']): string {
  return `${side.pass}/${side.decided}${side.indeterminate > 0 ? ` (+${side.indeterminate} ind.)` : ''}`;
}

function mean(value: number | null): string {
  return value === null ? 'n/a' : value.toFixed(1);
}

function describeSide(letter: 'A' | 'B', side: DiffModel['a']): string {
  return `${letter}: ${side.dir} — campaign ${side.campaign.id}, identity ${side.campaign.identity.slice(0, 12)}, model ${side.model}${side.scripted ? ' (scripted policy, not a model)' : ''}, ${side.backend}, ${side.repsPerCell} rep(s) per cell${side.shard === null ? '' : `, shard ${side.shard}`}, ${side.recorded}/${side.planned} recorded`;
}

function row(cell: DiffCell): string[] {
  return [
    cell.model === undefined ? cellName(cell) : `${cell.model} · ${cellName(cell)}`,
    count(cell.a),
    count(cell.b),
    signed(cell.passRateChange, (value) => `${Math.round(value * 100)} pts`),
    pValue(cell.fisherTwoSided),
    mean(cell.toolUses.a.mean),
    mean(cell.toolUses.b.mean),
    signed(cell.toolUses.meanChange, (value) => value.toFixed(1)),
    pValue(cell.toolUses.permutationP),
  ];
}

export function diffMarkdown(diff: DiffModel): string {
  const header = [
    'Cell',
    'A pass',
    'B pass',
    'Change',
    'Fisher p (two-sided)',
    'tool_uses mean A',
    'tool_uses mean B',
    'Change',
    'p (permutation)',
  ];
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const compared = diff.sameDirectory
    ? 'Compared: A and B are the same directory, so nothing can differ.'
    : diff.differences.length === 0
      ? 'Compared: the same campaign identity and set-up, cell by cell.'
      : diff.sameIdentity
        ? `Compared: the same campaign identity (the same sessions), but ${diff.differences.join('; ')}; cell by cell.`
        : `Compared: different set-ups (${diff.differences.join('; ')}); the cells match, so each cell is compared.`;
  const changes = diff.cells.flatMap((cell) => cell.verdictChanges);
  const only = [
    diff.repsOnlyInA.length > 0 ? `Recorded in A only: ${diff.repsOnlyInA.join(', ')}.` : '',
    diff.repsOnlyInB.length > 0 ? `Recorded in B only: ${diff.repsOnlyInB.join(', ')}.` : '',
  ].filter(Boolean);
  return [
    '# redgreen diff',
    '',
    describeSide('A', diff.a),
    '',
    describeSide('B', diff.b),
    '',
    compared,
    '',
    line(header),
    `|${header.map(() => '---').join('|')}|`,
    ...diff.cells.map((cell) => line(row(cell))),
    '',
    'Pass counts are of decided reps (indeterminate ones are counted beside them); change is B minus A. ' +
      'tool_uses figures count decided reps only: an indeterminate rep was cut short or could not be read.',
    '',
    '## Verdict changes (same rep id, different verdict)',
    '',
    ...(changes.length === 0
      ? ['None: every rep recorded in both directories has the same verdict.']
      : changes.map((change) => `- ${change.rep_id}: ${change.a} → ${change.b}`)),
    ...(only.length > 0 ? ['', ...only] : []),
    '',
  ].join('\n');
}
