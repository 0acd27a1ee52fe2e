// Partners (contract §11, §12): a partner and its key made in the console check and use a voucher on the API.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { browserOfFile, createKey, fillIn, goTo, seriousViolations } from './browser.ts';
import { api, memberWithDeposit, uniqueId } from './data.ts';

const { operatorPage } = browserOfFile();

test('Partners: a partner and a key made in the console check and use a voucher of its reward; revoked, refused', async () => {
  const { page, context } = await operatorPage();
  await goTo(page, 'Partners');
  await page.getByRole('heading', { level: 1, name: 'Partners' }).waitFor();
  const partnerId = uniqueId('cafe');
  await page.getByRole('button', { name: 'New partner' }).click();
  await fillIn(page, { Id: partnerId, Name: 'Café Test' });
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByRole('button', { name: 'Save partner' }).dblclick();
  await page.getByRole('table', { name: 'Partners' }).getByRole('row').filter({ hasText: partnerId }).waitFor();

  const label = uniqueId('till');
  const key = await createKey(page, label);
  assert.match(key, /^krp_/);
  assert.deepEqual(await seriousViolations(page), []);

  // The Rewards form names the partner.
  await goTo(page, 'Rewards');
  const rewardId = uniqueId('coffee');
  await page.getByRole('button', { name: 'New reward' }).click();
  await fillIn(page, {
    Id: rewardId,
    Name: 'Coffee at Café Test',
    Cost: '10',
    Kind: 'voucher',
    Partner: partnerId,
    'Valid days': '30',
  });
  await page.getByRole('button', { name: 'Save reward' }).click();
  await page.getByRole('status').filter({ hasText: 'created' }).waitFor();
  const catalog = await api<{ rewards: { id: string; partnerId: string | null; validDays: number }[] }>(
    '/admin/rewards',
  );
  const reward = catalog.body.rewards.find((each) => each.id === rewardId);
  assert.deepEqual({ partnerId: reward?.partnerId, validDays: reward?.validDays }, { partnerId, validDays: 30 });

  // A member with points from a deposit redeems a voucher of the reward.
  const member = await memberWithDeposit({ plasticCount: 10, metalCount: 0 });
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

  await goTo(page, 'Partners');
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
