/**
 * Contract §13: webhooks registered, listed, deleted and rotated through the API;
 * every delivery to a local receiver verified with the `standardwebhooks` package (an
 * implementation independent of the service's); retries with the local schedule of
 * WEBHOOK_RETRY_SECONDS (`1,1,1`: 4 attempts); refused URLs, at registration and
 * after name resolution (the resolver injected into an attempt run in-process).
 */
import { Timestamp } from 'firebase-admin/firestore';
import { Webhook } from 'standardwebhooks';
import { createWebhook } from '../../src/data/webhooks';
import { newDelivery, webhookDeliveriesCollection } from '../../src/data/webhookDeliveries';
import { attemptDelivery } from '../../src/services/webhookDelivery';
import { newWebhookSecret } from '../../src/domain/webhookEvents';
import { startWebhookReceiver, type ReceivedCall, type WebhookReceiver } from '../harness/webhook-receiver';
import { admin } from './cli-runner';
import { db, resetEmulators, setBackgroundTriggers, waitFor } from './helpers';
import { adminHeaders, call, nonAdminHeaders } from './requests';
import { seedUser, uniqueId } from './seeds';

beforeEach(resetEmulators);

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
const receiver = async (...statuses: number[]) => {
  const started = await startWebhookReceiver(...statuses);
  receivers.push(started);
  return started;
};

async function register(url: string, events: string[] = ['points.adjusted']) {
  const answer = await call('POST', '/admin/webhooks', {
    headers: await adminHeaders(),
    body: { url, events, description: 'test receiver' },
  });
  expect(answer.status).toBe(201);
  return answer.body.webhook as { id: string; secret: string };
}

/** An operator adjusts a new user's points: one `points.adjusted` event. */
async function adjustPoints(): Promise<{ userId: string; entryId: string }> {
  const userId = await seedUser();
  const answer = await call('POST', `/admin/users/${userId}/adjustments`, {
    headers: await adminHeaders(),
    body: { points: 25, reason: 'goodwill' },
  });
  expect(answer.status).toBe(201);
  return { userId, entryId: answer.body.adjustment.id };
}

const verified = (secret: string, { body, headers }: ReceivedCall) =>
  new Webhook(secret).verify(body, headers as Record<string, string>) as {
    type: string;
    data: Record<string, unknown>;
  };

const callsTo = (target: WebhookReceiver, count: number, timeoutMs = 30_000) =>
  waitFor(
    `${count} calls to the receiver`,
    async () => (target.received.length >= count ? target.received : undefined),
    timeoutMs,
    async () => `it has ${target.received.length}`,
  );

async function deliveries(webhookId: string, query = '') {
  const answer = await call('GET', `/admin/webhooks/${webhookId}/deliveries${query}`, {
    headers: await adminHeaders(),
  });
  expect(answer.status).toBe(200);
  return answer.body.deliveries as { id: string; eventId: string; status: string; attempts: unknown[] }[];
}

const settledDelivery = (webhookId: string, status: string, attempts: number) =>
  waitFor(`a ${status} delivery with ${attempts} attempts`, async () => {
    const [delivery] = await deliveries(webhookId);
    return delivery?.status === status && delivery.attempts.length === attempts ? delivery : undefined;
  });

