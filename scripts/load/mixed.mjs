// @ts-check
// The load test's mixed phase: points earned and spent at once. Users of their own
// (spenders) get an opening adjustment, then, all concurrently: kiosks keep depositing
// for them; a rush of concurrent redemptions of a reward with a small stock; random
// redemptions of unlimited rewards; adjustments up and down; and operators cancelling
// some redemptions. Every request is sent blindly 1-3 times with one Idempotency-Key
// (a cancel twice), partly concurrently, as a client that lost its answers would.
// What the answers said is tallied here; mixedBooks() then holds Firestore to it.
import { performance } from 'node:perf_hooks';
import { requireFunctions } from '../lib/paths.mjs';
import { idTokenFor } from '../../functions/test/harness/auth.ts';
import { KIOSK_RETRIES, postWithRetries } from '../../kiosk-simulator/client.ts';
import { waitFor } from '../../functions/test/harness/wait.ts';
import { AnswersByKey, countOf, randomInt } from './books.mjs';
import { submitRecorded, transactionBody } from './bursts.mjs';
import { CAFE } from './vouchers.mjs';

const { db } = requireFunctions('./lib/adapters/firestore.js');

/**
 * @typedef {import('./books.mjs').Ledger} Ledger
 * @typedef {{ id: string, apiKey: string }} Kiosk
 * @typedef {{ id: string, cost: number, stock: number | null, kind: 'voucher' | 'donation' }} Reward
 */

