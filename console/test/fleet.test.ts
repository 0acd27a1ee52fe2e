// Fleet (table + map) and Kiosk (details, keys, 30-day chart) (contract §11).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { browserOfFile, createKey, seriousViolations } from './browser.ts';
import { api, dayFiguresCounted, memberWithDeposit, seedKiosk, uniqueId } from './data.ts';

const { operatorPage, operatorPageAt } = browserOfFile();

const fleetRow = (page: import('playwright-core').Page, kioskId: string) =>
  page.getByRole('table', { name: 'Kiosks' }).getByRole('row').filter({ hasText: kioskId });

test('Fleet lists every kiosk with its telemetry, filters by status and open alert, and maps them', async () => {
  const full = await seedKiosk({ name: 'Full bin kiosk' });
  const fine = await seedKiosk({ name: 'Quiet kiosk', latitude: 52.1, longitude: 5.1 });
  const reported = await api(`/kiosk/${full.id}/status`, {
    headers: { 'X-API-Key': full.apiKey },
    body: { status: 'maintenance', fillLevel: { plastic: 95, metal: 10 }, firmwareVersion: '2.4.1', errorCode: 'E42' },
  });
  assert.equal(reported.status, 200, JSON.stringify(reported.body));
  const { page, context } = await operatorPage();
  await page.reload();

  const row = fleetRow(page, full.id);
  await row.waitFor();
  const text = await row.innerText();
  for (const shown of ['Full bin kiosk', 'maintenance', '95', '2.4.1', 'E42'])
    assert.ok(text.includes(shown), `${shown} in «${text}»`);

  await page.getByLabel('Status').selectOption('maintenance');
  await fleetRow(page, full.id).waitFor();
  assert.equal(await fleetRow(page, fine.id).count(), 0);
  await page.getByLabel('Status').selectOption({ label: 'All' });
  await page.getByLabel('Open alert').selectOption({ label: 'Without open alerts' });
  await fleetRow(page, fine.id).waitFor();
  assert.equal(await fleetRow(page, full.id).count(), 0);
  await page.getByLabel('Open alert').selectOption({ label: 'With open alerts' });
  await fleetRow(page, full.id).waitFor();

  const map = page.getByRole('region', { name: 'Map of kiosks' });
  await map.waitFor();
  assert.ok((await map.locator('.leaflet-interactive').count()) >= 1, 'the map draws the kiosks as markers');
  assert.deepEqual(await seriousViolations(page), []);
  // What the browser saw, for a person to look at (docs/console-fleet.png is one of these).
  await page.screenshot({ path: fileURLToPath(new URL('../../.cache/screenshots/fleet.png', import.meta.url)) });

  await fleetRow(page, full.id).getByRole('link', { name: full.id }).click();
  await page.getByRole('heading', { level: 1, name: `Kiosk ${full.id}` }).waitFor();
  await context.close();
});

/** Names that are markup: each runs a script if a page parses it as HTML (an image that fails, an SVG that loads). */
const HOSTILE_NAMES = [
  '<img src=x onerror="window.injected = 1">',
  '"><svg onload="window.injected = 2"><b>bold</b> &amp; co',
];

/** The text of every marker's tooltip on the Fleet map, each marker pointed at in turn. */
async function mapTooltips(page: import('playwright-core').Page): Promise<string[]> {
  const markers = page.getByRole('region', { name: 'Map of kiosks' }).locator('.leaflet-interactive');
  const texts: string[] = [];
  for (let marker = 0; marker < (await markers.count()); marker++) {
    await markers.nth(marker).dispatchEvent('mouseover');
    // Leaflet names the open tooltip in the marker's aria-describedby.
    const tooltip = await markers.nth(marker).getAttribute('aria-describedby');
    texts.push((await page.locator(`[id="${tooltip}"]`).textContent()) ?? '');
  }
  return texts;
}

test("a kiosk's name is text on the Fleet map, in its table and on the Kiosk page: markup in it never runs", async () => {
  const kiosks = await Promise.all(HOSTILE_NAMES.map((name) => seedKiosk({ name })));
  const { page, context } = await operatorPage();
  await page.reload();
  for (const [index, kiosk] of kiosks.entries()) {
    const name = HOSTILE_NAMES[index];
    const row = fleetRow(page, kiosk.id);
    await row.waitFor();
    assert.ok((await row.innerText()).includes(name), `the table shows «${name}» in «${await row.innerText()}»`);
  }
  const tooltips = await mapTooltips(page);
  for (const name of HOSTILE_NAMES)
    assert.ok(
      tooltips.some((text) => text.startsWith(`${name} (`)),
      `a tooltip shows «${name}» among ${JSON.stringify(tooltips)}`,
    );

  await fleetRow(page, kiosks[0].id).getByRole('link', { name: kiosks[0].id }).click();
  await page.getByRole('heading', { level: 1, name: `Kiosk ${kiosks[0].id}` }).waitFor();
  await page.getByText(HOSTILE_NAMES[0], { exact: true }).waitFor();

  // Nothing became an element with a handler, and no handler ran.
  assert.equal(await page.locator('[onerror], [onload]').count(), 0, 'no element was made from a name');
  assert.equal(await page.evaluate(() => (window as { injected?: number }).injected), undefined);
  await context.close();
});

