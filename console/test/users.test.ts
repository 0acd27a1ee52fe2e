// Users: find by id or e-mail; profile, history, redemptions; adjust; cancel a redemption (contract §11).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { browserOfFile, goTo, seriousViolations } from './browser.ts';
import { api, memberWithDeposit, uniqueId } from './data.ts';

const { operatorPage, operatorPageAt } = browserOfFile();

/** A member with points from a deposit and a redeemed voucher. */
async function memberWithVoucher() {
  const member = await memberWithDeposit({ plasticCount: 40, metalCount: 0 });
  const rewardId = uniqueId('coffee');
  await api('/admin/rewards', { body: { id: rewardId, name: 'Coffee', cost: 50, kind: 'voucher', stock: null } });
  const redeemed = await api<{ redemption: { id: string; code: string } }>(`/user/${member.uid}/redemptions`, {
    body: { rewardId },
    headers: { 'Idempotency-Key': uniqueId('redeem') },
  });
  assert.equal(redeemed.status, 201, JSON.stringify(redeemed.body));
  return { ...member, redemption: redeemed.body.redemption };
}

const ledgerOf = async (uid: string) =>
  (await api<{ entries: { kind: string; points: number; reason?: string }[] }>(`/user/${uid}/history?limit=100`)).body
    .entries;

test('an operator finds a user by e-mail, sees profile, history and redemptions', async () => {
  const member = await memberWithVoucher();
  const { page, context } = await operatorPage();
  await goTo(page, 'Users');
  await page.getByLabel('User id or email').fill(member.email.toUpperCase());
  await page.getByRole('button', { name: 'Find user' }).click();
  await page.getByRole('heading', { level: 1, name: `User ${member.uid}` }).waitFor();
  await page.getByRole('table', { name: 'History' }).getByRole('row').filter({ hasText: 'earn' }).waitFor();
  await page.getByRole('table', { name: 'Redemptions' }).getByRole('row').filter({ hasText: 'Coffee' }).waitFor();
  // The profile's name is the address's local part (the account has no display name).
  const profile = await page.locator('main dl').first().innerText();
  assert.ok(profile.includes(member.email.split('@')[0]));
  // Points never expire unless the operator sets pointsExpireAfterMonths.
  assert.match(profile, /Expiring\s+None/);
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});

test('an unknown id or address is said so', async () => {
  const { page, context } = await operatorPage();
  await goTo(page, 'Users');
  await page.getByLabel('User id or email').fill('nobody-here@kiosk-rewards.test');
  await page.getByRole('button', { name: 'Find user' }).click();
  await page
    .getByRole('alert')
    .filter({ hasText: /No user/ })
    .waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});

test('an adjustment sent by a double-click is made once, with its reason, and shows in the history', async () => {
  const member = await memberWithVoucher();
  const { page, context } = await operatorPageAt(`/users/${member.uid}`, `User ${member.uid}`);
  const reason = `Lost deposit ${uniqueId('ticket')}`;
  await page.getByLabel('Points').fill('25');
  await page.getByLabel('Reason').fill(reason);
  await page.getByRole('button', { name: 'Adjust points' }).dblclick();
  await page
    .getByRole('status')
    .filter({ hasText: /adjust/i })
    .waitFor();
  await page.getByRole('table', { name: 'History' }).getByRole('row').filter({ hasText: reason }).waitFor();
  const adjustments = (await ledgerOf(member.uid)).filter((entry) => entry.kind === 'adjust');
  assert.deepEqual(
    adjustments.map(({ points, reason: why }) => ({ points, reason: why })),
    [{ points: 25, reason }],
  );
  await context.close();
});

test("the API's refusal of an adjustment is shown as it is, and nothing is written", async () => {
  const member = await memberWithVoucher();
  const { page, context } = await operatorPageAt(`/users/${member.uid}`, `User ${member.uid}`);
  await page.getByLabel('Points').fill('-100000');
  await page.getByLabel('Reason').fill('too much');
  await page.getByRole('button', { name: 'Adjust points' }).click();
  await page.getByRole('alert').waitFor();
  // The API's own sentence: the same request sent to the API straight is refused with it.
  const refused = await api<{ error: string }>(`/admin/users/${member.uid}/adjustments`, {
    body: { points: -100000, reason: 'too much' },
    headers: { 'Idempotency-Key': uniqueId('refused') },
  });
  assert.equal(await page.getByRole('alert').innerText(), refused.body.error);
  assert.equal((await ledgerOf(member.uid)).filter((entry) => entry.kind === 'adjust').length, 0);
  await context.close();
});

test('cancelling a redemption with a reason refunds it once', async () => {
  const member = await memberWithVoucher();
  const { page, context } = await operatorPageAt(`/users/${member.uid}`, `User ${member.uid}`);
  const label = new RegExp(`^Cancel redemption (${member.redemption.code}|${member.redemption.id})$`);
  await page.getByRole('button', { name: label }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Reason').fill('Cafe closed');
  await dialog.getByRole('button', { name: 'Cancel redemption', exact: true }).dblclick();
  await page.getByRole('table', { name: 'Redemptions' }).getByRole('row').filter({ hasText: 'cancelled' }).waitFor();
  const refunds = (await ledgerOf(member.uid)).filter((entry) => entry.kind === 'refund');
  assert.equal(refunds.length, 1);
  assert.equal(refunds[0].points, 50);
  await context.close();
});

test("an operator downloads a user's data, then erases the user after confirming", async () => {
  const member = await memberWithVoucher();
  const { page, context } = await operatorPageAt(`/users/${member.uid}`, `User ${member.uid}`);
  await page.getByRole('heading', { level: 2, name: 'Personal data' }).waitFor();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export data' }).click();
  const file = await download;
  assert.equal(file.suggestedFilename(), `user-${member.uid}-export.json`);
  const exported = JSON.parse(await readFile((await file.path())!, 'utf8'));
  assert.equal(exported.profile.id, member.uid);
  assert.equal(exported.redemptions[0].id, member.redemption.id);

  await page.getByRole('button', { name: 'Erase user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Erase this user?' });
  assert.deepEqual(await seriousViolations(page), []);
  await dialog.getByRole('button', { name: 'Keep user' }).click();
  assert.equal((await api(`/user/${member.uid}`)).status, 200);

  await page.getByRole('button', { name: 'Erase user' }).click();
  await dialog.getByRole('button', { name: 'Erase user' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `User ${member.uid} was erased` })
    .waitFor();
  assert.equal((await api(`/user/${member.uid}`)).status, 404);
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});