describe('registering', () => {
  test.each([
    'http://hooks.example.com/in',
    'https://10.0.0.8/in',
    'https://169.254.169.254/latest/meta-data',
    'https://[fd00:ec2::254]/',
    'https://100.64.1.1/',
    'https://metadata.google.internal/computeMetadata/v1',
    'https://[::ffff:127.0.0.1]/',
    'ftp://hooks.example.com/',
  ])('%s is refused: 400 webhook-url-refused', async (url) => {
    const answer = await call('POST', '/admin/webhooks', {
      headers: await adminHeaders(),
      body: { url, events: ['alert.opened'] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('webhook-url-refused');
  });

  test('the secret is shown once: listed webhooks never carry it; admins only', async () => {
    const target = await receiver();
    const webhook = await register(target.url);
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await call('GET', '/admin/webhooks', { headers: await adminHeaders() });
    expect(listed.body.webhooks).toEqual([expect.objectContaining({ id: webhook.id, active: true })]);
    expect(listed.text).not.toContain('whsec_');
    expect((await call('GET', '/admin/webhooks', { headers: await nonAdminHeaders() })).status).toBe(403);
  });
});

describe('delivering', () => {
  test('an event reaches the webhooks taking its type, signed per Standard Webhooks, once', async () => {
    const taking = await receiver();
    const other = await receiver();
    const webhook = await register(taking.url);
    const otherWebhook = await register(other.url, ['alert.opened']);
    const { userId, entryId } = await adjustPoints();

    const [delivered] = await callsTo(taking, 1);
    const event = verified(webhook.secret, delivered);
    expect(event).toEqual({
      type: 'points.adjusted',
      timestamp: expect.any(String),
      data: { id: entryId, points: 25, reason: 'goodwill', balanceAfter: 25, userId },
    });
    const [delivery] = await settledDelivery(webhook.id, 'succeeded', 1).then((one) => [one]);
    expect(delivery.eventId).toBe(delivered.headers['webhook-id']);
    expect(await deliveries(otherWebhook.id)).toEqual([]);
    expect(other.received).toEqual([]);
    expect(taking.received).toHaveLength(1);
  });

  test('a receiver that fails, then succeeds: retried with the same webhook-id; its status kept, not its answer', async () => {
    const target = await receiver(500, 204);
    const webhook = await register(target.url);
    await adjustPoints();
    const [first, second] = await callsTo(target, 2);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    verified(webhook.secret, first);
    verified(webhook.secret, second);
    const delivery = await settledDelivery(webhook.id, 'succeeded', 2);
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ statusCode: 500, error: 'answered 500' }),
      expect.objectContaining({ statusCode: 204, error: null }),
    ]);
    // The receiver's body ('receiver says no') is its own business: never stored.
    expect(JSON.stringify(delivery)).not.toContain('receiver says no');
  });

  test('a receiver that always fails: failed after 4 attempts (1,1,1), then sent again on request', async () => {
    const target = await receiver(503);
    const webhook = await register(target.url);
    await adjustPoints();
    const failed = await settledDelivery(webhook.id, 'failed', 4);
    expect(target.received).toHaveLength(4);
    expect(await deliveries(webhook.id, '?status=pending')).toEqual([]);
    expect(await deliveries(webhook.id, '?status=failed')).toHaveLength(1);

    target.answer(200);
    const retry = `/admin/webhooks/${webhook.id}/deliveries/${failed.id}/retry`;
    expect((await call('POST', retry, { headers: await adminHeaders() })).status).toBe(200);
    await settledDelivery(webhook.id, 'succeeded', 5);
    expect(target.received[4].headers['webhook-id']).toBe(target.received[0].headers['webhook-id']);
  });

  test('an event and its delivery are kept 30 days (`expireAt`, under a TTL policy); a retry keeps the delivery 30 days from then', async () => {
    const target = await receiver(503);
    const webhook = await register(target.url);
    await adjustPoints();
    const failed = await settledDelivery(webhook.id, 'failed', 4);
    const days = (from: Timestamp, to: Timestamp) => (to.toMillis() - from.toMillis()) / (24 * 60 * 60 * 1000);
    const event = (await db().collection('webhookEvents').doc(failed.eventId).get()).data()!;
    expect(days(event.occurredAt, event.expireAt)).toBe(30);
    const stored = async () => (await webhookDeliveriesCollection().doc(failed.id).get()).data()!;
    const first = await stored();
    expect(days(first.createdAt, first.expireAt)).toBeCloseTo(30, 4);

    target.answer(200);
    const retry = `/admin/webhooks/${webhook.id}/deliveries/${failed.id}/retry`;
    const retriedAt = Timestamp.now();
    expect((await call('POST', retry, { headers: await adminHeaders() })).status).toBe(200);
    await settledDelivery(webhook.id, 'succeeded', 5);
    expect(days(retriedAt, (await stored()).expireAt)).toBeGreaterThanOrEqual(30);
  });

  test('a rotated secret: for 24 h each delivery verifies with the old secret and the new', async () => {
    const target = await receiver();
    const webhook = await register(target.url);
    const rotated = await call('POST', `/admin/webhooks/${webhook.id}/rotate-secret`, {
      headers: await adminHeaders(),
    });
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.webhook.secret;
    expect(newSecret).not.toBe(webhook.secret);
    await adjustPoints();
    const [delivered] = await callsTo(target, 1);
    expect(String(delivered.headers['webhook-signature']).split(' ')).toHaveLength(2);
    verified(webhook.secret, delivered);
    verified(newSecret, delivered);
  });

  test('a deleted webhook gets nothing more', async () => {
    const kept = await receiver();
    const deleted = await receiver();
    await register(kept.url);
    const gone = await register(deleted.url);
    expect((await call('DELETE', `/admin/webhooks/${gone.id}`, { headers: await adminHeaders() })).status).toBe(200);
    await adjustPoints();
    await callsTo(kept, 1);
    expect(deleted.received).toEqual([]);
    expect((await call('GET', `/admin/webhooks/${gone.id}/deliveries`, { headers: await adminHeaders() })).status).toBe(
      404,
    );
  });
});

describe('an event whose fan-out trigger never ran', () => {
  afterEach(() => setBackgroundTriggers(true));

  test('is delivered by the effects sweep, once', async () => {
    const target = await receiver();
    const webhook = await register(target.url);
    await setBackgroundTriggers(false);
    await adjustPoints();
    const pending = await db().collection('webhookEvents').where('effectsPending', '==', true).get();
    expect(pending.size).toBe(1);
    await setBackgroundTriggers(true);

    const swept = JSON.parse(await admin('effects:sweep', '--min-age', '0'));
    expect(swept.webhookEvents).toEqual({ pending: 1, completed: 1, failed: 0 });
    const [delivered] = await callsTo(target, 1);
    verified(webhook.secret, delivered);
    await settledDelivery(webhook.id, 'succeeded', 1);
    expect(JSON.parse(await admin('effects:sweep', '--min-age', '0')).webhookEvents).toEqual({
      pending: 0,
      completed: 0,
      failed: 0,
    });
    expect(target.received).toHaveLength(1);
  });
});

test('a name that resolves to a private address is refused before any connection', async () => {
  const webhook = await createWebhook(
    { url: 'https://hooks.example.com/in', events: ['points.adjusted'], description: '' },
    newWebhookSecret(),
  );
  const ref = webhookDeliveriesCollection().doc(uniqueId('dlv'));
  await ref.create(
    newDelivery({
      webhookId: webhook.id,
      eventId: 'evt_test',
      type: 'points.adjusted',
      body: '{}',
      finalAttempt: 1,
      series: 'test',
    }),
  );
  const resolved: string[] = [];
  const state = await attemptDelivery({ deliveryId: ref.id, attempt: 1 }, async (host) => {
    resolved.push(host);
    return [{ address: '10.20.30.40', family: 4 }];
  });
  expect(resolved).toEqual(['hooks.example.com']);
  expect(state).toBe('failed');
  const [attempt] = (await ref.get()).get('attempts');
  expect(attempt).toMatchObject({ statusCode: null, error: expect.stringContaining('private or reserved address') });
});
