/**
 * The seed's "Disambiguation cost" names what tool_uses measure when a
 * scenario classifies how a session resolved its question (a tally
 * observation, e.g. resolution shape). A campaign whose scenarios classify
 * nothing gets the plain heading instead, in results.md and report.html.
 */
import { describe, expect, it } from 'vitest';
import { costHeading, resultsMarkdown } from '../../harness/report/markdown.js';
import { modelWith, standardReps } from '../report-html/model-fixture.js';

describe('the tool_uses section heading', () => {
  it('is "Disambiguation cost" where a scenario classifies the resolution', () => {
    const model = modelWith(standardReps());
    expect(costHeading(model)).toBe('Disambiguation cost');
    expect(resultsMarkdown(model)).toContain('\n## Disambiguation cost\n');
  });

  it('is plain where no scenario classifies anything', () => {
    const model = { ...modelWith(standardReps()), legend: null };
    expect(costHeading(model)).toBe('tool_uses per cell');
    const markdown = resultsMarkdown(model);
    expect(markdown).not.toContain('Disambiguation');
    expect(markdown).toContain('\n## tool_uses per cell\n');
  });
});
