// The load test's mixed phase, points earned and spent at once (docs/operations.md, Reliability and load): what the
// answers said is tallied, and its books hold Firestore to it. Beside it the lifecycle phase, expiry and erasures (§14,
// §15), and the trust phase (contract §17; docs/trust.md, Load and bench).
import { idTokenFor } from '../../functions/test/harness/auth.ts';
import { waitFor } from '../../functions/test/harness/wait.ts';
import { pause } from '../../kiosk-simulator/client.ts';
import { runAdmin } from '../lib/emulators.mjs';
import { db, fleetUserDoc, writeAll } from '../lib/fleet.mjs';
import { requireFunctions } from '../lib/paths.mjs';
import { AnswersByKey, countOf, docsOf, each, notificationsOf, randomInt } from './books.mjs';
import { sum } from '../lib/stats.mjs';
import { countRefusals, headersOf, phase, post, sendBlindly, submitRecorded, transactionBody } from './bursts.mjs';
import { CAFE } from './vouchers.mjs';

/** The catalog of the phase; `scarce` is the one rushed. The vouchers are the café's (vouchers.mjs). */
const honouredByCafe = { partnerId: CAFE.id, validDays: 30 };
const MIXED_REWARDS = /** @type {const} */ ({
  scarce: { id: 'load-scarce', name: 'Scarce voucher', cost: 10, kind: 'voucher', stock: 10, ...honouredByCafe },
  voucher: { id: 'load-voucher', name: 'Cinema voucher', cost: 30, kind: 'voucher', stock: null, ...honouredByCafe },
  donation: { id: 'load-donation', name: 'Plant a tree', cost: 20, kind: 'donation', stock: null },
});
/** Enough that no spender runs dry before its rush request: a round spends at most 30 + 205 points. */
const OPENING_POINTS = 2_000;

