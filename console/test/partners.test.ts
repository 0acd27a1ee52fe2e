// Partners (contract §11, §12): a partner and its key made in the console check and use a voucher on the API.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { api, launchBrowser, newAccount, operatorPage, seedKiosk, seriousViolations, uniqueId } from './browser.ts';

let browser: Browser;
before(async () => (browser = await launchBrowser()));
after(() => browser?.close());

const navigate = (page: import('playwright-core').Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

test('Partners: a partner and a key made in the console check and use a voucher of its reward; revoked, refused', async () => {
  const { page, context } = await operatorPage(browser);
  await navigate(page, 'Partners');
  await page.getByRole('heading', { level: 1, name: 'Partners' }).waitFor();
  const partnerId = uniqueId('cafe');
  await page.getByRole('button', { name: 'New partner' }).click();
  await page.getByLabel('Id', { exact: true }).fill(partnerId);
  await page.getByLabel('Name').fill('Café Test');
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByRole('button', { name: 'Save partner' }).dblclick();
  await page.getByRole('table', { name: 'Partners' }).getByRole('row').filter({ hasText: partnerId }).waitFor();

  const label = uniqueId('till');
  await page.getByLabel('Key label').fill(label);
  await page.getByRole('button', { name: 'Create key' }).dblclick();
  const shown = page.getByLabel('New API key');
  await shown.waitFor();
  const key = await shown.inputValue();
  assert.match(key, /^krp_/);
  await page.getByRole('button', { name: 'Copy key' }).waitFor();
  assert.deepEqual(await seriousViolations(page), []);

  // The Rewards form names the partner.
  await navigate(page, 'Rewards');
  const rewardId = uniqueId('coffee');
  await page.getByRole('button', { name: 'New reward' }).click();
  await page.getByLabel('Id', { exact: true }).fill(rewardId);
  await page.getByLabel('Name').fill('Coffee at Café Test');
  await page.getByLabel('Cost').fill('10');
  await page.getByLabel('Kind').selectOption('voucher');
  await page.getByLabel('Partner').selectOption(partnerId);
  await page.getByLabel('Valid days').fill('30');
  await page.getByRole('button', { name: 'Save reward' }).click();
  await page.getByRole('status').filter({ hasText: 'created' }).waitFor();
  const catalog = await api<{ rewards: { id: string; partnerId: string | null; validDays: number }[] }>(
    '/admin/rewards',
  );
  const reward = catalog.body.rewards.find((each) => each.id === rewardId);
  assert.deepEqual({ partnerId: reward?.partnerId, validDays: reward?.validDays }, { partnerId, validDays: 30 });

  // A member with points from a deposit (the award provisions the profile) redeems a voucher of the reward.
  const member = await newAccount(false);
  const kiosk = await seedKiosk();
  const deposit = await api('/kiosk/transaction', {
    headers: { 'X-API-Key': kiosk.apiKey },
    body: { kioskId: kiosk.id, userId: member.uid, plasticCount: 10, metalCount: 0 },
  });
  assert.equal(deposit.status, 200, JSON.stringify(deposit.body));
  const redeemed = await api<{ redemption: { code: string } }>(`/user/${member.uid}/redemptions`, {
    headers: { 'Idempotency-Key': uniqueId('redeem') },
    body: { rewardId },
  });
  assert.equal(redeemed.status, 201, JSON.stringify(redeemed.body));
  const { code } = redeemed.body.redemption;
  const asPartner = { 'X-API-Key': key };
  const checked = await api(`/partner/vouchers/${code.toLowerCase()}`, { headers: asPartner });
  assert.equal(checked.status, 200, JSON.stringify(checked.body));
  const used = await api<{ voucher: { status: string } }>(`/partner/vouchers/${code}/use`, {
    method: 'POST',
    headers: asPartner,
  });
  assert.equal(used.body.voucher.status, 'used');

  await navigate(page, 'Partners');
  await page.getByRole('button', { name: 'Edit Café Test' }).click();
  await page.getByRole('button', { name: `Revoke key ${label}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Revoke key', exact: true }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /revoked/i })
    .waitFor();
  assert.equal((await api(`/partner/vouchers/${code}`, { headers: asPartner })).status, 401);
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});
