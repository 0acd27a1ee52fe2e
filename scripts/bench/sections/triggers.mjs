// The sections whose triggers run in the functions emulator (docs/performance.md). A kiosk's backlog of `items`
// deposits in one batch against single requests one and 16 at a time, rotating; per upload: time to the last answer,
// to every effect complete, and the contention. Webhook delivery lag (§13): `events` adjustments through the API at a
// steady pace to a receiver of this process; fan-out and deliveries run in the emulators: their figures.
import { setTimeout as sleep } from 'node:timers/promises';
import { setBackgroundTriggers } from '../../../functions/test/harness/emulators.ts';
import { startWebhookReceiver } from '../../../functions/test/harness/webhook-receiver.ts';
import { waitFor } from '../../../functions/test/harness/wait.ts';
import { db, fleetKioskDoc, fleetUserDoc, writeAll } from '../../lib/fleet.mjs';
import { median, sum, summarize } from '../../lib/stats.mjs';
import { requireFunctions } from '../../lib/paths.mjs';
import { cannon, inRotation } from '../host.mjs';
/** @typedef {import('../../../functions/test/harness/webhook-receiver.ts').ReceivedCall} ReceivedCall */

const KIOSK_ID = 'bench-backlog-kiosk';
const USERS = 20;
/** Each upload's name, and its requests' concurrency (the batch: one request). */
const MODES = [
  { mode: 'batch', connections: 1 },
  { mode: 'singles, one at a time', connections: 1 },
  { mode: 'singles, 16 at a time', connections: 16 },
];

/** @param {{ url: string, runId: string, items: number, rounds: number }} plan */
export async function measureBatch({ url, runId, items, rounds }) {
  const { diagnosticsCollection } = requireFunctions('./lib/adapters/firestore.js');
  const { issueKey } = requireFunctions('./lib/data/kioskKeys.js');
  const kiosk = db().collection('kiosks').doc(KIOSK_ID);
  await writeAll([
    [kiosk, fleetKioskDoc(0, { name: 'Backlog kiosk', address: 'Bench street 0' })],
    ...Array.from({ length: USERS }, (_, i) => [
      db().collection('users').doc(`backlog-user-${i}`),
      fleetUserDoc(`Backlog user ${i}`, i % 2 ? undefined : `backlog-device-${i}`),
    ]),
  ]);
  const key = { 'x-api-key': (await issueKey(KIOSK_ID, 'bench backlog')).apiKey };
  const counters = () => kiosk.get().then((snap) => [snap.get('plasticCount'), snap.get('metalCount')]);
  /** How many of the diagnostics `event` were recorded since `since` (the folds: of this kiosk). */
  const recorded = async (/** @type {string} */ event, /** @type {number} */ since) =>
    (await diagnosticsCollection().where('event', '==', event).get()).docs.filter(
      (/** @type {any} */ doc) =>
        doc.get('at')?.toMillis() >= since && (event !== 'kiosk_fold_committed' || doc.get('kioskId') === KIOSK_ID),
    ).length;
  await setBackgroundTriggers(true);
  try {
    const runs = await inRotation(rounds, MODES, async ({ mode, connections }, m, round) => {
      const deposits = Array.from({ length: items }, (_, i) => ({
        kioskId: KIOSK_ID,
        userId: `backlog-user-${i % USERS}`,
        plasticCount: 1 + (i % 5),
        metalCount: i % 3,
        occurredAt: new Date(Date.now() - (i % 4) * 86_400_000 - i * 60_000).toISOString(),
        idempotencyKey: `${runId}-backlog-${m}-${round}-${i}`,
      }));
      const [plastic, metal] = await counters();
      const added = (/** @type {'plasticCount' | 'metalCount'} */ count) =>
        deposits.reduce((sum, item) => sum + item[count], 0);
      const expected = [plastic + added('plasticCount'), metal + added('metalCount')].join('/');
      const since = Date.now();
      const started = performance.now();
      const answers = /** @type {{ status: number, id?: string }[]} */ ([]);
      // autocannon ends a run on its next sampling tick, so the last answer is timed here.
      let lastAnswerAt = started;
      const batch = mode === 'batch';
      const requests = batch
        ? [{ method: 'POST', path: '/kiosk/transactions/batch', headers: key, body: { transactions: deposits } }]
        : deposits.map(({ idempotencyKey, ...body }) => {
            const headers = { ...key, 'idempotency-key': idempotencyKey };
            return { method: 'POST', path: '/kiosk/transaction', headers, body };
          });
      const onAnswer = (/** @type {number} */ status, /** @type {string} */ body) => {
        lastAnswerAt = performance.now();
        const results = !batch ? [{ ...JSON.parse(body), status }] : status === 200 ? JSON.parse(body).results : [];
        for (const result of results) answers.push({ status: result.status, id: result.transaction?.id });
      };
      let next = 0;
      await cannon(url, { connections, amount: requests.length, build: () => requests[next++], onAnswer });
      const refs = answers.flatMap(({ id }) => (id ? [db().collection('transactions').doc(id)] : []));
      const settled = async () => {
        const [snaps, now] = await Promise.all([db().getAll(...refs), counters()]);
        const complete = snaps.every((snap) => snap.get('effects.completedAt')) && now.join('/') === expected;
        return complete ? snaps : undefined;
      };
      const seen = async () => `kiosk counters ${(await counters()).join('/')}`;
      const what = `the effects of ${refs.length} transactions and the kiosk's counters at ${expected}`;
      const done = await waitFor(what, settled, 300_000, seen, 50);
      const run = {
        answerMs: lastAnswerAt - started,
        everyEffectMs: performance.now() - started,
        notOk: answers.filter(({ status }) => status !== 200).length + items - answers.length,
        retried: await recorded('transaction_retried', since),
        hotFolds: await recorded('kiosk_fold_committed', since),
        failedEffects: done.filter(
          (snap) => snap.get('effects.kioskCounted') !== true || snap.get('effects.push.status') === 'failed',
        ).length,
      };
      console.log(`  ${mode}: ${JSON.stringify(run)}`);
      return run;
    });
    return MODES.map(({ mode }, m) => {
      const of = (/** @type {keyof (typeof runs)[number][number]} */ field) => runs[m].map((run) => run[field]);
      return {
        upload: mode,
        answerMs: median(of('answerMs')),
        everyEffectMs: median(of('everyEffectMs')),
        notOk: sum(of('notOk')),
        retried: sum(of('retried')),
        hotFolds: median(of('hotFolds')),
        failedEffects: sum(of('failedEffects')),
      };
    });
  } finally {
    await setBackgroundTriggers(false);
  }
}

