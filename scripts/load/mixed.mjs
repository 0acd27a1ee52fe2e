// @ts-check
// The load test's mixed phase: points earned and spent at once. Users of their own
// (spenders) get an opening adjustment, then, all concurrently: kiosks keep depositing
// for them; a rush of concurrent redemptions of a reward with a small stock; random
// redemptions of unlimited rewards; adjustments up and down; and operators cancelling
// some redemptions. Every request is sent blindly 1-3 times with one Idempotency-Key
// (a cancel twice), partly concurrently, as a client that lost its answers would.
// What the answers said is tallied here; mixedBooks() then holds Firestore to it.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { functionsDir } from '../lib/paths.mjs';
import { idTokenFor } from '../../functions/test/harness/auth.ts';
import { KIOSK_RETRIES, postWithRetries } from '../../kiosk-simulator/client.ts';
import { waitFor } from '../../functions/test/harness/wait.ts';
import { randomInt, submitRecorded, transactionBody } from './bursts.mjs';

const requireFn = createRequire(join(functionsDir, 'package.json'));
const { db } = requireFn('./lib/adapters/firestore.js');

/**
 * @typedef {import('./books.mjs').Ledger} Ledger
 * @typedef {{ id: string, apiKey: string }} Kiosk
 * @typedef {{ id: string, cost: number, stock: number | null, kind: 'voucher' | 'donation' }} Reward
 */

/** The catalog of the phase; `scarce` is the one rushed. */
export const MIXED_REWARDS = /** @type {const} */ ({
  scarce: { id: 'load-scarce', name: 'Scarce voucher', cost: 10, kind: 'voucher', stock: 10 },
  voucher: { id: 'load-voucher', name: 'Cinema voucher', cost: 30, kind: 'voucher', stock: null },
  donation: { id: 'load-donation', name: 'Plant a tree', cost: 20, kind: 'donation', stock: null },
});
/** Enough that no spender runs dry before its rush request: a round spends at most 30 + 205 points. */
const OPENING_POINTS = 2_000;

/**
 * The same request 1-`most` times, the first two at once, the rest one after another:
 * a client whose answers were lost. Resolves with every answer.
 * @template T
 * @param {() => Promise<T>} send
 * @param {number} most
 */
async function sendBlindly(send, most = 3) {
  const times = 1 + randomInt(most);
  const answers = await Promise.all(Array.from({ length: Math.min(times, 2) }, send));
  for (let i = 2; i < times; i++) answers.push(await send());
  return answers;
}

/**
 * @param {{ api: string, kiosks: Kiosk[], spenders: string[], rush: number, rounds: number }} plan
 * @param {Ledger} ledger
 */
