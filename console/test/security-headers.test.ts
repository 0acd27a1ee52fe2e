// What Hosting answers the console with (contract, part four: the console never renders data as HTML, and is
// served with a Content-Security-Policy), and every page working under that policy, on a desktop and on a phone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { waitFor } from '../../functions/test/harness/wait.ts';
import { browserOfFile, consoleUrl, signIn } from './browser.ts';
import { emulatorsFound, memberWithDeposit, newAccount } from './data.ts';

const { newPage } = browserOfFile();

/** The policy's directives: name → sources. */
function directives(policy: string): Map<string, string[]> {
  const parsed = policy
    .split(';')
    .map((directive) => directive.trim().split(/\s+/))
    .filter(([name]) => name);
  return new Map(parsed.map(([name, ...sources]) => [name, sources]));
}

test('Hosting serves every path of the console with its Content-Security-Policy, nosniff and no-referrer', async () => {
  await emulatorsFound();
  const index = await (await fetch(consoleUrl('/'))).text();
  const script = /<script type="module" crossorigin src="([^"]+)"/.exec(index)?.[1];
  assert.ok(script, `the console's script in ${index}`);
  for (const path of ['/', '/fleet', '/kiosks/some-kiosk', script]) {
    const answer = await fetch(consoleUrl(path));
    assert.equal(answer.status, 200, path);
    assert.equal(answer.headers.get('x-content-type-options'), 'nosniff', path);
    assert.equal(answer.headers.get('referrer-policy'), 'no-referrer', path);
    const policy = directives(answer.headers.get('content-security-policy') ?? '');
    assert.deepEqual(policy.get('default-src'), ["'self'"], path);
    assert.deepEqual(policy.get('script-src'), ["'self'"], path);
    assert.deepEqual(policy.get('style-src'), ["'self'"], path);
    assert.deepEqual(policy.get('object-src'), ["'none'"], path);
    assert.deepEqual(policy.get('frame-ancestors'), ["'none'"], path);
    assert.deepEqual(policy.get('base-uri'), ["'none'"], path);
  }
});

/**
 * What goes wrong on the context's pages from now on: each Content-Security-Policy violation (reported by the page
 * through a binding, which the policy does not govern), error on the console and uncaught error.
 */
async function problemsOf(context: BrowserContext, page: Page): Promise<string[]> {
  const problems: string[] = [];
  await context.exposeBinding('reportViolation', (_source, text: string) => problems.push(`CSP violation: ${text}`));
  await context.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportViolation(text: string): void }).reportViolation(
        `${event.effectiveDirective} refused ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`,
      ),
    ),
  );
  page.on('console', (message) => message.type() === 'error' && problems.push(`console error: ${message.text()}`));
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

test('the policy is in force: markup put into a page runs no script, and the browser reports it', async () => {
  const { page, context } = await newPage();
  const problems = await problemsOf(context, page);
  await page.goto(consoleUrl('/sign-in'));
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  // What a page that rendered data as HTML would do: an inline script, an inline handler, a script of elsewhere.
  await page.evaluate(() => {
    const inline = document.createElement('script');
    inline.textContent = 'window.injected = "inline script"';
    document.body.append(inline);
    document.body.insertAdjacentHTML('beforeend', '<img src="/x" onerror="window.injected = \'handler\'">');
    const foreign = document.createElement('script');
    foreign.src = 'https://scripts.example/x.js';
    document.body.append(foreign);
  });
  // Each refusal is reported: the inline script, the handler (once its image failed) and the script of elsewhere.
  await waitFor(
    'three refused scripts reported',
    async () => problems.filter((problem) => problem.startsWith('CSP violation: script-src')).length >= 3 || undefined,
    10_000,
    async () => `the page reported ${JSON.stringify(problems)}`,
  );
  assert.equal(await page.evaluate(() => (window as { injected?: string }).injected), undefined, 'no script ran');
  await context.close();
});

/** A phone's browser, as Firebase Auth tells one (it prepares sign-in by redirect there at once). */
const PHONE = {
  viewport: { width: 360, height: 740 },
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
};
const DESKTOP = { viewport: { width: 1280, height: 800 } };

test('every page of the console works under the policy, on a desktop and on a phone: no violation, no error', async () => {
  const { uid, kiosk } = await memberWithDeposit({ plasticCount: 2, metalCount: 1 });
  const pages: [path: string, heading: string, use?: (page: Page) => Promise<void>][] = [
    ['/fleet', 'Fleet', openMarker],
    [`/kiosks/${kiosk.id}`, `Kiosk ${kiosk.id}`, chartDrawn],
    ['/alerts', 'Alerts'],
    [
      '/reports',
      'Reports',
      async (page) => {
        await page.getByRole('button', { name: 'Show report' }).click();
        await chartDrawn(page);
      },
    ],
    ['/rewards', 'Rewards'],
    ['/users', 'Users'],
    [`/users/${uid}`, `User ${uid}`],
    ['/campaigns', 'Campaigns'],
    ['/webhooks', 'Webhooks'],
    ['/partners', 'Partners'],
    ['/no-such-page', 'Page not found'],
  ];
  for (const [device, options] of Object.entries({ desktop: DESKTOP, phone: PHONE })) {
    const { page, context } = await newPage(options);
    const problems = await problemsOf(context, page);
    await page.goto(consoleUrl('/sign-in'));
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await screenshot(page, `${device}-sign-in`);
    await signIn(page, await newAccount(true));
    await page.getByRole('heading', { level: 1, name: 'Fleet' }).waitFor();
    for (const [path, heading, use] of pages) {
      await page.goto(consoleUrl(path));
      await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
      // Loaded, and none of its data failed.
      await page.waitForFunction(() => !document.querySelector('.loading'));
      assert.deepEqual(await page.getByRole('alert').allInnerTexts(), [], `${path} on the ${device}`);
      await use?.(page);
      await screenshot(page, `${device}-${path.split('/')[1]}${path.split('/').length > 2 ? '-one' : ''}`);
    }
    assert.deepEqual(problems, [], `on the ${device}`);
    await context.close();
  }
});

/** Opens the first kiosk's tooltip and popup on the Fleet map (Leaflet positions both with inline styles). */
async function openMarker(page: Page) {
  const marker = page.getByRole('region', { name: 'Map of kiosks' }).locator('.leaflet-interactive').first();
  await marker.dispatchEvent('mouseover');
  await page.locator('.leaflet-tooltip').waitFor();
  await marker.dispatchEvent('click');
  await page.locator('.leaflet-popup').waitFor();
}

/** Waits for a chart of day figures (uPlot, loaded when drawn, styles its canvas inline). */
const chartDrawn = (page: Page) => page.locator('figure.chart canvas').first().waitFor();

/** What the browser saw, for a person to look at. */
const screenshot = (page: Page, name: string) =>
  page.screenshot({
    path: fileURLToPath(new URL(`../../.cache/screenshots/pages/${name}.png`, import.meta.url)),
    fullPage: true,
  });
