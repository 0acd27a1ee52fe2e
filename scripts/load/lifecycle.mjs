// The load test's expiry and erasures (§14, §15), beside the mixed phase (docs/operations.md, Reliability and load).
import { pause } from '../../kiosk-simulator/client.ts';
import { db, fleetUserDoc, writeAll } from '../lib/fleet.mjs';
import { requireFunctions } from '../lib/paths.mjs';
import { runAdmin } from '../lib/emulators.mjs';
import { sum } from '../lib/stats.mjs';
import { countOf, docsOf, each } from './books.mjs';
import { headersOf, phase, submitRecorded, transactionBody } from './bursts.mjs';

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

/**
 * The users/{id} documents of `ids`, with `entries` (the points of its `kind` ledger entries) and `erased`.
 * @param {string[]} ids @param {string} kind
 */
const usersWithEntries = async (ids, kind) =>
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
          // One kiosk each: deposits at two of them seconds apart would be impossible trips (trust.mjs).
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
