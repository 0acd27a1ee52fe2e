// The load test's webhook receiver (§13) and its books (docs/operations.md, Reliability and load).
import { once } from 'node:events';
import { createServer } from 'node:http';
import { text } from 'node:stream/consumers';
import { requireFunctions } from '../lib/paths.mjs';
import { waitFor } from '../../functions/test/harness/wait.ts';
import { postWithRetries } from '../../kiosk-simulator/client.ts';
import { countOf, roundedSummary } from './books.mjs';

const { Webhook } = requireFunctions('standardwebhooks');
const { db } = requireFunctions('./lib/adapters/firestore.js');
const { WEBHOOK_EVENT_TYPES } = requireFunctions('./lib/model/webhookEventTypes.js');

const FAILING_SHARE = 0.1;

/** 503 until it has the secret. @param {import('./run.mjs').Run} run */
export async function startReceiver({ api, admin }) {
  const seen = {
    attempts: 0,
    refusedOnPurpose: 0,
    badSignatures: 0,
    /** Event id (`webhook-id`) → when each 2xx was answered (ms since epoch). */
    delivered: /** @type {Map<string, number[]>} */ (new Map()),
  };
  /** @type {{ verify(body: string, headers: Record<string, string>): unknown } | undefined} */
  let verifier;
  const server = createServer(async (request, response) => {
    const body = await text(request);
    seen.attempts += 1;
    const id = String(request.headers['webhook-id']);
    let status = verifier ? 204 : 503;
    try {
      verifier?.verify(body, /** @type {any} */ (request.headers));
    } catch {
      seen.badSignatures += 1;
      status = 400;
    }
    if (status === 204 && Math.random() < FAILING_SHARE) {
      seen.refusedOnPurpose += 1;
      status = 500;
    }
    if (status === 204) seen.delivered.set(id, [...(seen.delivered.get(id) ?? []), Date.now()]);
    response.writeHead(status).end();
  });
  await once(server.listen(0, '127.0.0.1'), 'listening');
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  const url = `http://127.0.0.1:${port}/load-test-hooks`;
  const body = { url, events: WEBHOOK_EVENT_TYPES, description: 'load test receiver' };
  const answer = await postWithRetries(api, '/admin/webhooks', { headers: admin, body });
  if (answer.status !== 201) throw new Error(`webhook registration: ${answer.status} ${JSON.stringify(answer.body)}`);
  verifier = new Webhook(answer.body.webhook.secret);
  return {
    webhookId: /** @type {string} */ (answer.body.webhook.id),
    seen,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const deliveriesOf = (/** @type {string} */ webhookId) =>
  db().collection('webhookDeliveries').where('webhookId', '==', webhookId);

/** @param {import('./run.mjs').Run} run @param {string} webhookId */
export async function settleDeliveries({ api, admin }, webhookId, rounds = 3) {
  const pending = () => countOf(deliveriesOf(webhookId).where('status', '==', 'pending'));
  let retried = 0;
  for (let round = 0; ; round++) {
    await waitFor(
      `every delivery to the load test's receiver to end succeeded or failed`,
      async () => ((await pending()) === 0 ? true : undefined),
      300_000,
      async () => `${await pending()} deliveries still pending`,
      1_000,
    );
    const failed = (await deliveriesOf(webhookId).where('status', '==', 'failed').get()).docs;
    if (failed.length === 0 || round === rounds) return retried;
    for (const doc of failed) {
      const path = `/admin/webhooks/${webhookId}/deliveries/${doc.id}/retry`;
      const answer = await postWithRetries(api, path, { headers: admin, body: undefined });
      if (answer.status !== 200) throw new Error(`retry of ${doc.id}: ${answer.status}`);
      retried += 1;
    }
  }
}

/**
 * The webhooks' books and what the receiver saw (lag: the event's commit to the receiver's first 2xx).
 * @param {Awaited<ReturnType<typeof startReceiver>>} receiver @param {number} retried
 */
export async function webhookBooks({ webhookId, seen }, retried) {
  const registeredAt = (await db().collection('webhooks').doc(webhookId).get()).createTime.toMillis();
  const events = /** @type {any[]} */ ((await db().collection('webhookEvents').select('type').get()).docs);
  const recorded = new Set(events.map((doc) => doc.id));
  const since = events.filter((doc) => doc.createTime.toMillis() > registeredAt);
  const deliveries = /** @type {any[]} */ ((await deliveriesOf(webhookId).select('eventId', 'status').get()).docs);
  const deliveredEvents = new Set(deliveries.map((doc) => doc.get('eventId')));
  const unsettled = deliveries.filter((doc) => ['pending', 'failed'].includes(doc.get('status'))).length;
  const undelivered = since.filter((doc) => !deliveredEvents.has(doc.id)).length;
  const unanswered = since.filter((doc) => !seen.delivered.has(doc.id)).length;
  const unrecorded = [...seen.delivered.keys()].filter((id) => !recorded.has(id)).length;
  const checks = {
    'events since the registration with no delivery to the receiver': [undelivered, 0],
    'events since the registration the receiver never answered 2xx': [unanswered, 0],
    'deliveries left pending or failed': [unsettled, 0],
    'webhook signatures that did not verify': [seen.badSignatures, 0],
    'events received that the service never recorded': [unrecorded, 0],
  };
  const types = /** @type {Record<string, number>} */ ({});
  for (const doc of since) types[doc.get('type')] = (types[doc.get('type')] ?? 0) + 1;
  const createdAt = new Map(since.map((doc) => [doc.id, doc.createTime.toMillis()]));
  const lag = [...seen.delivered]
    .filter(([id]) => createdAt.has(id))
    .map(([id, times]) => times[0] - createdAt.get(id));
  const figures = {
    eventsSinceTheRegistration: since.length,
    types,
    // Also of events recorded just before the registration whose fan-out ran after it.
    deliveries: deliveries.length,
    attempts: seen.attempts,
    refusedOnPurpose: seen.refusedOnPurpose,
    retriedByTheOperator: retried,
    deliveredMoreThanOnce: [...seen.delivered.values()].filter((times) => times.length > 1).length,
    lagMs: roundedSummary(lag),
  };
  return { checks, figures };
}
