// The HTML report opened in headless Chromium (Debian's `chromium`): it loads with no console
// error, fetches nothing, runs no script, and shows every plot at a real size. Where no Chromium
// is installed the suite is skipped and says so; CI sets LADDER_REQUIRE_CHROMIUM=1, which makes
// a missing browser a failure there. LADDER_CHROMIUM names another binary.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareOutput, runReportHtml } from '../../src/report/output.ts';
import { tempDir } from './runBuilder.ts';

const CHROMIUM = process.env.LADDER_CHROMIUM || '/usr/bin/chromium';
const REQUIRED = process.env.LADDER_REQUIRE_CHROMIUM === '1';
const SKIPPED = !existsSync(CHROMIUM) && !REQUIRED;
const WHY = `no Chromium at ${CHROMIUM}; install Debian's chromium (apt-get install chromium) or set LADDER_CHROMIUM to run it`;
// Said where a reader of the test output looks, not only as a count of skipped tests.
if (SKIPPED) process.stderr.write(`test/report/html.test.ts: the HTML report was NOT opened in a browser: ${WHY}\n`);
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
const PLOTS = ['pass-rates', 'forest', 'waste', 'time-to-answer'];
const SLOW = 90_000; // a cold Chromium and Vega's first load on a busy 2-core machine

let tmp: ReturnType<typeof tempDir>;
let context: BrowserContext;
const pages: Record<string, string> = {};

describe.skipIf(SKIPPED)(SKIPPED ? `the HTML report in Chromium: SKIPPED, ${WHY}` : 'the HTML report in Chromium', () => {
  beforeAll(async () => {
    // Required (CI): a report nobody could open must not pass unseen.
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found and LADDER_REQUIRE_CHROMIUM=1: ${WHY}`);
    tmp = tempDir('ladder-html-');
    pages.compare = join(tmp.dir, 'compare.html');
    pages.report = join(tmp.dir, 'report.html');
    writeFileSync(pages.compare, (await compareOutput('test/fixtures/runs/before', 'test/fixtures/runs/after', { format: 'html' })).text);
    writeFileSync(pages.report, await runReportHtml('test/fixtures/runs/before'));
    // A fresh profile: nothing from another session can change what loads.
    context = await chromium.launchPersistentContext(join(tmp.dir, 'profile'), { executablePath: CHROMIUM, headless: true, args: ARGS });
  }, SLOW);

  afterAll(async () => {
    await context?.close();
    tmp?.remove();
  });

  it.each(['compare', 'report'])('%s.html loads with no console error or request and shows every plot', async (name) => {
    const page = await context.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    page.on('pageerror', (e) => void errors.push(e.message));
    page.on('request', (r) => void requests.push(r.url()));
    const url = pathToFileURL(pages[name]!).href;
    await page.goto(url, { waitUntil: 'load' });

    expect(errors).toEqual([]);
    expect(requests).toEqual([url]);
    expect(await page.locator('script').count()).toBe(0);
    await expect(page.locator('p.notice').textContent()).resolves.toContain('do not measure any model');
    for (const id of PLOTS) {
      const svg = page.locator(`figure#${id} > svg`);
      expect(await svg.count(), id).toBe(1);
      const box = await svg.boundingBox();
      expect(box?.width, id).toBeGreaterThan(100);
      expect(box?.height, id).toBeGreaterThan(30);
      // Drawn marks, not an empty frame: Vega puts each mark's shapes in a group of its own.
      expect(await svg.locator('path, line, rect, circle, text').count(), id).toBeGreaterThan(10);
    }
    await page.close();
  }, SLOW);

  it('opens a pass\'s transcript from its cell in the grid, and the arms of a pass side by side', async () => {
    const path = join(tmp.dir, 'after.html');
    writeFileSync(path, await runReportHtml('test/fixtures/runs/after'));
    const page = await context.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    page.on('pageerror', (e) => void errors.push(e.message));
    page.on('request', (r) => void requests.push(r.url()));
    const url = pathToFileURL(path).href;
    await page.goto(url, { waitUntil: 'load' });
    const on0 = page.locator('article#t-0-0-0');
    const off0 = page.locator('article#t-0-1-0');
    expect(await on0.isVisible()).toBe(false);

    await page.locator('table#g-0 a[href="#t-0-0-0"]').click();
    expect(await on0.isVisible()).toBe(true);
    expect(await off0.isVisible()).toBe(false);
    await expect(on0.locator('h4').textContent()).resolves.toBe('dead-browser, arm on, pass 0: failed');
    await expect(on0.textContent()).resolves.toContain('refused by the breaker: the identical call failed at round 0 of this step; not sent');
    const box = await on0.boundingBox();
    expect(box?.height).toBeGreaterThan(200);

    await page.locator('table#g-0 a[href="#p-0-0"]').click();
    expect(await on0.isVisible()).toBe(true);
    expect(await off0.isVisible()).toBe(true);
    const [left, right] = [await on0.boundingBox(), await off0.boundingBox()];
    expect(right!.x).toBeGreaterThan(left!.x + left!.width / 2); // side by side, not one under the other
    const marks = page.locator('section#p-0-0 .mk');
    expect(await marks.count()).toBe(2);
    await expect(marks.first().textContent()).resolves.toContain('First difference from off: workbench__browser_open: failed on off, refused by the breaker on on.');
    expect(await page.locator('script').count()).toBe(0);
    expect(errors).toEqual([]);
    expect(requests).toEqual([url]);
    await page.close();
  }, SLOW);
});
