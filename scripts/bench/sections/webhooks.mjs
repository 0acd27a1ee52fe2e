// @ts-check
// Webhook delivery lag (§13, docs/performance.md): `events` adjustments through the API at a steady pace to a receiver
// of this process. Fan-out and deliveries run in the emulators: their figures.
import { setTimeout as sleep } from 'node:timers/promises';
import { setBackgroundTriggers } from '../../../functions/test/harness/emulators.ts';
import { startWebhookReceiver } from '../../../functions/test/harness/webhook-receiver.ts';
import { waitFor } from '../../../functions/test/harness/wait.ts';
import { summarize } from '../../lib/stats.mjs';
import { requireFunctions } from '../../lib/paths.mjs';
/** @typedef {import('../../../functions/test/harness/webhook-receiver.ts').ReceivedCall} ReceivedCall */

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
