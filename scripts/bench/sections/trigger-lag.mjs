// @ts-check
// Section 3 (reported): how long after a transaction's 200 the Firestore trigger has
// done its effects (effects.completedAt), one at a time and in bursts of 16. The
// functions emulator runs the trigger; its background triggers are on only here.
import { fleetUserDoc, writeAll } from '../../lib/fleet.mjs';
import { summarize } from '../../lib/stats.mjs';
import { setBackgroundTriggers } from '../../../functions/test/harness/emulators.ts';
import { waitForEffects } from '../../../functions/test/harness/wait.ts';
import { db, requireFn } from '../endpoints.mjs';
import { fmtMs, keepAliveAgent, request, takeIds } from '../measure.mjs';

const { transactionsCollection } = requireFn('./lib/data/transactions.js');

/**
 * @param {import('../setup.mjs').Bench} bench
 * @param {import('../host.mjs').Instance} api the warm api instance
 */
export async function measureTriggerLag(bench, api) {
  const { ctx, plan } = bench;
  const LAG_USERS = plan.lag.burstSize;
  await writeAll(
    Array.from({ length: LAG_USERS }, (_, i) => [
      db().collection('users').doc(`lag-user-${i}`),
      fleetUserDoc(`Lag user ${i}`, `lag-device-${i}`),
    ]),
  );
  const agent = keepAliveAgent(LAG_USERS);
  /**
   * @param {number} i
   * @param {number} g
   * @returns {Promise<Accepted>}
   */
  const submit = async (i, g) => {
    const kiosk = ctx.kiosks[i % ctx.kiosks.length];
    const response = await request({
      url: `${api.url}/kiosk/transaction`,
      method: 'POST',
      headers: { 'x-api-key': kiosk.apiKey, 'idempotency-key': `${ctx.runId}-lag-${g}` },
      body: { kioskId: kiosk.id, userId: `lag-user-${i}`, plasticCount: 2, metalCount: 1 },
      agent,
    });
    if (response.status !== 200) throw new Error(`transaction → ${response.status} ${response.body}`);
    return { id: JSON.parse(response.body).transaction.id, acceptedAt: Date.now() };
  };

  await setBackgroundTriggers(true);
  try {
    const sequential = [];
    for (let i = 0; i < plan.lag.sequential + 2; i++) {
      const lags = await effectsDone([await submit(i % LAG_USERS, takeIds(1))]);
      if (i >= 2) sequential.push(...lags); // the first two start the emulator's worker
    }
    const burst = [];
    for (let b = 0; b < plan.lag.bursts + 1; b++) {
      const accepted = await Promise.all(Array.from({ length: LAG_USERS }, (_, i) => submit(i, takeIds(1))));
      const lags = await effectsDone(accepted);
      if (b > 0) burst.push(...lags); // the first burst starts the emulator's workers
    }
    const lag = { c1: summarize(sequential), c16: summarize(burst) };
    console.log(
      `  c=1 p50 ${fmtMs(lag.c1.p50)} ms p95 ${fmtMs(lag.c1.p95)} ms; c=16 p50 ${fmtMs(lag.c16.p50)} ms p95 ${fmtMs(lag.c16.p95)} ms`,
    );
    return lag;
  } finally {
    agent.destroy();
    await setBackgroundTriggers(false);
  }
}

/** @typedef {{ id: string, acceptedAt: number }} Accepted */

/**
 * The lag of each accepted transaction, once every one has effects.completedAt.
 * @param {Accepted[]} accepted
 */
async function effectsDone(accepted, timeoutMs = 120_000) {
  const done = await waitForEffects(
    transactionsCollection(),
    accepted.map((a) => a.id),
    { timeoutMs, intervalMs: 50 },
  );
  return done.map((snapshot, i) => snapshot.get('effects.completedAt').toMillis() - accepted[i].acceptedAt);
}
