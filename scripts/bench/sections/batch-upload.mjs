// @ts-check
// Section 3b (judged): a kiosk's backlog uploaded in one POST /kiosk/transactions/batch
// against the same deposits (same users, counts and occurredAt; other keys) sent as
// single POST /kiosk/transaction requests, one at a time as a kiosk without the batch
// endpoint would, and 16 at a time for reference. For each: the time to the answer
// (the last one), the time until every effect is complete (each transaction's
// effects.completedAt set and the kiosk's counters at the new sums), and what the
// functions recorded of contention on the emulator (`diagnostics`: every Firestore
// transaction retried, every fold writing the kiosk's hot documents), with the
// answers that were not 200 and the effects that failed. The deposits go to a kiosk of
// their own, so its counters start from what the section put there.
import { performance } from 'node:perf_hooks';
import { fleetKioskDoc, fleetUserDoc, writeAll } from '../../lib/fleet.mjs';
import { median } from '../../lib/stats.mjs';
import { setBackgroundTriggers } from '../../../functions/test/harness/emulators.ts';
import { waitFor } from '../../../functions/test/harness/wait.ts';
import { db, requireFn } from '../endpoints.mjs';
import { closedLoop, fmtMs, keepAliveAgent, request } from '../measure.mjs';

const { diagnosticsCollection } = requireFn('./lib/adapters/firestore.js');
const { issueKey } = requireFn('./lib/data/kioskKeys.js');
const { transactionsCollection } = requireFn('./lib/data/transactions.js');

const KIOSK_ID = 'bench-backlog-kiosk';
const USERS = 20;
const DAY_MS = 86_400_000;

/** @typedef {'batch' | 'singles, one at a time' | 'singles, 16 at a time'} Mode */
/** @type {Mode[]} */
export const MODES = ['batch', 'singles, one at a time', 'singles, 16 at a time'];

/**
 * @param {import('../setup.mjs').Bench} bench
 * @param {import('../host.mjs').Instance} api the warm api instance
 */
export async function measureBatchUpload(bench, api) {
  const { items, rounds } = bench.plan.batch;
  const { runId } = bench.ctx;
  await writeAll([
    [db().collection('kiosks').doc(KIOSK_ID), fleetKioskDoc(0, { name: 'Backlog kiosk', address: 'Bench street 0' })],
    ...Array.from({ length: USERS }, (_, i) => [
      db().collection('users').doc(`backlog-user-${i}`),
      fleetUserDoc(`Backlog user ${i}`, i % 2 === 0 ? `backlog-device-${i}` : undefined),
    ]),
  ]);
  const { apiKey } = await issueKey(KIOSK_ID, 'bench backlog');
  const agent = keepAliveAgent(16);
  /** The backlog of round `round`: the same deposits every mode, under keys of the mode's own. */
  const backlog = (/** @type {Mode} */ mode, /** @type {number} */ round) =>
    Array.from({ length: items }, (_, i) => ({
      kioskId: KIOSK_ID,
      userId: `backlog-user-${i % USERS}`,
      plasticCount: 1 + (i % 5),
      metalCount: i % 3,
      occurredAt: new Date(Date.now() - (i % 4) * DAY_MS - i * 60_000).toISOString(),
      idempotencyKey: `${runId}-backlog-${MODES.indexOf(mode)}-${round}-${i}`,
    }));
  /** @type {Record<Mode, Run[]>} */
  const runs = { batch: [], 'singles, one at a time': [], 'singles, 16 at a time': [] };

  await setBackgroundTriggers(true);
  try {
    for (let round = 0; round < rounds; round++) {
      // Modes rotate from round to round, so no mode always runs first or last.
      for (const mode of MODES.map((_, i) => MODES[(i + round) % MODES.length])) {
        const run = await uploadOnce(mode, backlog(mode, round), { url: api.url, apiKey, agent });
        runs[mode].push(run);
        logRun(mode, run);
      }
    }
  } finally {
    agent.destroy();
    await setBackgroundTriggers(false);
  }
  const rows = MODES.map((mode) => ({
    mode,
    runs: runs[mode],
    answerMs: median(runs[mode].map((run) => run.answerMs)),
    effectsMs: median(runs[mode].map((run) => run.effectsMs)),
    notOk: sum(runs[mode].map((run) => run.notOk)),
    retried: sum(runs[mode].map((run) => run.retried)),
    folds: median(runs[mode].map((run) => run.folds)),
    failedEffects: sum(runs[mode].map((run) => run.failedEffects)),
  }));
  const [batch, sequential] = rows;
  return {
    batch: {
      items,
      rounds,
      rows,
      answerSpeedup: sequential.answerMs / batch.answerMs,
      effectsSpeedup: sequential.effectsMs / batch.effectsMs,
    },
  };
}