export async function mixedPhase({ api, kiosks, spenders, rush, rounds }, ledger) {
  const started = performance.now();
  const admin = { authorization: `Bearer ${await idTokenFor('load-admin', { admin: true })}` };
  /** @type {Map<string, Record<string, string>>} */
  const asUser = new Map();
  for (const id of spenders) asUser.set(id, { authorization: `Bearer ${await idTokenFor(id)}` });

  const tally = {
    /** Idempotency-Key → the ids answered for it (more than one: spent twice). */
    redemptionsByKey: /** @type {Map<string, Set<string>>} */ (new Map()),
    adjustmentsByKey: /** @type {Map<string, Set<string>>} */ (new Map()),
    /** Redemption id → what it cost whom, and of which reward. */
    redemptions: /** @type {Map<string, { userId: string, rewardId: string, cost: number }>} */ (new Map()),
    /** Adjustment id → its user and points. */
    adjustments: /** @type {Map<string, { userId: string, points: number }>} */ (new Map()),
    /** Redemption id → how many cancels of it were answered 200. */
    cancelled: /** @type {Map<string, number>} */ (new Map()),
    refused: /** @type {Record<string, number>} */ ({}),
    rushIssued: 0,
    deposits: 0,
    /** Requests of spenders and operators sent, blind re-sends included (deposits are the ledger's). */
    sent: 0,
  };
  /**
   * @param {string} path
   * @param {Record<string, string>} headers
   * @param {unknown} body
   */
  const post = (path, headers, body) => {
    tally.sent += 1;
    return postWithRetries(api, path, { headers, body }, KIOSK_RETRIES, {
      onResponse: (status, text, ms) => {
        ledger.status(status, text);
        ledger.latencies.push(ms);
      },
    });
  };
  /** @param {{ status: number, body: any }} answer */
  const refusal = ({ status, body }) => {
    if (status < 400) return;
    const name = `${status} ${body?.code ?? 'no code'}`;
    tally.refused[name] = (tally.refused[name] ?? 0) + 1;
  };
  /**
   * @param {string} userId
   * @param {number} points
   * @param {string} key
   */
  const adjust = async (userId, points, key) => {
    const answers = await sendBlindly(() =>
      post(`/admin/users/${userId}/adjustments`, { ...admin, 'idempotency-key': key }, { points, reason: 'load test' }),
    );
    const ids = tally.adjustmentsByKey.get(key) ?? new Set();
    for (const answer of answers) {
      refusal(answer);
      if (answer.status !== 200 && answer.status !== 201) continue;
      ids.add(answer.body.adjustment.id);
      tally.adjustments.set(answer.body.adjustment.id, { userId, points });
    }
    tally.adjustmentsByKey.set(key, ids);
  };
  /**
   * @param {string} userId
   * @param {Reward} reward
   * @param {string} key
   */
  const redeem = async (userId, reward, key) => {
    const answers = await sendBlindly(() =>
      post(
        `/user/${userId}/redemptions`,
        { .../** @type {Record<string, string>} */ (asUser.get(userId)), 'idempotency-key': key },
        { rewardId: reward.id },
      ),
    );
    const ids = tally.redemptionsByKey.get(key) ?? new Set();
    for (const answer of answers) {
      refusal(answer);
      if (answer.status !== 200 && answer.status !== 201) continue;
      ids.add(answer.body.redemption.id);
      tally.redemptions.set(answer.body.redemption.id, { userId, rewardId: reward.id, cost: reward.cost });
    }
    tally.redemptionsByKey.set(key, ids);
    return [...ids];
  };
  /** @param {string} redemptionId */
  const cancelTwice = async (redemptionId) => {
    const answers = await Promise.all(
      [1, 2].map(() => post(`/admin/redemptions/${redemptionId}/cancel`, admin, { reason: 'load test' })),
    );
    for (const answer of answers) refusal(answer);
    tally.cancelled.set(redemptionId, answers.filter((answer) => answer.status === 200).length);
  };

  for (const reward of Object.values(MIXED_REWARDS)) {
    await sendBlindly(() => post('/admin/rewards', admin, reward));
  }
  await Promise.all(spenders.map((id) => adjust(id, OPENING_POINTS, `open-${id}`)));

  const pid = process.pid;
  const depositing = async () => {
    for (let round = 0; round < rounds; round++) {
      await Promise.all(
        kiosks.map(async (kiosk, i) => {
          const body = transactionBody(kiosk.id, spenders[(round + i) % spenders.length]);
          const key = `mixed-${pid}-${round}-${i}`;
          const answers = await sendBlindly(() => submitRecorded(api, ledger, kiosk.apiKey, body, key), 2);
          for (const answer of answers) if (answer.status === 200) ledger.award(answer.body.transaction);
          tally.deposits += 1;
        }),
      );
    }
  };
  const rushing = async () => {
    const issued = await Promise.all(
      Array.from({ length: rush }, (_, i) => redeem(spenders[i % spenders.length], MIXED_REWARDS.scarce, `rush-${i}`)),
    );
    tally.rushIssued = new Set(issued.flat()).size;
  };
  const spending = () =>
    Promise.all(
      spenders.map(async (userId, s) => {
        for (let round = 0; round < rounds; round++) {
          const reward = round % 2 === 0 ? MIXED_REWARDS.voucher : MIXED_REWARDS.donation;
          const [id] = await redeem(userId, reward, `spend-${s}-${round}`);
          if (id && round % 3 === 0) await cancelTwice(id);
          const points = randomInt(2) === 0 ? 5 + randomInt(50) : -(5 + randomInt(200));
          await adjust(userId, points, `adjust-${s}-${round}`);
        }
      }),
    );
  await Promise.all([depositing(), rushing(), spending()]);
  const figures = {
    spenders: spenders.length,
    rounds,
    rush,
    stock: MIXED_REWARDS.scarce.stock,
    rushIssued: tally.rushIssued,
    redemptions: tally.redemptions.size,
    redemptionKeys: tally.redemptionsByKey.size,
    cancelled: [...tally.cancelled.values()].filter((successes) => successes === 1).length,
    adjustments: tally.adjustments.size,
    adjustmentKeys: tally.adjustmentsByKey.size,
    deposits: tally.deposits,
    sent: tally.sent,
    refused: tally.refused,
    seconds: (performance.now() - started) / 1000,
  };
  return { tally, figures };
}

