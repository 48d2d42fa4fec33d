import { describe, expect, it } from 'vitest';
import { DEFAULT_REP_EMBED_LIMITS } from '../../harness/report/html/rep-table.js';
import { buildReportHtml } from '../../harness/report/html/report-html.js';
import {
  detailFor,
  detailsFor,
  modelWith,
  repRow,
  standardReps,
  toolCall,
} from './model-fixture.js';
import {
  contentSecurityPolicy,
  countMarks,
  eventHandlerTags,
  externalReferences,
  figure,
  inlineScripts,
  repGroup,
  sha256Base64,
} from './page-inspect.js';

describe('report.html from a results model', () => {
  it('puts the gate outcomes first: the overall decision, each gate and its figure', async () => {
    const reps = standardReps();
    const page = await buildReportHtml(modelWith(reps), detailsFor(reps));
    const gates = page.indexOf('id="gates"');
    expect(gates).toBeGreaterThan(0);
    expect(gates).toBeLessThan(page.indexOf('id="pass-rates"'));
    expect(page).toContain('<span class="overall overall-pass">PASS</span>');
    expect(page).toContain('S1 GREEN passes at least 2/2');
    expect(page).toContain('2/2 decided reps passed (needs at least 2 of 2 decided)');
    expect(page).toContain('indeterminate reps at most 20% of those recorded');
  });

  it('shows a failing gate as FAIL, with the failing gate marked (planted negative)', async () => {
    const reps = standardReps();
    const model = modelWith(reps, {
      gates: [{ kind: 'min-pass-rate', arm: 'red', scenario: 's1', passes: 2, of: 2 }],
    });
    const page = await buildReportHtml(model, detailsFor(reps));
    expect(page).toContain('<span class="overall overall-fail">FAIL</span>');
    expect(page).toContain('class="gate-row gate-row-fails"');
    expect(page).toContain('0/2 decided reps passed (needs at least 2 of 2 decided)');
    expect(page).not.toContain('class="overall overall-pass"');
  });

  it('renders each plot once, as inline SVG with a mark per cell and per rep', async () => {
    const reps = standardReps();
    const model = modelWith(reps);
    const page = await buildReportHtml(model, detailsFor(reps));
    const passRates = figure(page, 'pass-rate-chart');
    const toolUses = figure(page, 'tool-uses-chart');
    expect(passRates.match(/<svg\b/g)).toHaveLength(1);
    expect(toolUses.match(/<svg\b/g)).toHaveLength(1);
    // A dot and a whisker per cell; a symbol per rep and a median tick per cell.
    expect(countMarks(passRates, 'point')).toBe(model.cells.length);
    expect(countMarks(passRates, 'rule mark')).toBe(model.cells.length);
    expect(countMarks(toolUses, 'point')).toBe(reps.length);
    expect(countMarks(toolUses, 'tick')).toBe(model.cells.length);
    expect(toolUses).toContain(
      'aria-label="red/s1-rep1: 4 tool_uses, resolution neither, verdict fail"',
    );
    // The legend observation (resolution) is the colour: structural and neither reps get their own fills.
    expect(toolUses).toContain('fill="#0072B2"');
    expect(toolUses).toContain('fill="#6F6F6F"');
  });

  it('draws no dot for a cell with no decided reps and says so, and no symbols without reps', async () => {
    const reps = standardReps().map((row) =>
      row.arm === 'green' && row.scenario === 's2'
        ? repRow({ arm: 'green', scenario: 's2', rep: row.rep, verdict: 'indeterminate' })
        : row,
    );
    const page = await buildReportHtml(modelWith(reps), detailsFor(reps));
    const passRates = figure(page, 'pass-rate-chart');
    expect(countMarks(passRates, 'point')).toBe(3);
    expect(passRates).toContain('no decided reps (2 indeterminate)');

    const empty = await buildReportHtml(modelWith([]), new Map());
    expect(countMarks(figure(empty, 'tool-uses-chart'), 'point')).toBe(0);
    expect(countMarks(figure(empty, 'pass-rate-chart'), 'point')).toBe(0);
  });

  it('keeps untrusted text inert: planted <script>, event handlers and attribute breakouts are escaped', async () => {
    const reps = standardReps();
    reps[0] = repRow({
      arm: 'red',
      scenario: 's1',
      rep: 1,
      verdict: 'pass',
      verdict_source: 'override',
      scored_verdict: 'fail',
      override_reason: '" onmouseover="alert(1)" x="',
      reasons: '<b>bold</b> reason',
    });
    const details = detailsFor(reps);
    const planted = reps[0];
    if (planted === undefined) throw new Error('fixture has reps');
    details.set(
      planted.rep_id,
      detailFor(planted, {
        reply: '</pre><script>window.__pwned = 1</script>\n3. FIRST DISPATCH: Task 1',
        toolCalls: [
          toolCall(1, '<img src=x onerror="window.__pwned = 2">', {
            input: { command: '"><svg onload="window.__pwned = 3">' },
          }),
        ],
      }),
    );
    const page = await buildReportHtml(modelWith(reps), details);
    expect(page.match(/<script\b/gi)).toHaveLength(1);
    expect(eventHandlerTags(page)).toEqual([]);
    expect(page).toContain('&lt;/pre&gt;&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(page).toContain('&lt;img src=x onerror=&quot;window.__pwned = 2&quot;&gt;');
    expect(page).toContain('&lt;b&gt;bold&lt;/b&gt; reason');
    expect(page).not.toContain('<b>bold</b>');
  });

  it('the injection checks catch markup that is not escaped (planted negative)', () => {
    expect(eventHandlerTags('<span title="&quot; onmouseover=&quot;x">')).toEqual([]);
    expect(eventHandlerTags('<span title="" onmouseover="x">')).toHaveLength(1);
    const unsafe = '<p>ok</p><img src=x onerror="steal()"><a href="https://example.com/x">x</a>';
    expect(eventHandlerTags(unsafe)).toHaveLength(1);
    expect(externalReferences(unsafe)).toHaveLength(1);
    expect(externalReferences('<style>body { background: url(x.png) }</style>')).toHaveLength(1);
  });

  it('references nothing outside the page: URLs in results stay inert text', async () => {
    const reps = standardReps();
    const details = detailsFor(reps);
    const first = reps[0];
    if (first === undefined) throw new Error('fixture has reps');
    details.set(
      first.rep_id,
      detailFor(first, {
        reply: 'see https://example.com/docs and <a href="https://example.com/x">x</a>',
      }),
    );
    const page = await buildReportHtml(modelWith(reps), details);
    expect(externalReferences(page)).toEqual([]);
    expect(page).toContain('see https://example.com/docs');
    expect(contentSecurityPolicy(page)).toContain("default-src 'none'");
  });

  it('allows exactly its own inline script by hash in the Content-Security-Policy', async () => {
    const reps = standardReps();
    const page = await buildReportHtml(modelWith(reps), detailsFor(reps));
    const scripts = inlineScripts(page);
    expect(scripts).toHaveLength(1);
    const policy = contentSecurityPolicy(page);
    expect(policy).toContain(`script-src 'sha256-${sha256Base64(scripts[0] ?? '')}'`);
    expect(policy).not.toContain(`'sha256-${sha256Base64(`${scripts[0]} `)}'`);
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
  });

  it('marks a scripted policy as not a model, and a real model without that mark', async () => {
    const reps = standardReps();
    const scripted = await buildReportHtml(modelWith(reps), detailsFor(reps));
    expect(scripted).toContain('scripted policy, not a model');
    // Once, on the model line of the page header; the rows name the model without repeating it.
    expect(scripted.match(/class="badge badge-scripted"/g)).toHaveLength(1);
    const header = scripted.slice(0, scripted.indexOf('</header>'));
    expect(header).toContain(
      '<code>scripted:skill-reader</code> <span class="badge badge-scripted">scripted policy, not a model</span>',
    );
    expect(repGroup(scripted, 'green/s2-rep1')).toContain('<code>scripted:skill-reader</code>');
    expect(repGroup(scripted, 'green/s2-rep1')).not.toContain('badge-scripted');

    const real = standardReps().map((row) => ({
      ...row,
      model_requested: 'claude-sonnet-x',
      model_reported: 'claude-sonnet-x-20261101',
      scripted_model: false,
    }));
    const page = await buildReportHtml(modelWith(real, { scripted: false }), detailsFor(real));
    expect(page).not.toContain('scripted policy, not a model');
    expect(repGroup(page, 'green/s2-rep1')).toContain('<code>claude-sonnet-x-20261101</code>');
  });

  it('marks an overridden verdict as an override, with the scored verdict and the reason', async () => {
    const reps = standardReps();
    const plain = await buildReportHtml(modelWith(reps), detailsFor(reps));
    expect(plain).not.toContain('<span class="badge badge-override"');

    reps[0] = repRow({
      arm: 'red',
      scenario: 's1',
      rep: 1,
      verdict: 'pass',
      verdict_source: 'override',
      scored_verdict: 'fail',
      override_reason: 'adjudicated by hand: reply names Task 1 in prose',
    });
    const page = await buildReportHtml(modelWith(reps), detailsFor(reps));
    const group = repGroup(page, 'red/s1-rep1');
    expect(group).toContain('class="rep verdict-row-pass is-override"');
    expect(group).toContain('<span class="badge badge-override"');
    expect(group).toContain('scored fail');
    expect(group).toContain('adjudicated by hand: reply names Task 1 in prose');
    expect(page).toContain('1 verdict(s) overridden by hand');
  });

  it('highlights indeterminate reps and findings, never hiding them', async () => {
    const reps = standardReps();
    const clear = await buildReportHtml(modelWith(reps), detailsFor(reps));
    expect(clear).toContain('Nothing needs attention');

    reps[1] = repRow({
      arm: 'red',
      scenario: 's1',
      rep: 2,
      verdict: 'indeterminate',
      reasons: 'session timed out after 600 s',
    });
    reps[4] = repRow({
      arm: 'red',
      scenario: 's2',
      rep: 1,
      verdict: 'fail',
      findings: 'stale-artifacts-untouched: .superpowers/sdd/progress.md was modified',
    });
    const page = await buildReportHtml(modelWith(reps), detailsFor(reps));
    expect(page).not.toContain('Nothing needs attention');
    const attention = page.slice(page.indexOf('id="attention"'), page.indexOf('id="pass-rates"'));
    expect(attention).toContain('1 indeterminate rep(s)');
    expect(attention).toContain('Failing checks in 1 rep(s)');
    expect(attention).toContain('href="#rep-red-s1-rep2"');
    expect(attention).toContain('href="#rep-red-s2-rep1"');
    expect(repGroup(page, 'red/s1-rep2')).toContain('verdict-row-indeterminate');
    expect(repGroup(page, 'red/s1-rep2')).toContain('indeterminate: timeout');
    expect(repGroup(page, 'red/s2-rep1')).toContain('has-findings');
    const findings = page.slice(page.indexOf('id="findings"'), page.indexOf('id="indeterminate"'));
    expect(findings).toContain(
      'stale-artifacts-untouched: .superpowers/sdd/progress.md was modified',
    );
    const indeterminate = page.slice(
      page.indexOf('id="indeterminate"'),
      page.indexOf('id="campaign"'),
    );
    expect(indeterminate).toContain('session timed out after 600 s');
  });

  it("gives each rep a failure reason: the scorer's reasons for fail and indeterminate, none for a pass", async () => {
    const reps = standardReps();
    reps[1] = repRow({
      arm: 'red',
      scenario: 's1',
      rep: 2,
      verdict: 'indeterminate',
      reasons: 'session timed out after 600 s',
    });
    const page = await buildReportHtml(modelWith(reps), detailsFor(reps));
    const head = page.slice(
      page.indexOf('<table class="data reps">'),
      page.indexOf('</thead>', page.indexOf('<table class="data reps">')),
    );
    expect(head).toContain('<th scope="col">Failure reason</th>');
    expect(repGroup(page, 'red/s1-rep1')).toContain(
      '<td class="reason">first-dispatch: expected Task 1, &quot;dispatch&quot; says no task</td>',
    );
    expect(repGroup(page, 'red/s1-rep2')).toContain(
      '<td class="reason">session timed out after 600 s</td>',
    );
    expect(repGroup(page, 'green/s1-rep1')).toContain(
      '<td class="reason"><span class="muted">—</span></td>',
    );
  });

  it('puts every table in a horizontal scroll container, so a narrow screen scrolls the table, not the page', async () => {
    const reps = standardReps();
    const page = await buildReportHtml(modelWith(reps), detailsFor(reps));
    const tables = page.match(/<table\b/g) ?? [];
    const wrapped =
      page.match(
        /<div class="table-scroll" tabindex="0" role="region" aria-label="[^"]+"><table\b/g,
      ) ?? [];
    expect(tables.length).toBeGreaterThan(4);
    expect(wrapped).toHaveLength(tables.length);
  });

  it('plots and tabulates tool_uses of decided reps only, and says so', async () => {
    const reps = standardReps();
    reps[1] = repRow({
      arm: 'red',
      scenario: 's1',
      rep: 2,
      verdict: 'indeterminate',
      tool_uses: 1,
    });
    const page = await buildReportHtml(modelWith(reps), detailsFor(reps));
    const toolUses = figure(page, 'tool-uses-chart');
    expect(countMarks(toolUses, 'point')).toBe(reps.length - 1);
    expect(toolUses).not.toContain('red/s1-rep2');
    const section = page.slice(page.indexOf('id="tool-uses"'), page.indexOf('id="reps"'));
    expect(section).toContain('tool_uses per decided rep');
    expect(section).toContain('tool_uses figures count decided reps only');
    expect(section).toContain('1 indeterminate rep(s) left out');
  });

  it('names the campaign identity and each skill text tree hash', async () => {
    const reps = standardReps();
    const model = modelWith(reps);
    const page = await buildReportHtml(model, detailsFor(reps));
    expect(page).toContain(model.campaign.identity);
    for (const arm of model.arms) expect(page).toContain(arm.tree);
  });

  it('tags every rep row with its verdict, cell and legend value for the filter', async () => {
    const reps = standardReps();
    const page = await buildReportHtml(modelWith(reps), detailsFor(reps));
    for (const row of reps) {
      expect(repGroup(page, row.rep_id)).toContain(
        `data-verdict="${row.verdict}" data-cell="${row.scenario}/${row.arm}" data-legend="${row.observations.resolution}"`,
      );
    }
    expect(page).toContain('<option value="s1/red">S1 RED</option>');
  });

  it('shows tool calls in order, each input and output cut to a line with the full text behind <details>', async () => {
    const reps = standardReps();
    const details = detailsFor(reps);
    const first = reps[0];
    if (first === undefined) throw new Error('fixture has reps');
    const long = `${'line of output\n'.repeat(40)}END`;
    details.set(
      first.rep_id,
      detailFor(first, {
        toolCalls: [toolCall(1, 'first'), toolCall(2, long), toolCall(3, 'third')],
      }),
    );
    const page = await buildReportHtml(modelWith(reps), details);
    const group = repGroup(page, first.rep_id);
    const order = [
      'git log --oneline -n 1',
      'git log --oneline -n 2',
      'git log --oneline -n 3',
    ].map((command) => group.indexOf(command));
    expect(order.every((position) => position > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(group).toContain('line of output line of output');
    expect(group).toContain('…');
    expect(group).toContain(`<pre>${long}</pre>`);
  });

  it('caps the transcript embedded per rep and says how much was left out', async () => {
    const reps = standardReps();
    const first = reps[0];
    if (first === undefined) throw new Error('fixture has reps');
    const calls = Array.from({ length: 50 }, (_, index) => toolCall(index + 1, 'x'.repeat(10_000)));
    const details = detailsFor(reps);
    details.set(first.rep_id, detailFor(first, { toolCalls: calls }));
    const limits = { ...DEFAULT_REP_EMBED_LIMITS, repBudgetBytes: 60_000, fieldBytes: 4_000 };
    const page = await buildReportHtml(modelWith(reps), details, { limits });
    const group = repGroup(page, first.rep_id);
    expect(group).toMatch(/Transcript truncated: \d+ of 50 tool calls not embedded/);
    expect(group).toContain('6.0 KB more of this output not embedded');
    expect(group.length).toBeLessThan(90_000);

    const small = await buildReportHtml(modelWith(reps), detailsFor(reps), { limits });
    expect(small).not.toContain('Transcript truncated');
    expect(small).not.toContain('not embedded');
  });

  it('says so when a transcript could not be read, and lists the rep under attention', async () => {
    const reps = standardReps();
    const details = detailsFor(reps);
    const first = reps[0];
    if (first === undefined) throw new Error('fixture has reps');
    details.set(first.rep_id, {
      ...detailFor(first),
      transcript: { kind: 'unavailable', why: 'no such transcript' },
    });
    const page = await buildReportHtml(modelWith(reps), details);
    expect(repGroup(page, first.rep_id)).toContain('Transcript unavailable: no such transcript.');
    expect(page).toContain('Transcript problems in 1 rep(s)');
  });

  it('builds the same page from the same results', async () => {
    const reps = standardReps();
    const model = modelWith(reps);
    expect(await buildReportHtml(model, detailsFor(reps))).toBe(
      await buildReportHtml(model, detailsFor(reps)),
    );
  });
});