const sum = (/** @type {number[]} */ values) => values.reduce((a, b) => a + b, 0);

/**
 * @typedef {{ kioskId: string, userId: string, plasticCount: number, metalCount: number, occurredAt: string, idempotencyKey: string }} BacklogItem
 * @typedef {Awaited<ReturnType<typeof uploadOnce>>} Run
 */

/**
 * Uploads `items` in `mode` and waits for every effect.
 * @param {Mode} mode
 * @param {BacklogItem[]} items
 * @param {{ url: string, apiKey: string, agent: import('node:http').Agent }} target
 */
async function uploadOnce(mode, items, { url, apiKey, agent }) {
  const counters = await kioskCounters();
  const expected = {
    plasticCount: counters.plasticCount + sum(items.map((item) => item.plasticCount)),
    metalCount: counters.metalCount + sum(items.map((item) => item.metalCount)),
  };
  const since = Date.now();
  const started = performance.now();
  /** @type {{ status: number, id?: string }[]} */
  const answers = [];
  const headers = { 'x-api-key': apiKey };
  if (mode === 'batch') {
    const response = await request({
      url: `${url}/kiosk/transactions/batch`,
      method: 'POST',
      headers,
      body: { transactions: items },
      agent,
    });
    const results =
      response.status === 200 ? JSON.parse(response.body).results : items.map(() => ({ status: response.status }));
    for (const result of results) answers.push({ status: result.status, id: result.transaction?.id });
  } else {
    await closedLoop({
      concurrency: mode === 'singles, one at a time' ? 1 : 16,
      total: items.length,
      operation: async (_w, i) => {
        const { idempotencyKey, ...body } = items[i];
        const response = await request({
          url: `${url}/kiosk/transaction`,
          method: 'POST',
          headers: { ...headers, 'idempotency-key': idempotencyKey },
          body,
          agent,
        });
        answers.push({
          status: response.status,
          id: response.status === 200 ? JSON.parse(response.body).transaction.id : undefined,
        });
        return { ok: response.status === 200 };
      },
    });
  }
  const answerMs = performance.now() - started;
  const ids = answers.flatMap((answer) => (answer.id ? [answer.id] : []));
  const done = await waitFor(
    `the effects of ${ids.length} transactions and the kiosk's counters`,
    async () => {
      const [snapshots, now] = await Promise.all([
        db().getAll(...ids.map((id) => transactionsCollection().doc(id))),
        kioskCounters(),
      ]);
      const complete = snapshots.every((/** @type {any} */ snap) => snap.get('effects.completedAt'));
      const counted = now.plasticCount === expected.plasticCount && now.metalCount === expected.metalCount;
      return complete && counted ? snapshots : undefined;
    },
    300_000,
    async () => `kiosk counters ${JSON.stringify(await kioskCounters())}, expected ${JSON.stringify(expected)}`,
    50,
  );
  const effectsMs = performance.now() - started;
  const recorded = async (/** @type {string} */ event) =>
    (await diagnosticsCollection().where('event', '==', event).get()).docs.filter(
      (/** @type {any} */ doc) =>
        doc.get('at')?.toMillis() >= since && (event !== 'kiosk_fold_committed' || doc.get('kioskId') === KIOSK_ID),
    ).length;
  return {
    answerMs,
    effectsMs,
    notOk: answers.filter((answer) => answer.status !== 200).length,
    retried: await recorded('transaction_retried'),
    folds: await recorded('kiosk_fold_committed'),
    failedEffects: done.filter(
      (/** @type {any} */ snap) =>
        snap.get('effects.kioskCounted') !== true || snap.get('effects.push.status') === 'failed',
    ).length,
  };
}

const kioskCounters = async () => {
  const kiosk = await db().collection('kiosks').doc(KIOSK_ID).get();
  return { plasticCount: kiosk.get('plasticCount'), metalCount: kiosk.get('metalCount') };
};

/**
 * @param {Mode} mode
 * @param {Run} run
 */
function logRun(mode, run) {
  console.log(
    `  ${mode.padEnd(24)} answer ${fmtMs(run.answerMs).padStart(6)} ms  effects complete ${fmtMs(run.effectsMs).padStart(6)} ms  not 200: ${run.notOk}  transactions retried: ${run.retried}  folds: ${run.folds}  failed effects: ${run.failedEffects}`,
  );
}
