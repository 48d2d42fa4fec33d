import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportHtml } from '../../harness/report/html/report-html.js';
import type { RepRow } from '../../harness/report/results-schema.js';
import { detailFor, detailsFor, modelWith, repRow, standardReps } from './model-fixture.js';

/**
 * report.html laid out by a real browser (Debian's Chromium, headless): chart
 * labels that do not run into each other, and a page that fits a 500 px wide
 * screen without scrolling sideways (wide tables scroll inside their own box).
 */
const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(`report layout tests skipped: ${CHROMIUM} is absent (apt-get install chromium)`);
}

/** S2 has no decided reps in either arm: both cells get the "no decided reps" label. */
function noDecidedInS2(): RepRow[] {
  return standardReps().map((row) =>
    row.scenario === 's2'
      ? repRow({ arm: row.arm, scenario: 's2', rep: row.rep, verdict: 'indeterminate' })
      : row,
  );
}

/** Long unbroken text where a page usually overflows: reasons, findings, model names, replies. */
function wideReps(): RepRow[] {
  const long = `reply-parser/${'x'.repeat(180)}`;
  return standardReps().map((row, index) =>
    index === 0
      ? repRow({
          arm: row.arm,
          scenario: row.scenario,
          rep: row.rep,
          verdict: 'fail',
          reasons: `first-dispatch: ${long}`,
          findings: `stale-artifacts-untouched: .superpowers/sdd/${'deeply/'.repeat(20)}progress.md modified`,
          model_reported: `scripted:skill-reader-${'y'.repeat(80)}`,
        })
      : row,
  );
}

/** The few DOM members the width check reads (the tests' TypeScript has no DOM library). */
interface LayoutBox {
  readonly id: string;
  readonly scrollWidth: number;
  readonly clientWidth: number;
}
interface PageDocument {
  readonly documentElement: LayoutBox;
  querySelectorAll(selector: string): Iterable<LayoutBox>;
}

describe.skipIf(!haveChromium)('report.html layout in headless Chromium', () => {
  let browser: Browser;
  let work = '';

  beforeAll(async () => {
    work = mkdtempSync(path.join(os.tmpdir(), 'redgreen-report-layout-'));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (work !== '') rmSync(work, { recursive: true, force: true });
  });

  async function open(name: string, reps: RepRow[], width: number) {
    const details = detailsFor(reps);
    const first = reps[0];
    if (first !== undefined) {
      details.set(
        first.rep_id,
        detailFor(first, { reply: `3\n${'z'.repeat(600)}\n3. FIRST DISPATCH: Task 1` }),
      );
    }
    const file = path.join(work, `${name}.html`);
    writeFileSync(file, await buildReportHtml(modelWith(reps), details));
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      javaScriptEnabled: true,
      offline: true,
    });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    return page;
  }

  /** Boxes of every text element of a chart, as the browser laid them out. */
  async function chartTextBoxes(page: Awaited<ReturnType<typeof open>>, id: string) {
    return page.locator(`#${id} svg text`).evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        return {
          text: element.textContent ?? '',
          left: box.left,
          right: box.right,
          top: box.top,
          bottom: box.bottom,
        };
      }),
    );
  }

  for (const width of [500, 1200]) {
    it(`labels a cell without decided reps legibly, no chart text overlapping (${width} px)`, async () => {
      const page = await open(`no-decided-${width}`, noDecidedInS2(), width);
      const boxes = (await chartTextBoxes(page, 'pass-rate-chart')).filter(
        (box) => box.text.trim() !== '' && box.right > box.left,
      );
      const overlaps: string[] = [];
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i];
          const b = boxes[j];
          if (a === undefined || b === undefined) continue;
          const apart =
            a.right <= b.left + 0.5 ||
            b.right <= a.left + 0.5 ||
            a.bottom <= b.top + 0.5 ||
            b.bottom <= a.top + 0.5;
          if (!apart) overlaps.push(`"${a.text}" overlaps "${b.text}"`);
        }
      }
      expect(overlaps).toEqual([]);
      const labels = await page
        .locator('#pass-rate-chart svg [aria-roledescription="text mark"]')
        .evaluateAll((marks) => marks.map((mark) => (mark.textContent ?? '').replace(/\s+/g, ' ')));
      expect(labels.filter((text) => text.includes('no decided reps'))).toHaveLength(2);
      await page.context().close();
    });

    it(`does not scroll sideways at ${width} px: wide tables scroll in their own box`, async () => {
      const page = await open(`wide-${width}`, wideReps(), width);
      const widths = await page.evaluate(() => {
        const { document } = globalThis as unknown as { document: PageDocument };
        const root = document.documentElement;
        // Sections whose content reaches past their own width (named in the failure message).
        const overflowing = [...document.querySelectorAll('main > *')]
          .filter((section) => section.scrollWidth > section.clientWidth)
          .map((section) => `#${section.id} (${section.scrollWidth} px)`);
        return { document: root.scrollWidth, viewport: root.clientWidth, overflowing };
      });
      expect(widths.document, widths.overflowing.join(', ')).toBeLessThanOrEqual(widths.viewport);
      await page.context().close();
    });
  }
});
