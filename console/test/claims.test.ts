// Claim codes (contract §18): a kiosk's unclaimed deposits on its page; support claims a code for a user.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { browserOfFile, consoleUrl, seriousViolations } from './browser.ts';
import { api, memberWithDeposit, seedKiosk } from './data.ts';

const { operatorPage, operatorPageAt } = browserOfFile();

/** An anonymous deposit at `kiosk`, as the kiosk makes it: its claim code. */
async function anonymousDeposit(kiosk: { id: string; apiKey: string }, plasticCount: number): Promise<string> {
  const answer = await api<{ transaction: { claim: { code: string } } }>('/kiosk/transaction', {
    headers: { 'X-API-Key': kiosk.apiKey },
    body: { kioskId: kiosk.id, userId: null, plasticCount, metalCount: 0 },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.transaction.claim.code;
}

test("the kiosk page counts the kiosk's unclaimed deposits, at desktop width and at 360 px", async () => {
  const kiosk = await seedKiosk();
  const code = await anonymousDeposit(kiosk, 2);
  await anonymousDeposit(kiosk, 1);
  await anonymousDeposit(kiosk, 4);
  const { uid } = await memberWithDeposit({ plasticCount: 1, metalCount: 0 });
  assert.equal((await api(`/user/${uid}/claims`, { body: { code } })).status, 200);

  const { page, context } = await operatorPageAt(`/kiosks/${kiosk.id}`, `Kiosk ${kiosk.id}`);
  await page.getByRole('heading', { level: 2, name: 'Unclaimed deposits' }).waitFor();
  await page.getByText('2 deposits made here without a user have not been claimed yet.').waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();

  const narrow = await operatorPage({ viewport: { width: 360, height: 740 } });
  await narrow.page.goto(consoleUrl(`/kiosks/${kiosk.id}`));
  await narrow.page.getByText('2 deposits made here without a user have not been claimed yet.').waitFor();
  const pageWidth = await narrow.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(pageWidth <= 360, `the page is ${pageWidth} px wide at 360 px`);
  assert.deepEqual(await seriousViolations(narrow.page), []);
  await narrow.context.close();
});

test('support claims a code for a user (a double-click claims once); a used code is refused as the API says', async () => {
  const member = await memberWithDeposit({ plasticCount: 1, metalCount: 0 });
  const code = await anonymousDeposit(member.kiosk, 3);
  const { page, context } = await operatorPageAt(`/users/${member.uid}`, `User ${member.uid}`);
  const written = code.toLowerCase().replace(/(.{4})(?=.)/g, '$1-');
  await page.getByLabel('Claim code').fill(written);
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByRole('button', { name: 'Claim code' }).dblclick();
  await page.getByRole('status').filter({ hasText: 'Claimed: 30 points' }).waitFor();
  await page.getByText('the balance is now 40').waitFor();
  const history = await api<{ entries: { kind: string; points: number }[] }>(`/user/${member.uid}/history?limit=100`);
  assert.deepEqual(
    history.body.entries.filter((entry) => entry.kind === 'earn').map((entry) => entry.points),
    [30, 10],
  );

  await page.getByLabel('Claim code').fill(code);
  await page.getByRole('button', { name: 'Claim code' }).click();
  const refused = page.getByRole('alert');
  await refused.waitFor();
  assert.equal(await refused.innerText(), 'This code was claimed already');
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});