/** @param {import('./run.mjs').Run} run */
async function mixedPhase(run) {
  const { admin, kiosks, spenders } = run;
  const { rush, mixedRounds: rounds } = run.options;
  const asUser = await headersOf(spenders);

  const tally = {
    redemptions: /** @type {AnswersByKey<{ userId: string, rewardId: string, cost: number }>} */ (new AnswersByKey()),
    adjustments: /** @type {AnswersByKey<{ userId: string, points: number }>} */ (new AnswersByKey()),
    /** Redemption id → how many cancels of it were answered 200. */
    cancelled: /** @type {Map<string, number>} */ (new Map()),
    refused: /** @type {Record<string, number>} */ ({}),
    rushIssued: 0,
    deposits: 0,
    /** Requests of spenders and operators sent, blind re-sends included (deposits are the ledger's). */
    sent: 0,
  };
  /** @param {string} path @param {Record<string, string>} headers @param {unknown} body */
  const send = (path, headers, body) => {
    tally.sent += 1;
    return post(run, path, headers, body);
  };
  /**
   * Sends `request` blindly 1-3 times under `key`; records in `byKey` the `what` each answer created; resolves with ids.
   * @template T
   * @param {AnswersByKey<T>} byKey @param {'adjustment' | 'redemption'} what @param {string} key @param {T} detail
   * @param {{ path: string, headers: Record<string, string>, body: unknown }} request
   */
  const create = async (byKey, what, key, detail, { path, headers, body }) => {
    const answers = await sendBlindly(() => send(path, { ...headers, 'idempotency-key': key }, body), 1 + randomInt(3));
    countRefusals(answers, tally.refused);
    for (const answer of answers) {
      byKey.add(key, [200, 201].includes(answer.status) ? answer.body[what].id : undefined, detail);
    }
    return [...(byKey.ids.get(key) ?? [])];
  };
  /** @param {string} userId @param {number} points @param {string} key */
  const adjust = (userId, points, key) => {
    const body = { points, reason: 'load test' };
    const request = { path: `/admin/users/${userId}/adjustments`, headers: admin, body };
    return create(tally.adjustments, 'adjustment', key, { userId, points }, request);
  };
  /** @param {string} userId @param {{ id: string, cost: number }} reward @param {string} key */
  const redeem = (userId, { id, cost }, key) => {
    const request = { path: `/user/${userId}/redemptions`, headers: asUser.get(userId) ?? {}, body: { rewardId: id } };
    return create(tally.redemptions, 'redemption', key, { userId, rewardId: id, cost }, request);
  };
  const cancelTwice = async (/** @type {string} */ redemptionId) => {
    const path = `/admin/redemptions/${redemptionId}/cancel`;
    const answers = await Promise.all([1, 2].map(() => send(path, admin, { reason: 'load test' })));
    countRefusals(answers, tally.refused);
    tally.cancelled.set(redemptionId, answers.filter((answer) => answer.status === 200).length);
  };

  for (const reward of Object.values(MIXED_REWARDS))
    await sendBlindly(() => send('/admin/rewards', admin, reward), 1 + randomInt(3));
  await Promise.all(spenders.map((id) => adjust(id, OPENING_POINTS, `open-${id}`)));

  const depositing = async () => {
    for (let round = 0; round < rounds; round++) {
      await Promise.all(
        // Each spender at one kiosk: a spender at two of them seconds apart would be an impossible trip (trust phase).
        kiosks.slice(0, spenders.length).map(async (kiosk, i) => {
          const body = transactionBody(kiosk.id, spenders[i]);
          const key = `mixed-${process.pid}-${round}-${i}`;
          await sendBlindly(() => submitRecorded(run, kiosk.apiKey, body, key), 1 + randomInt(2));
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
    redemptions: tally.redemptions.byId.size,
    redemptionKeys: tally.redemptions.ids.size,
    cancelled: [...tally.cancelled.values()].filter((successes) => successes === 1).length,
    adjustments: tally.adjustments.byId.size,
    adjustmentKeys: tally.adjustments.ids.size,
    deposits: tally.deposits,
    sent: tally.sent,
    refused: tally.refused,
  };
  return { tally, figures };
}

export const mixed = phase('mixed', {
  intro:
    "{spenders} spenders earn, redeem and are adjusted; {rush} rush a stock of 10; {dormant} dormant users' points " +
    'expire and {leavers} leavers are erased meanwhile',
  work: mixedPhase,
  async books({ ledger, spenders, options }, { tally: { redemptions, adjustments, cancelled, rushIssued } }) {
    const { scarce } = MIXED_REWARDS;
    const { rush } = options;
    const stock = (await db().collection('rewards').doc(scarce.id).get()).get('stock');
    const cancelledOnce = [...cancelled].filter(([, successes]) => successes === 1).map(([id]) => id);
    // A cancel gives back the unit its redemption took (the vouchers phase cancels some of the rush's).
    const givenBack = cancelledOnce.filter((id) => redemptions.byId.get(id)?.rewardId === scarce.id).length;
    /** @template {{ userId: string }} T @param {Map<string, T>} byId @param {string} userId */
    const ofUser = (byId, userId) => [...byId].filter(([, detail]) => detail.userId === userId);
    const balances = each(await docsOf('users', spenders), ({ id }) => {
      const total = ledger.earnedBy(id) + sum(ofUser(adjustments.byId, id).map(([, { points }]) => points));
      const spent = sum(ofUser(redemptions.byId, id).map(([key, { cost }]) => (cancelled.get(key) ? 0 : cost)));
      return { totalPoints: total, currentPoints: total - spent };
    });

    const stored = db().collection('redemptions');
    const storedCount = await countOf(stored);
    const cancelledCount = await countOf(stored.where('status', '==', 'cancelled'));
    // A redemption cancelled before its trigger ran is never announced (its effects say so).
    const toTell = storedCount - (await countOf(stored.where('effects.untold', '==', 'cancelled')));
    await waitFor(
      `a redemption notification for each of ${toTell} redemptions not cancelled before they were announced`,
      async () => ((await notificationsOf('redemption')) >= toTell ? true : undefined),
      300_000,
      async () => `${await notificationsOf('redemption')} notifications so far`,
      1_000,
    ).catch(() => undefined);
    const told = await notificationsOf('redemption');
    return {
      'redemption keys answered with two redemptions': [redemptions.doubled, 0],
      'adjustment keys answered with two adjustments': [adjustments.doubled, 0],
      [`issued by a rush of ${rush} on a stock of ${scarce.stock}`]: [rushIssued, Math.min(scarce.stock, rush)],
      [`stock left of ${scarce.id}`]: [stock, scarce.stock - rushIssued + givenBack],
      'redemptions cancelled by exactly one of their two cancels': [cancelledOnce.length, cancelled.size],
      'spenders holding what they earned, were adjusted, spent and got back': balances,
      'redemption documents = redemptions answered': [storedCount, redemptions.byId.size],
      'cancelled redemption documents = redemptions cancelled': [cancelledCount, cancelled.size],
      'redemption notifications = redemptions not cancelled before announced': [told, toTell],
    };
  },
});

const { pointsModel } = requireFunctions('./lib/data/users.js');
const { openBalance } = requireFunctions('./lib/services/ledgerBooks.js');
const { addMonths, monthOf } = requireFunctions('./lib/domain/pointsExpiry.js');

export const EXPIRE_AFTER_MONTHS = 6;
/** What each dormant user holds from a month whose points expired on the 1st of this one. */
const OLD_POINTS = 500;

/** @param {string[]} dormant @param {string[]} leavers */
export async function seedLifecycle(dormant, leavers) {
  const oldMonth = addMonths(monthOf(new Date()), -(EXPIRE_AFTER_MONTHS + 1));
  const oldPoints = { currentPoints: OLD_POINTS, totalPoints: OLD_POINTS, ...pointsModel({ [oldMonth]: OLD_POINTS }) };
  await writeAll([
    ...dormant.map((id, i) => [db().doc(`users/${id}`), { ...fleetUserDoc(`Dormant user ${i}`), ...oldPoints }]),
    ...leavers.map((id, i) => [db().doc(`users/${id}`), fleetUserDoc(`Leaver ${i}`, `leaver-device-${i}`)]),
  ]);
  for (const id of dormant) await openBalance(id, 'load test');
}

/** The users/{id} documents of `ids`, with `entries` (the points of its `kind` ledger entries) and `erased`. */
const usersWithEntries = async (/** @type {string[]} */ ids, /** @type {string} */ kind) =>
  Promise.all(
    (await docsOf('users', ids)).map(async (user) => {
      const ledger = db().collection('ledger').where('userId', '==', user.id).where('kind', '==', kind);
      const entries = (await ledger.get()).docs.map((/** @type {any} */ entry) => entry.get('points'));
      return { ...user, entries: JSON.stringify(entries), erased: user.erasedAt !== undefined };
    }),
  );

export const lifecycle = phase('lifecycle', {
  async work(run) {
    const { api, admin, kiosks, dormant, leavers, ledger } = run;
    const rounds = run.options.mixedRounds;
    const asSelf = await headersOf(leavers);
    let refusedAsErased = 0;
    const deposit = (/** @type {number} */ round) =>
      Promise.all(
        [...dormant, ...leavers].map(async (userId, i) => {
          // One kiosk each: deposits at two of them seconds apart would be impossible trips (trust phase).
          const kiosk = kiosks[i % kiosks.length];
          const key = `lifecycle-${process.pid}-${round}-${i}`;
          const answer = await submitRecorded(run, kiosk.apiKey, transactionBody(kiosk.id, userId), key);
          if (answer.status === 404) refusedAsErased += 1;
        }),
      );
    /** @param {string} userId @param {number} i */
    const erase = async (userId, i) => {
      const headers = i % 2 === 0 ? asSelf.get(userId) : admin;
      for (let attempt = 1; ; attempt++) {
        const response = await fetch(`${api}/user/${userId}`, { method: 'DELETE', headers });
        const text = await response.text();
        ledger.response(response.status, text);
        if (response.status < 500 || attempt === 5) return JSON.parse(text);
        await pause(500 * attempt);
      }
    };
    const expiryRun = async () => JSON.parse((await runAdmin(run.projectId, ['expiry:run'])).stdout);

    const half = Math.ceil(rounds / 2);
    for (let round = 0; round < half; round++) await deposit(round);
    const [runs, erasures] = await Promise.all([
      Promise.all([expiryRun(), expiryRun()]),
      Promise.all(leavers.map(erase)),
      (async () => {
        for (let round = half; round < rounds; round++) await deposit(round);
      })(),
    ]);
    return {
      runs,
      figures: {
        dormant: dormant.length,
        leavers: leavers.length,
        rounds,
        expiryRunsAtOnce: runs.length,
        usersExpiredByEachRun: runs.map((run) => run.expired.users).join(' + '),
        erased: erasures.filter((answer) => answer.success).length,
        depositsRefusedAsErased: refusedAsErased,
      },
    };
  },
  async books({ ledger, dormant, leavers }, { runs }) {
    const expired = sum(runs.map((run) => run.expired.users));
    const dormantUsers = each(await usersWithEntries(dormant, 'expire'), ({ id }) => ({
      erased: false,
      currentPoints: ledger.earnedBy(id),
      totalPoints: OLD_POINTS + ledger.earnedBy(id),
      entries: JSON.stringify([-OLD_POINTS]),
    }));
    const leaverUsers = each(await usersWithEntries(leavers, 'forfeit'), ({ id }) => ({
      erased: true,
      currentPoints: 0,
      totalPoints: ledger.earnedBy(id),
      entries: JSON.stringify(ledger.earnedBy(id) ? [-ledger.earnedBy(id)] : []),
      name: undefined,
    }));
    const inboxes = leavers.map((id) => countOf(db().collection('users').doc(id).collection('notifications')));
    return {
      'dormant users expired by two expiry runs at once': [expired, dormant.length],
      'dormant users with one expire entry of their old points': dormantUsers,
      'leavers erased, with a forfeit of exactly their awards': leaverUsers,
      'notifications kept for erased leavers': [sum(await Promise.all(inboxes)), 0],
    };
  },
});

const { newKiosk } = requireFunctions('./lib/data/kiosks.js');
const { issueKey } = requireFunctions('./lib/data/kioskKeys.js');

/** Items per minute of every kiosk: the fleet's deposits of the mixed phase stay far below 10 × this. */
export const LIMITS = { kioskItemsPerMinute: 50, userItemsPerDay: 1_000_000, travelKmh: 250 };
const ROGUE = { deposits: 25, items: 200, users: 5 };
const PLACES = { berlin: { latitude: 52.52, longitude: 13.41 }, munich: { latitude: 48.14, longitude: 11.58 } };
const MINUTE = 60_000;
/** A traveller's deposits: where, and minutes after the first; `held` the impossible trips. */
const TRIPS = /** @type {const} */ ([
  ['berlin', 0, false],
  ['munich', 30, true],
  ['munich', 31, false],
  ['berlin', 300, false],
  ['munich', 310, true],
]).map(([at, minutes, held]) => ({ at, minutes, held }));

/** @param {import('./run.mjs').Run} run */
async function trustPhase(run) {
  const kioskIds = ['load-rogue-kiosk', 'load-berlin', 'load-munich'];
  const [rogueKiosk, berlin, munich] = kioskIds;
  const travellers = ['load-traveller-0', 'load-traveller-1'];
  const users = [...Array.from({ length: ROGUE.users }, (_, i) => `load-rogue-user-${i}`), ...travellers];
  const place = (/** @type {string} */ id) => (id === munich ? PLACES.munich : PLACES.berlin);
  const kiosk = (/** @type {string} */ id) =>
    newKiosk({ name: id, address: id, openingHours: '24/7', timezone: 'Europe/Berlin', location: place(id) });
  await writeAll([
    ...kioskIds.map((id) => [db().collection('kiosks').doc(id), kiosk(id)]),
    ...users.map((id) => [db().collection('users').doc(id), fleetUserDoc(id)]),
  ]);
  const keys = Object.fromEntries(
    await Promise.all(kioskIds.map(async (id) => [id, (await issueKey(id, 'load test')).apiKey])),
  );
  /** @param {string} kioskId @param {{ userId: string, plasticCount: number, metalCount: number }} body @param {string} key */
  const deposit = async (kioskId, body, key) =>
    (await submitRecorded(run, keys[kioskId], { kioskId, ...body }, key)).body?.transaction;

  const rogue = await Promise.all(
    Array.from({ length: ROGUE.deposits }, (_, i) =>
      deposit(rogueKiosk, { userId: users[i % ROGUE.users], plasticCount: ROGUE.items, metalCount: 0 }, `rogue-${i}`),
    ),
  );
  const base = Date.now() - 12 * 60 * MINUTE;
  const trips = await Promise.all(
    travellers.map(async (userId) => {
      const answers = [];
      for (const [i, { at, minutes }] of TRIPS.entries()) {
        const occurredAt = new Date(base + minutes * MINUTE).toISOString();
        const body = { userId, plasticCount: 1, metalCount: 0, occurredAt };
        answers.push(await deposit(at === 'berlin' ? berlin : munich, body, `${userId}-${i}`));
      }
      return answers;
    }),
  );

  // Two operators act on every open hold at once: one releases, the other rejects.
  const operators = await Promise.all(
    ['load-operator-1', 'load-operator-2'].map((uid) => idTokenFor(uid, { admin: true })),
  );
  const holds = (await db().collection('holds').where('resolution', '==', null).get()).docs.map((doc) => doc.id);
  const answers = await Promise.all(
    holds.map((id) =>
      Promise.all(
        ['release', 'reject'].map((verb, i) =>
          post(run, `/admin/holds/${id}/${verb}`, { authorization: `Bearer ${operators[i]}` }, { reason: 'load test' }),
        ),
      ),
    ),
  );
  const count = (/** @type {string} */ field, /** @type {unknown} */ value) =>
    countOf(db().collection('holds').where(field, '==', value));
  const held = (/** @type {any[]} */ list) => list.filter((transaction) => transaction?.status === 'held');
  const figures = {
    'rogue deposits': rogue.length,
    'rogue deposits held': held(rogue).length,
    'trips held': held(trips.flat()).length,
    held: holds.length,
    released: await count('resolution', 'released'),
    rejected: await count('resolution', 'rejected'),
  };
  return { figures, rogue, trips, answers };
}

export const trust = phase('trust', {
  // The limits, before the phases that deposit under them start.
  setup: () => db().doc('config/risk').set(LIMITS),
  work: trustPhase,
  async books(_, { figures, rogue, trips, answers }) {
    const awardable = Math.floor((10 * LIMITS.kioskItemsPerMinute) / ROGUE.items);
    const expectedTrips = trips.flatMap((answers) => answers.map((_, i) => TRIPS[i].held));
    const reasons = (/** @type {any} */ transaction) => (transaction?.holdReasons ?? []).join();
    return {
      'rogue deposits held: every one past the limit': [figures['rogue deposits held'], ROGUE.deposits - awardable],
      'rogue holds for kiosk-throughput alone': [
        rogue.filter((t) => t?.status === 'held' && reasons(t) === 'kiosk-throughput').length,
        ROGUE.deposits - awardable,
      ],
      'trips held exactly when impossible': [
        trips.flat().filter((t, i) => (t?.status === 'held') === expectedTrips[i]).length,
        expectedTrips.length,
      ],
      'holds of the whole run = rogue and travel holds': [
        await countOf(db().collection('holds')),
        ROGUE.deposits - awardable + expectedTrips.filter(Boolean).length,
      ],
      'holds decided exactly once (released + rejected)': [figures.released + figures.rejected, figures.held],
      'holds answered 200 twice': [answers.filter((pair) => pair.every((answer) => answer.status === 200)).length, 0],
    };
  },
});
