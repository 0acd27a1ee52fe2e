// @ts-check
// A kiosk's backlog: `items` deposits of the last four days (20 users, every other one
// with a push token) in one POST /kiosk/transactions/batch, against the same deposits
// (other keys) as single POST /kiosk/transaction requests one at a time and 16 at a
// time; the modes rotate round by round. The trigger runs in the functions emulator.
// Per upload: time to the last answer, time until every effect is complete, and what
// the functions recorded of contention (`diagnostics`: transactions retried, folds
// writing the kiosk's hot documents).
import { performance } from 'node:perf_hooks';
import { setBackgroundTriggers } from '../../../functions/test/harness/emulators.ts';
import { waitFor } from '../../../functions/test/harness/wait.ts';
import { fleetKioskDoc, fleetUserDoc, writeAll } from '../../lib/fleet.mjs';
import { median } from '../../lib/stats.mjs';
import { db, requireFn } from '../data.mjs';
import { cannon } from '../host.mjs';

const KIOSK_ID = 'bench-backlog-kiosk';
const USERS = 20;
export const MODES = /** @type {const} */ (['batch', 'singles, one at a time', 'singles, 16 at a time']);

/**
 * @param {{ url: string, runId: string, items: number, rounds: number }} plan
 */
export async function measureBatch({ url, runId, items, rounds }) {
  const { diagnosticsCollection } = requireFn('./lib/adapters/firestore.js');
  const { issueKey } = requireFn('./lib/data/kioskKeys.js');
  const kiosk = db().collection('kiosks').doc(KIOSK_ID);
  await writeAll([
    [kiosk, fleetKioskDoc(0, { name: 'Backlog kiosk', address: 'Bench street 0' })],
    ...Array.from({ length: USERS }, (_, i) => [
      db().collection('users').doc(`backlog-user-${i}`),
      fleetUserDoc(`Backlog user ${i}`, i % 2 ? undefined : `backlog-device-${i}`),
    ]),
  ]);
  const key = { 'x-api-key': (await issueKey(KIOSK_ID, 'bench backlog')).apiKey };
  const counters = async () => {
    const snap = await kiosk.get();
    return `${snap.get('plasticCount')}/${snap.get('metalCount')}`;
  };
  /** @type {Record<string, { answerMs: number, effectsMs: number, notOk: number, retried: number, folds: number, failedEffects: number }[]>} */
  const runs = Object.fromEntries(MODES.map((mode) => [mode, []]));
  await setBackgroundTriggers(true);
  try {
    for (let round = 0; round < rounds; round++) {
      for (const mode of MODES.map((_, i) => MODES[(i + round) % MODES.length])) {
        const deposits = Array.from({ length: items }, (_, i) => ({
          kioskId: KIOSK_ID,
          userId: `backlog-user-${i % USERS}`,
          plasticCount: 1 + (i % 5),
          metalCount: i % 3,
          occurredAt: new Date(Date.now() - (i % 4) * 86_400_000 - i * 60_000).toISOString(),
          idempotencyKey: `${runId}-backlog-${MODES.indexOf(mode)}-${round}-${i}`,
        }));
        const plastic = deposits.reduce((sum, item) => sum + item.plasticCount, 0);
        const metal = deposits.reduce((sum, item) => sum + item.metalCount, 0);
        const before = (await counters()).split('/').map(Number);
        const expected = `${before[0] + plastic}/${before[1] + metal}`;
        const since = Date.now();
        const started = performance.now();
        /** @type {{ status: number, id?: string }[]} */
        const answers = [];
        // autocannon ends a run on its next one-second tick, so the last answer is timed here.
        let lastAnswerAt = started;
        const batch = mode === 'batch';
        let next = 0;
        /** @type {() => import('../host.mjs').BenchRequest} */
        const single = () => {
          const { idempotencyKey, ...body } = deposits[next++ % items];
          return {
            method: 'POST',
            path: '/kiosk/transaction',
            headers: { ...key, 'idempotency-key': idempotencyKey },
            body,
          };
        };
        await cannon(url, {
          connections: mode === 'singles, 16 at a time' ? 16 : 1,
          amount: batch ? 1 : items,
          build: batch
            ? () => ({
                method: 'POST',
                path: '/kiosk/transactions/batch',
                headers: key,
                body: { transactions: deposits },
              })
            : single,
          onAnswer: (status, body) => {
            lastAnswerAt = performance.now();
            const results = !batch ? [{ ...JSON.parse(body), status }] : status === 200 ? JSON.parse(body).results : [];
            for (const result of results) answers.push({ status: result.status, id: result.transaction?.id });
          },
        });
        const answerMs = lastAnswerAt - started;
        const refs = answers.flatMap(({ id }) => (id ? [db().collection('transactions').doc(id)] : []));
        const done = await waitFor(
          `the effects of ${refs.length} transactions and the kiosk's counters at ${expected}`,
          async () => {
            const [snaps, now] = await Promise.all([db().getAll(...refs), counters()]);
            return snaps.every((snap) => snap.get('effects.completedAt')) && now === expected ? snaps : undefined;
          },
          300_000,
          async () => `kiosk counters ${await counters()}`,
          50,
        );
        const effectsMs = performance.now() - started;
        const recorded = async (/** @type {string} */ event) =>
          (await diagnosticsCollection().where('event', '==', event).get()).docs.filter(
            (/** @type {any} */ doc) =>
              doc.get('at')?.toMillis() >= since &&
              (event !== 'kiosk_fold_committed' || doc.get('kioskId') === KIOSK_ID),
          ).length;
        const run = {
          answerMs,
          effectsMs,
          notOk: answers.filter(({ status }) => status !== 200).length + items - answers.length,
          retried: await recorded('transaction_retried'),
          folds: await recorded('kiosk_fold_committed'),
          failedEffects: done.filter(
            (snap) => snap.get('effects.kioskCounted') !== true || snap.get('effects.push.status') === 'failed',
          ).length,
        };
        console.log(
          `  ${mode}: answer ${answerMs.toFixed(0)} ms, effects ${effectsMs.toFixed(0)} ms, ${JSON.stringify(run)}`,
        );
        runs[mode].push(run);
      }
    }
  } finally {
    await setBackgroundTriggers(false);
  }
  const sum = (/** @type {number[]} */ values) => values.reduce((a, b) => a + b, 0);
  return MODES.map((mode) => ({
    mode,
    answerMs: median(runs[mode].map((run) => run.answerMs)),
    effectsMs: median(runs[mode].map((run) => run.effectsMs)),
    notOk: sum(runs[mode].map((run) => run.notOk)),
    retried: sum(runs[mode].map((run) => run.retried)),
    folds: median(runs[mode].map((run) => run.folds)),
    failedEffects: sum(runs[mode].map((run) => run.failedEffects)),
  }));
}