/** The catalog of the phase; `scarce` is the one rushed. The vouchers are the café's (vouchers.mjs). */
const honouredByCafe = { partnerId: CAFE.id, validDays: 30 };
export const MIXED_REWARDS = /** @type {const} */ ({
  scarce: { id: 'load-scarce', name: 'Scarce voucher', cost: 10, kind: 'voucher', stock: 10, ...honouredByCafe },
  voucher: { id: 'load-voucher', name: 'Cinema voucher', cost: 30, kind: 'voucher', stock: null, ...honouredByCafe },
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
 * @param {{ api: string, admin: Record<string, string>, kiosks: Kiosk[], spenders: string[], rush: number, rounds: number }} plan
 * @param {Ledger} ledger
 */
export async function mixedPhase({ api, admin, kiosks, spenders, rush, rounds }, ledger) {
  const started = performance.now();
  /** @type {Map<string, Record<string, string>>} */
  const asUser = new Map();
  for (const id of spenders) asUser.set(id, { authorization: `Bearer ${await idTokenFor(id)}` });

  const tally = {
    redemptionsByKey: new AnswersByKey(),
    adjustmentsByKey: new AnswersByKey(),
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
    return postWithRetries(api, path, { headers, body }, KIOSK_RETRIES, { onResponse: ledger.response });
  };
  /** @param {{ status: number, body: any }} answer */
  const refusal = ({ status, body }) => {
    if (status < 400) return;
    const name = `${status} ${body?.code ?? 'no code'}`;
    tally.refused[name] = (tally.refused[name] ?? 0) + 1;
  };
  /**
   * POSTs `body` to `path` under Idempotency-Key `key`, blindly 1-3 times; records the
   * id each created `what` was answered with under `key`. Resolves with those ids.
   * @param {'adjustment' | 'redemption'} what
   * @param {string} path
   * @param {Record<string, string>} headers
   * @param {unknown} body
   * @param {string} key
   */
  const create = async (what, path, headers, body, key) => {
    const byKey = what === 'adjustment' ? tally.adjustmentsByKey : tally.redemptionsByKey;
    for (const answer of await sendBlindly(() => post(path, { ...headers, 'idempotency-key': key }, body))) {
      refusal(answer);
      byKey.add(key, answer.status === 200 || answer.status === 201 ? answer.body[what].id : undefined);
    }
    return [.../** @type {Set<string>} */ (byKey.ids.get(key))];
  };
  /**
   * @param {string} userId
   * @param {number} points
   * @param {string} key
   */
  const adjust = async (userId, points, key) => {
    const body = { points, reason: 'load test' };
    const ids = await create('adjustment', `/admin/users/${userId}/adjustments`, admin, body, key);
    for (const id of ids) tally.adjustments.set(id, { userId, points });
  };
  /**
   * @param {string} userId
   * @param {Reward} reward
   * @param {string} key
   */
  const redeem = async (userId, reward, key) => {
    const headers = /** @type {Record<string, string>} */ (asUser.get(userId));
    const ids = await create('redemption', `/user/${userId}/redemptions`, headers, { rewardId: reward.id }, key);
    for (const id of ids) tally.redemptions.set(id, { userId, rewardId: reward.id, cost: reward.cost });
    return ids;
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
          await sendBlindly(() => submitRecorded(api, ledger, kiosk.apiKey, body, key), 2);
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
    redemptionKeys: tally.redemptionsByKey.ids.size,
    cancelled: [...tally.cancelled.values()].filter((successes) => successes === 1).length,
    adjustments: tally.adjustments.size,
    adjustmentKeys: tally.adjustmentsByKey.ids.size,
    deposits: tally.deposits,
    sent: tally.sent,
    refused: tally.refused,
    seconds: (performance.now() - started) / 1000,
  };
  return { tally, figures };
}

/**
 * The mixed phase's books: no key spent or adjusted twice; the rush issued exactly
 * min(stock, rush) and left the stock at what remains, with what cancels gave back;
 * each redemption cancelled by exactly one of its two cancels; each spender's balances
 * equal to what they earned, were adjusted, spent and got back; the redemptions and
 * their notifications, one each, as answered (none for one cancelled before it was
 * announced).
 * @param {import('./books.mjs').Books} books
 * @param {Awaited<ReturnType<typeof mixedPhase>>['tally']} tally
 * @param {{ spenders: string[], rush: number }} plan
 * @param {Ledger} ledger
 */
export async function mixedBooks(books, tally, { spenders, rush }, ledger) {
  books.expect('redemption keys answered with two redemptions', tally.redemptionsByKey.doubled, 0);
  books.expect('adjustment keys answered with two adjustments', tally.adjustmentsByKey.doubled, 0);
  const scarce = MIXED_REWARDS.scarce;
  books.expect(
    `issued by a rush of ${rush} on a stock of ${scarce.stock}`,
    tally.rushIssued,
    Math.min(scarce.stock, rush),
  );
  const stock = (await db().collection('rewards').doc(scarce.id).get()).get('stock');
  // A cancel gives back the unit its redemption took (the vouchers phase cancels some of the rush's).
  const givenBack = [...tally.cancelled].filter(
    ([id, successes]) => successes === 1 && tally.redemptions.get(id)?.rewardId === scarce.id,
  ).length;
  books.expect(`stock left of ${scarce.id}`, stock, scarce.stock - tally.rushIssued + givenBack);
  const once = [...tally.cancelled.values()].filter((successes) => successes === 1).length;
  books.expect('redemptions cancelled by exactly one of their two cancels', once, tally.cancelled.size);

  const sumOf = (
    /** @type {Iterable<[string, { userId: string }]>} */ entries,
    /** @type {string} */ userId,
    /** @type {(id: string, entry: any) => number} */ value,
  ) =>
    [...entries].filter(([, entry]) => entry.userId === userId).reduce((sum, [id, entry]) => sum + value(id, entry), 0);
  const userDocs = await db().getAll(...spenders.map((id) => db().collection('users').doc(id)));
  books.expectEach('spenders holding what they earned, were adjusted, spent and got back', userDocs, ({ id }) => {
    const total = (ledger.byUser.get(id) ?? 0) + sumOf(tally.adjustments, id, (_, { points }) => points);
    const spent = sumOf(tally.redemptions, id, (key, { cost }) => (tally.cancelled.get(key) ? 0 : cost));
    return { totalPoints: total, currentPoints: total - spent };
  });

  const redemptions = db().collection('redemptions');
  const stored = await countOf(redemptions);
  books.expect('redemption documents = redemptions answered', stored, tally.redemptions.size);
  const cancelled = await countOf(redemptions.where('status', '==', 'cancelled'));
  books.expect('cancelled redemption documents = redemptions cancelled', cancelled, tally.cancelled.size);
  // A redemption cancelled before its trigger ran is never announced (its effects say so).
  const toTell = stored - (await countOf(redemptions.where('effects.untold', '==', 'cancelled')));
  const notified = () => countOf(db().collectionGroup('notifications').where('type', '==', 'redemption'));
  await waitFor(
    `a redemption notification for each of ${toTell} redemptions not cancelled before they were announced`,
    async () => ((await notified()) >= toTell ? true : undefined),
    300_000,
    async () => `${await notified()} notifications so far`,
    1_000,
  ).catch(() => undefined);
  books.expect('redemption notifications = redemptions not cancelled before announced', await notified(), toTell);
}
