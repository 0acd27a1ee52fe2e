// Trust (contract §17): suspend a user on their page, their deposits wait on the Holds page, release and reject
// them with a reason; a kiosk's suspicious alert is resolved on its page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emulatorsFromEnv } from '../../functions/test/harness/emulators.ts';
import { browserOfFile, goTo, seriousViolations } from './browser.ts';
import { api, memberWithDeposit, uniqueId } from './data.ts';

const { operatorPage, operatorPageAt } = browserOfFile();

type Hold = { transactionId: string; resolution: string | null; reason: string | null };

test('suspend a member, their deposits are held; release one and reject the other on the Holds page', async () => {
  const member = await memberWithDeposit({ plasticCount: 2, metalCount: 0 });
  const userPage = await operatorPageAt(`/users/${member.uid}`, `User ${member.uid}`);
  await userPage.page.getByLabel('Why suspend').fill('Deposits far apart');
  await userPage.page.getByRole('button', { name: 'Suspend user' }).click();
  await userPage.page.getByRole('status').filter({ hasText: 'Suspended' }).waitFor();
  await userPage.page.getByRole('button', { name: 'Unsuspend user' }).waitFor();
  assert.deepEqual(await seriousViolations(userPage.page), []);
  await userPage.context.close();

  const held: string[] = [];
  for (const plasticCount of [3, 4]) {
    const answer = await api<{ transaction: { id: string; status: string } }>('/kiosk/transaction', {
      headers: { 'X-API-Key': member.kiosk.apiKey },
      body: { kioskId: member.kiosk.id, userId: member.uid, plasticCount, metalCount: 0 },
    });
    assert.equal(answer.body.transaction.status, 'held');
    held.push(answer.body.transaction.id);
  }

  for (const viewport of [undefined, { width: 360, height: 740 }]) {
    const { page, context } = await operatorPage(viewport && { viewport });
    await goTo(page, 'Holds');
    await page.getByRole('heading', { level: 1, name: 'Holds' }).waitFor();
    await page.getByRole('button', { name: `Release ${held[1]}` }).waitFor();
    // Only the table scrolls sideways, the page never (its screen-reader-only parts stay inside it).
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(pageWidth <= (viewport?.width ?? 1280), `the page is ${pageWidth} px wide`);
    // The table scrolls rather than squeezing a cell to a word a line: when a hold was made reads on two at most.
    const lines = await page
      .getByRole('rowheader')
      .first()
      .evaluate((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return new Set(Array.from(range.getClientRects()).map((line) => Math.round(line.top))).size;
      });
    assert.ok(lines <= 2, `the time it was held takes ${lines} lines`);
    assert.deepEqual(await seriousViolations(page), []);
    await context.close();
  }

  const { page, context } = await operatorPage();
  await goTo(page, 'Holds');
  const table = page.getByRole('table', { name: 'Holds' });
  const newest = table.getByRole('row').nth(1);
  assert.match(await newest.innerText(), /user-suspended/);
  assert.match(await newest.innerText(), new RegExp(member.uid));

  // The transaction id only names the button for a screen reader: the column shows the verbs.
  const releaseButton = page.getByRole('button', { name: `Release ${held[1]}` });
  assert.deepEqual(await releaseButton.locator('.visually-hidden').allInnerTexts(), [held[1]]);
  await releaseButton.click();
  const release = page.getByRole('dialog', { name: 'Release this hold?' });
  await release.getByLabel('Reason').fill('Checked with the member');
  assert.deepEqual(await seriousViolations(page), []);
  await release.getByRole('button', { name: 'Release hold' }).click();
  await page.getByRole('status').filter({ hasText: 'Released' }).waitFor();

  await page.getByRole('button', { name: `Reject ${held[0]}` }).click();
  const reject = page.getByRole('dialog', { name: 'Reject this hold?' });
  await reject.getByLabel('Reason').fill('Card shared');
  await reject.getByRole('button', { name: 'Reject hold' }).click();
  await page.getByRole('status').filter({ hasText: 'Rejected' }).waitFor();
  await table.getByText('No open holds.').waitFor();
  await page.getByLabel('Show all holds').check();
  // Both decided holds of the member listed again, each with its decision.
  await table.getByRole('link', { name: member.uid }).nth(1).waitFor();
  assert.match(await table.innerText(), /\tRejected: Card shared$/m);
  assert.match(await table.innerText(), /\tReleased: Checked with the member$/m);

  const all = await api<{ holds: Hold[] }>('/admin/holds?state=all&limit=100');
  const decided = Object.fromEntries(
    all.body.holds.filter((hold) => held.includes(hold.transactionId)).map((hold) => [hold.transactionId, hold]),
  );
  assert.equal(decided[held[1]].resolution, 'released');
  assert.equal(decided[held[0]].reason, 'Card shared');
  const user = await api<{ user: { currentPoints: number; heldPoints: number } }>(`/user/${member.uid}`);
  assert.deepEqual([user.body.user.currentPoints, user.body.user.heldPoints], [60, 0]);
  await context.close();
});

test("a kiosk's suspicious alert shows on its page and is resolved there", async () => {
  const member = await memberWithDeposit({ plasticCount: 1, metalCount: 0 });
  const alertId = uniqueId('alert');
  // The throughput limit is a setting of the whole service: the alert is stored as the award stores one instead.
  const { firestore, projectId } = emulatorsFromEnv();
  const now = new Date().toISOString();
  const stored = await fetch(
    `http://${firestore}/v1/projects/${projectId}/databases/(default)/documents/alerts?documentId=${alertId}`,
    {
      method: 'POST',
      headers: { authorization: 'Bearer owner', 'content-type': 'application/json' },
      body: JSON.stringify({
        fields: {
          kioskId: { stringValue: member.kiosk.id },
          kind: { stringValue: 'suspicious' },
          detail: { stringValue: 'More than 400 items in 10 minutes: points held for review' },
          openedAt: { timestampValue: now },
          resolvedAt: { nullValue: null },
        },
      }),
    },
  );
  assert.equal(stored.status, 200);
  const { page, context } = await operatorPageAt(`/kiosks/${member.kiosk.id}`, `Kiosk ${member.kiosk.id}`);
  await page.getByRole('heading', { level: 2, name: 'Suspicious throughput' }).waitFor();
  // The details agree with the section below them, and the section leads to the holds it asks to review.
  const openAlerts = page.locator('dt', { hasText: 'Open alerts' }).locator('+ dd');
  assert.equal(await openAlerts.innerText(), 'suspicious');
  assert.equal(await page.getByRole('link', { name: 'Holds page' }).getAttribute('href'), '/holds');
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByRole('button', { name: 'Resolve suspicious alert' }).click();
  await page.getByRole('status').filter({ hasText: 'resolved' }).waitFor();
  await openAlerts.filter({ hasText: /^None$/ }).waitFor();
  const alerts = await api<{ alerts: { id: string }[] }>('/admin/alerts?state=open&limit=100');
  assert.ok(!alerts.body.alerts.some((alert) => alert.id === alertId));
  await context.close();
});
