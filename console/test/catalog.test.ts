// Rewards (whole catalog, create, edit), Reports (chart, table, CSV), Alerts, Campaigns (contract §11).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { idTokenFor } from '../../functions/test/harness/auth.ts';
import { browserOfFile, fillIn, goTo, seriousViolations } from './browser.ts';
import {
  api,
  dayFiguresCounted,
  firestoreDocuments,
  memberWithDeposit,
  newAccount,
  seedKiosk,
  uniqueId,
} from './data.ts';

const { operatorPage } = browserOfFile();

test('Rewards: an operator creates a reward, then edits it to inactive, and it stays in the catalog', async () => {
  const { page, context } = await operatorPage();
  await goTo(page, 'Rewards');
  const id = uniqueId('cinema');
  await page.getByRole('button', { name: 'New reward' }).click();
  await fillIn(page, { Id: id, Name: 'Cinema ticket', Cost: '400', Kind: 'voucher', Stock: '10' });
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByRole('button', { name: 'Save reward' }).dblclick();
  const row = page.getByRole('table', { name: 'Rewards' }).getByRole('row').filter({ hasText: id });
  await row.waitFor();

  await page.getByRole('button', { name: 'Edit Cinema ticket' }).click();
  await page.getByLabel('Active').uncheck();
  await page.getByRole('button', { name: 'Save reward' }).click();
  await page.getByRole('status').waitFor();
  const catalog = await api<{ rewards: { id: string; active: boolean; cost: number }[] }>('/admin/rewards');
  assert.deepEqual(
    catalog.body.rewards.filter((reward) => reward.id === id).map(({ active, cost }) => ({ active, cost })),
    [{ active: false, cost: 400 }],
  );
  await row.waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});

test('Reports: a range gives a chart and a table per day, and the same figures as a CSV file', async () => {
  const { kiosk } = await memberWithDeposit({ plasticCount: 4, metalCount: 1 });
  await dayFiguresCounted(kiosk.id, 1);
  const { page, context } = await operatorPage();
  await goTo(page, 'Reports');
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel('From').fill(today);
  await page.getByLabel('To').fill(today);
  await page.getByLabel('Kiosk').selectOption(kiosk.id);
  await page.getByRole('button', { name: 'Show report' }).click();
  await page.getByRole('table', { name: 'Report' }).getByRole('row').filter({ hasText: today }).waitFor();
  assert.deepEqual(await seriousViolations(page), []);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  assert.equal(file.suggestedFilename(), `kiosk-report-${today}-${today}.csv`);
  const csv = await readFile((await file.path())!, 'utf8');
  const fromApi = await api<string>(
    `/admin/reports/kiosk-days?from=${today}&to=${today}&kioskId=${kiosk.id}&format=csv`,
  );
  assert.equal(csv, fromApi.body);
  assert.ok(csv.includes(kiosk.id));
  await context.close();
});

test('Reports: a range over 92 days is refused with a message', async () => {
  const { page, context } = await operatorPage();
  await goTo(page, 'Reports');
  await page.getByLabel('From').fill('2026-01-01');
  await page.getByLabel('To').fill('2026-06-30');
  await page.getByRole('button', { name: 'Show report' }).click();
  await page
    .getByRole('alert')
    .filter({ hasText: /92 days/ })
    .waitFor();
  await context.close();
});

test('Alerts: open alerts newest first, and all alerts with the switch', async () => {
  const kiosk = await seedKiosk();
  await api(`/kiosk/${kiosk.id}/status`, {
    headers: { 'X-API-Key': kiosk.apiKey },
    body: { status: 'available', errorCode: 'E77' },
  });
  const { page, context } = await operatorPage();
  await goTo(page, 'Alerts');
  const table = page.getByRole('table', { name: 'Alerts' });
  await table.getByRole('row').filter({ hasText: kiosk.id }).first().waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  // Cleared: the alert resolves, and leaves the open list but not the whole list.
  await api(`/kiosk/${kiosk.id}/status`, {
    headers: { 'X-API-Key': kiosk.apiKey },
    body: { status: 'available', errorCode: null },
  });
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
  await page.getByLabel('Show all alerts').check();
  await table.getByRole('row').filter({ hasText: kiosk.id }).first().waitFor();
  await context.close();
});

test('Campaigns: a push to a topic and to one user each reach the push outbox once', async () => {
  const member = await newAccount(false);
  const memberToken = await idTokenFor(member.uid);
  const pushToken = uniqueId('device-token');
  const registered = await api(`/user/${member.uid}/push-token`, {
    method: 'PUT',
    token: memberToken,
    body: { token: pushToken },
  });
  assert.equal(registered.status, 200, JSON.stringify(registered.body));
  const { page, context } = await operatorPage();
  await goTo(page, 'Campaigns');
  const title = `Double points ${uniqueId('weekend')}`;
  await page.getByLabel('A topic').check();
  await page.getByLabel('Topic', { exact: true }).fill('all_users');
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Body').fill('Bring your bottles');
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByRole('button', { name: 'Send push' }).dblclick();
  await page.getByRole('status').waitFor();

  await page.getByLabel('One user').check();
  await page.getByLabel('User id', { exact: true }).fill(member.uid);
  await page.getByRole('button', { name: 'Send push' }).click();
  await page.getByRole('status').filter({ hasText: /sent/i }).waitFor();
  const sent = (await firestoreDocuments('pushOutbox')).filter((doc) => JSON.stringify(doc).includes(title));
  assert.equal(
    sent.filter((doc) => JSON.stringify(doc).includes('all_users')).length,
    1,
    'a double-click sends one push',
  );
  assert.equal(sent.filter((doc) => JSON.stringify(doc).includes(pushToken)).length, 1);
  await context.close();
});
