// @ts-check
// A kiosk's backlog of `items` deposits in one batch against single requests one and 16 at a time, rotating, the
// trigger in the functions emulator. Per upload: time to the last answer, to every effect complete, and the contention.
import { setBackgroundTriggers } from '../../../functions/test/harness/emulators.ts';
import { waitFor } from '../../../functions/test/harness/wait.ts';
import { db, fleetKioskDoc, fleetUserDoc, writeAll } from '../../lib/fleet.mjs';
import { median, sum } from '../../lib/stats.mjs';
import { requireFunctions } from '../../lib/paths.mjs';
import { cannon, inRotation } from '../host.mjs';

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
