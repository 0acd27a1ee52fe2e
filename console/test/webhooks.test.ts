// Webhooks (contract §11, §13): register in the console, an event happens, its delivery shows `succeeded`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { waitFor } from '../../functions/test/harness/wait.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../functions/test/harness/webhook-receiver.ts';
import { browserOfFile, goTo, seriousViolations } from './browser.ts';
import { api, memberWithDeposit } from './data.ts';

const { operatorPage } = browserOfFile();
let receiver: WebhookReceiver;
before(async () => (receiver = await startWebhookReceiver(204)));
after(() => receiver?.close());

test('Webhooks: register one, a deposit is delivered to it (signed), its delivery shows succeeded; then delete it', async () => {
  const { page, context } = await operatorPage();
  await goTo(page, 'Webhooks');
  await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
  await page.getByLabel('URL').fill(receiver.url);
  await page.getByLabel('transaction.awarded').check();
  await page.getByLabel('Description').fill('console test');
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByRole('button', { name: 'Register webhook' }).dblclick();
  const secret = await page.getByLabel('Secret', { exact: true }).inputValue();
  assert.match(secret, /^whsec_/);
  await page.getByRole('button', { name: 'Copy secret' }).waitFor();
  const listed = await api<{ webhooks: { id: string; url: string }[] }>('/admin/webhooks');
  assert.deepEqual(
    listed.body.webhooks.map((webhook) => webhook.url),
    [receiver.url],
    'one webhook, however often the button was clicked',
  );

  await memberWithDeposit({ plasticCount: 2, metalCount: 1 });

  // The receiver's 2xx is recorded on the delivery just after it answers: wait for that through the API.
  const webhookId = listed.body.webhooks[0].id;
  await waitFor('the delivery to succeed', async () => {
    const answer = await api<{ deliveries: { status: string }[] }>(`/admin/webhooks/${webhookId}/deliveries`);
    return answer.body.deliveries[0]?.status === 'succeeded' ? true : undefined;
  });
  const [delivered] = receiver.received;
  assert.equal(JSON.parse(delivered.body).type, 'transaction.awarded');
  assert.match(String(delivered.headers['webhook-signature']), /^v1,/);

  await page.getByRole('button', { name: `Show deliveries of ${receiver.url}` }).click();
  const deliveries = page.getByRole('table', { name: 'Deliveries' });
  await deliveries.getByRole('row').filter({ hasText: 'succeeded' }).waitFor();
  await page.getByLabel('Status').selectOption('failed');
  await deliveries.getByText('No deliveries.').waitFor();
  assert.deepEqual(await seriousViolations(page), []);

  await page.getByRole('button', { name: `Delete webhook ${receiver.url}` }).click();
  await page
    .getByRole('dialog', { name: 'Delete this webhook?' })
    .getByRole('button', { name: 'Delete webhook' })
    .click();
  await page.getByRole('status').filter({ hasText: 'deleted' }).waitFor();
  assert.deepEqual((await api<{ webhooks: unknown[] }>('/admin/webhooks')).body.webhooks, []);
  await context.close();
});
