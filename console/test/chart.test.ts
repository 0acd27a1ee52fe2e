// The pages with a chart (Kiosk, Reports) in a browser whose language Intl refuses: the chart's library cannot
// load there, and the pages must still show their figures (the chart drawn is in fleet.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { browserOfFile, consoleUrl, goTo, seriousViolations } from './browser.ts';
import { dayFiguresCounted, memberWithDeposit } from './data.ts';

const { operatorPage } = browserOfFile();

test('Kiosk and Reports show their figures without a chart where Intl refuses the language (en-US@posix)', async () => {
  const { kiosk } = await memberWithDeposit({ plasticCount: 3, metalCount: 2 });
  await dayFiguresCounted(kiosk.id, 1);
  // What Chromium reports under a POSIX LANG when nothing sets a locale.
  const { page, context } = await operatorPage({ locale: 'en-US@posix' });
  assert.equal(await page.evaluate(() => navigator.language), 'en-US@posix');
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const today = new Date().toISOString().slice(0, 10);
  const todaysCells = async (table: string) => {
    const row = page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: today });
    await row.waitFor();
    return row.getByRole('cell').allInnerTexts();
  };
  const chartUnavailable = page.getByText('Chart unavailable in this browser');

  await page.goto(consoleUrl(`/kiosks/${kiosk.id}`));
  await page.getByRole('heading', { level: 1, name: `Kiosk ${kiosk.id}` }).waitFor();
  await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
  await chartUnavailable.waitFor();
  await page.getByText('The figures as a table').click();
  const kioskCells = await todaysCells('Last 30 days');
  assert.ok(kioskCells.includes('1') && kioskCells.includes('5'), `1 transaction, 5 items in ${kioskCells}`);
  assert.equal(await page.locator('canvas').count(), 0);

  await goTo(page, 'Reports');
  await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
  await page.getByLabel('From').fill(today);
  await page.getByLabel('To').fill(today);
  await page.getByLabel('Kiosk').selectOption(kiosk.id);
  await page.getByRole('button', { name: 'Show report' }).click();
  const reportCells = await todaysCells('Report');
  assert.ok(reportCells.includes('1') && reportCells.includes('5'), `1 transaction, 5 items in ${reportCells}`);
  await chartUnavailable.waitFor();
  assert.equal(await page.locator('canvas').count(), 0);
  assert.deepEqual(await seriousViolations(page), []);

  assert.deepEqual(pageErrors, []);
  await context.close();
});