/** @param {{ url: string, data: import('../data.mjs').Data, warmUp: number, events: number, intervalMs: number }} plan */
export async function measureWebhookLag({ url, data: { adminToken, authUsers }, warmUp, events, intervalMs }) {
  const { Webhook } = requireFunctions('standardwebhooks');
  const { webhookEventsCollection } = requireFunctions('./lib/data/webhookEvents.js');
  const { webhookEventId } = requireFunctions('./lib/domain/webhookEvents.js');
  const { registerWebhook } = requireFunctions('./lib/services/webhooks.js');
  const headers = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const receiver = await startWebhookReceiver(204);
  const deliveredTo = (/** @type {string} */ eventId) =>
    receiver.received.find((call) => call.headers['webhook-id'] === eventId);
  /** One adjustment: its event's id and when the API answered (ms since the epoch). */
  const adjust = async (/** @type {number} */ i) => {
    const path = `/admin/users/${authUsers[i % authUsers.length]}/adjustments`;
    const body = JSON.stringify({ points: 1, reason: 'Bench webhook' });
    const answer = await fetch(`${url}${path}`, { method: 'POST', headers, body });
    if (answer.status !== 201) throw new Error(`POST ${path} answered ${answer.status}: ${await answer.text()}`);
    const { adjustment } = await answer.json();
    return { eventId: webhookEventId('points.adjusted', adjustment.id), answeredAt: Date.now() };
  };
  await setBackgroundTriggers(true);
  try {
    // The service's registration, told it is on the emulators: the API's instance here is functions-framework, which
    // would refuse http to loopback as deployed.
    const registration = { url: receiver.url, events: ['points.adjusted'], description: 'bench receiver' };
    const webhook = await registerWebhook(registration, true);
    /** `count` adjustments from the `first`-th on, one every `intervalMs`, once every one's event is delivered. */
    const paced = async (/** @type {number} */ first, /** @type {number} */ count) => {
      const sent = [];
      for (let i = first; i < first + count; i++) {
        sent.push(adjust(i));
        await sleep(intervalMs);
      }
      const adjusted = await Promise.all(sent);
      const eventIds = adjusted.map(({ eventId }) => eventId);
      const all = async () => (eventIds.every(deliveredTo) ? true : undefined);
      const seen = async () => `${eventIds.filter(deliveredTo).length} delivered`;
      await waitFor(`${eventIds.length} deliveries to the receiver`, all, 120_000, seen, 20);
      return adjusted;
    };
    // Not measured: the emulator starts workers for the trigger and the task function as the pace asks for them, and
    // each one's first enqueue waits on the metadata server (docs/webhooks.md, "Seen locally").
    await paced(0, warmUp);
    const adjusted = await paced(warmUp, events);
    const verifier = new Webhook(webhook.secret);
    const fromCommit = [];
    const fromAnswer = [];
    let unverified = 0;
    for (const { eventId, answeredAt } of adjusted) {
      const call = /** @type {ReceivedCall} */ (deliveredTo(eventId));
      try {
        verifier.verify(call.body, call.headers);
      } catch {
        unverified++;
      }
      const committed = (await webhookEventsCollection().doc(eventId).get()).createTime.toMillis();
      fromCommit.push(call.receivedAt - committed);
      fromAnswer.push(call.receivedAt - answeredAt);
    }
    const deliveries = { receiverCalls: receiver.received.length - warmUp, notVerified: unverified };
    return [
      { lagFrom: "the commit (the event document's create time)", ...summarize(fromCommit), ...deliveries },
      { lagFrom: "the API's answer", ...summarize(fromAnswer), ...deliveries },
    ];
  } finally {
    await setBackgroundTriggers(false);
    await receiver.close();
  }
}
