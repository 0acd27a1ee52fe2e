// Promotions (contract §16): a promotion made in the console doubles a simulated deposit, shows what it gave
// against its budget, and is deactivated; the page is axe-clean on a desktop and at 360 px.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { browserOfFile, fillIn, goTo, seriousViolations } from './browser.ts';
import { api, seedKiosk, uniqueId } from './data.ts';

const { operatorPage } = browserOfFile();

test('Promotions: create, simulate, edit and deactivate a promotion; points given against its budget', async () => {
  const kiosk = await seedKiosk();
  const { page, context } = await operatorPage();
  await goTo(page, 'Promotions');
  await page.getByRole('heading', { level: 1, name: 'Promotions' }).waitFor();
  const id = uniqueId('double');
  const name = `Double ${id}`;
  await page.getByRole('button', { name: 'New promotion' }).click();
  // Only at this test's kiosk: other tests' deposits stay as they are.
  await fillIn(page, { Id: id, Name: name, Multiplier: '2', 'Kiosk ids': kiosk.id, 'Budget points': '100' });
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByRole('button', { name: 'Save promotion' }).dblclick();
  await page.getByRole('status').filter({ hasText: 'created' }).waitFor();
  const row = page.getByRole('table', { name: 'Promotions' }).getByRole('row').filter({ hasText: id });
  await row.filter({ hasText: '0 of 100' }).waitFor();
  // No window and no hours: said as such, not as "Open to open".
  assert.match(await row.innerText(), /\tAny time\t/);

  await fillIn(page, { 'Kiosk id': kiosk.id, 'Plastic items': '3', 'Metal items': '0' });
  await page.getByRole('button', { name: 'Simulate' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `60 points (base 30 + ${name} 30)` })
    .waitFor();

  // A bad field is the API's sentence, naming it.
  await fillIn(page, { Multiplier: '2.25' });
  await page.getByRole('button', { name: 'Save promotion' }).click();
  await page.getByRole('alert').filter({ hasText: 'multiplier must have at most one decimal' }).waitFor();
  await fillIn(page, { Multiplier: '1.5' });
  await page.getByRole('button', { name: 'Save promotion' }).click();
  await page.getByRole('status').filter({ hasText: 'saved' }).waitFor();
  await row.filter({ hasText: '× 1.5' }).waitFor();

  await page.getByRole('button', { name: `Deactivate ${name}` }).click();
  await page.getByRole('status').filter({ hasText: 'deactivated' }).waitFor();
  const listed = await api<{ promotions: { id: string; active: boolean; multiplier: number }[] }>('/admin/promotions');
  const stored = listed.body.promotions.find((promotion) => promotion.id === id);
  assert.deepEqual({ active: stored?.active, multiplier: stored?.multiplier }, { active: false, multiplier: 1.5 });
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});

test('Promotions is usable at 360 px: nothing wider than the screen but the table', async () => {
  const id = uniqueId('long');
  const name = `A promotion named at length for the first bottles of new members ${id}`;
  assert.equal((await api('/admin/promotions', { body: { id, name, bonusPoints: 5, active: false } })).status, 201);
  const { page, context } = await operatorPage({ viewport: { width: 360, height: 740 } });
  await goTo(page, 'Promotions');
  await page.getByRole('heading', { level: 1, name: 'Promotions' }).waitFor();
  // The row's buttons name it for a screen reader (its name heads the row already), so they stay short on a phone.
  const edit = page.getByRole('button', { name: `Edit ${name}` });
  await edit.waitFor();
  assert.deepEqual(await edit.locator('.visually-hidden').allInnerTexts(), [name]);
  await page.getByRole('button', { name: 'New promotion' }).click();
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(pageWidth <= 360, `the page is ${pageWidth} px wide at 360 px`);
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});
