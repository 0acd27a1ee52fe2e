// The load test's trust phase (contract §17), beside the mixed phase: docs/trust.md, Load and bench.
import { requireFunctions } from '../lib/paths.mjs';
import { db, fleetUserDoc, writeAll } from '../lib/fleet.mjs';
import { idTokenFor } from '../../functions/test/harness/auth.ts';
import { countOf } from './books.mjs';
import { phase, post, submitRecorded } from './bursts.mjs';

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