/**
 * Every way Firestore differs from what the mixed phase's answers said (none: its books
 * balance): no key spent or adjusted twice; the rush issued exactly min(stock, rush)
 * and left the stock at what remains; each redemption cancelled by exactly one of its
 * two cancels; each spender's balances equal to what they earned, were adjusted,
 * spent and got back; the redemptions and their notifications, one each, as answered.
 * @param {Awaited<ReturnType<typeof mixedPhase>>['tally']} tally
 * @param {{ spenders: string[], rush: number }} plan
 * @param {Ledger} ledger
 */
export async function mixedBooks(tally, { spenders, rush }, ledger) {
  const problems = [];
  for (const [what, byKey] of /** @type {const} */ ([
    ['redemption', tally.redemptionsByKey],
    ['adjustment', tally.adjustmentsByKey],
  ])) {
    const doubled = [...byKey.values()].filter((ids) => ids.size > 1).length;
    if (doubled > 0) problems.push(`${doubled} ${what} keys were answered with two ${what}s`);
  }
  const scarce = MIXED_REWARDS.scarce;
  const expectedIssued = Math.min(scarce.stock, rush);
  if (tally.rushIssued !== expectedIssued)
    problems.push(`the rush of ${rush} on a stock of ${scarce.stock} issued ${tally.rushIssued}`);
  const stock = (await db().collection('rewards').doc(scarce.id).get()).get('stock');
  if (stock !== scarce.stock - tally.rushIssued)
    problems.push(`${scarce.id} has a stock of ${stock} after ${tally.rushIssued} were issued`);
  const twice = [...tally.cancelled.values()].filter((successes) => successes !== 1).length;
  if (twice > 0) problems.push(`${twice} redemptions were not cancelled by exactly one of their two cancels`);

  const userDocs = await db().getAll(...spenders.map((id) => db().collection('users').doc(id)));
  for (const doc of userDocs) {
    const adjusted = [...tally.adjustments.values()]
      .filter((adjustment) => adjustment.userId === doc.id)
      .reduce((sum, adjustment) => sum + adjustment.points, 0);
    const spent = [...tally.redemptions]
      .filter(([, redemption]) => redemption.userId === doc.id)
      .reduce((sum, [id, redemption]) => sum + redemption.cost * (tally.cancelled.get(id) ? 0 : 1), 0);
    const total = (ledger.byUser.get(doc.id) ?? 0) + adjusted;
    const current = total - spent;
    if (doc.get('totalPoints') !== total || doc.get('currentPoints') !== current)
      problems.push(
        `spender ${doc.id} holds ${doc.get('currentPoints')}/${doc.get('totalPoints')}, expected ${current}/${total}`,
      );
  }

  const redemptions = db().collection('redemptions');
  const stored = (await redemptions.count().get()).data().count;
  if (stored !== tally.redemptions.size)
    problems.push(`${stored} redemption documents for ${tally.redemptions.size} answered`);
  const cancelledStored = (await redemptions.where('status', '==', 'cancelled').count().get()).data().count;
  if (cancelledStored !== tally.cancelled.size)
    problems.push(`${cancelledStored} cancelled redemptions for ${tally.cancelled.size} cancelled`);
  // A redemption cancelled before its trigger ran is never announced (its effects say so).
  const untold = (await redemptions.where('effects.untold', '==', 'cancelled').count().get()).data().count;
  const toTell = stored - untold;
  const notified = () => db().collectionGroup('notifications').where('type', '==', 'redemption').count().get();
  try {
    await waitFor(
      `a redemption notification for each of ${toTell} redemptions not cancelled before they were announced`,
      async () => ((await notified()).data().count >= toTell ? true : undefined),
      300_000,
      async () => `${(await notified()).data().count} notifications so far`,
      1_000,
    );
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  }
  const notifications = (await notified()).data().count;
  if (notifications > toTell)
    problems.push(
      `${notifications} redemption notifications for ${toTell} redemptions to announce (${untold} cancelled first)`,
    );
  return problems;
}