test('Fleet sorts by a column and pages the table', async () => {
  // Fleet shows 25 kiosks a page: a fleet of 26 has a second page.
  const fleet = await api<{ kiosks: unknown[] }>('/admin/kiosks');
  for (let kiosks = fleet.body.kiosks.length; kiosks < 26; kiosks++) await seedKiosk();
  const { page, context } = await operatorPage();
  const header = page.getByRole('columnheader', { name: /Name/ });
  await header.getByRole('button').click();
  assert.match((await header.getAttribute('aria-sort')) ?? '', /ascending|descending/);

  const rows = page.getByRole('table', { name: 'Kiosks' }).getByRole('row');
  const firstPage = await rows.allInnerTexts();
  const pager = page.getByRole('group', { name: 'Kiosks pages' });
  assert.equal(await pager.getByRole('button', { name: 'Previous page' }).isDisabled(), true);
  await pager.getByRole('button', { name: 'Next page' }).click();
  await pager.getByText('Page 2').waitFor();
  const secondPage = await rows.allInnerTexts();
  assert.ok(secondPage.length > 1, 'the second page lists kiosks');
  // Only the header row is on both pages.
  assert.deepEqual(
    secondPage.filter((row) => firstPage.includes(row)),
    [firstPage[0]],
  );
  await pager.getByRole('button', { name: 'Previous page' }).click();
  await pager.getByText('Page 1').waitFor();
  await context.close();
});

test('Fleet is usable at 360 px: nothing wider than the screen but the table, which scrolls in its own box', async () => {
  await seedKiosk();
  const { page, context } = await operatorPage({ viewport: { width: 360, height: 740 } });
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(pageWidth <= 360, `the page is ${pageWidth} px wide at 360 px`);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});

test('a key is created and shown once, works on the API, and is refused once revoked after a confirmation', async () => {
  const kiosk = await seedKiosk();
  const { page, context } = await operatorPageAt(`/kiosks/${kiosk.id}`, `Kiosk ${kiosk.id}`);

  const label = uniqueId('till');
  const apiKey = await createKey(page, label);
  assert.match(apiKey, /^kr_/);
  const keys = await api<{ keys: { label: string; revokedAt: string | null }[] }>(`/admin/kiosks/${kiosk.id}/keys`);
  assert.equal(keys.body.keys.filter((key) => key.label === label).length, 1, 'a double-click creates one key');

  const status = { status: 'available', fillLevel: { plastic: 10 } };
  const accepted = await api(`/kiosk/${kiosk.id}/status`, { headers: { 'X-API-Key': apiKey }, body: status });
  assert.equal(accepted.status, 200);

  await page.getByRole('button', { name: `Revoke key ${label}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
  await dialog.waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await dialog.getByRole('button', { name: 'Revoke key', exact: true }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /revoked/i })
    .waitFor();
  const refused = await api(`/kiosk/${kiosk.id}/status`, { headers: { 'X-API-Key': apiKey }, body: status });
  assert.equal(refused.status, 401);
  // The key is shown once: after a reload only its label and id remain.
  await page.reload();
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  assert.equal(await page.getByLabel('New API key').count(), 0);
  await context.close();
});

test("the kiosk's last 30 days: today's transactions, items and points in the chart's table", async () => {
  const { kiosk } = await memberWithDeposit({ plasticCount: 3, metalCount: 2 });
  await dayFiguresCounted(kiosk.id, 1);
  const { page, context } = await operatorPageAt(`/kiosks/${kiosk.id}`, `Kiosk ${kiosk.id}`);
  await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
  const today = new Date().toISOString().slice(0, 10);
  await page.getByText('The figures as a table').click();
  const table = page.getByRole('table', { name: 'Last 30 days' });
  const row = table.getByRole('row').filter({ hasText: today });
  await row.waitFor();
  const cells = await row.getByRole('cell').allInnerTexts();
  assert.ok(cells.includes('1') && cells.includes('5'), `1 transaction, 5 items in ${JSON.stringify(cells)}`);
  // The chart is drawn once uPlot, loaded on first use, has arrived: the canvas is its image.
  await page.getByRole('img', { name: 'Last 30 days chart: transactions, items and points per day' }).waitFor();
  assert.ok(await page.locator('canvas').count(), 'a chart is drawn');
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});
