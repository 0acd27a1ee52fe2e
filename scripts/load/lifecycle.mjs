// @ts-check
// The load test's expiry and erasures (contract §14, §15), run during the mixed phase.
// Dormant users hold points added in a month now past their validity (users from
// before the ledger, so their opening balance is an adjustment) and keep depositing;
// leavers deposit too. Halfway through, the expiry run runs twice at once (the CLI, the
// code the daily function runs) and every leaver is erased through the API (half by
// themselves, half by an operator), while both keep depositing. lifecycleBooks() then
// holds Firestore to the answers: each dormant user lost exactly their old points,
// once; each leaver's forfeit wrote off exactly what they were awarded, and nothing
// that names them is left.
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { idTokenFor } from '../../functions/test/harness/auth.ts';
import { adminCli, requireFunctions } from '../lib/paths.mjs';
import { fleetUserDoc, writeAll } from '../lib/fleet.mjs';
import { countOf } from './books.mjs';
import { submitRecorded, transactionBody } from './bursts.mjs';

const { db } = requireFunctions('./lib/adapters/firestore.js');
const { pointsModel } = requireFunctions('./lib/data/users.js');
const { openBalance } = requireFunctions('./lib/services/ledgerBooks.js');
const { addMonths, monthOf } = requireFunctions('./lib/domain/pointsExpiry.js');

/** The setting of the run: points expire after this many months. */
export const EXPIRE_AFTER_MONTHS = 6;
/** What each dormant user holds from a month whose points expired on the 1st of this one. */
const OLD_POINTS = 500;

/**
 * The dormant users' and leavers' documents: a dormant user's balance added in the
 * month whose points expire on the 1st of this one.
 * @param {string[]} dormant
 * @param {string[]} leavers
 */
export async function seedLifecycle(dormant, leavers) {
  const oldMonth = addMonths(monthOf(new Date()), -(EXPIRE_AFTER_MONTHS + 1));
  await writeAll([
    ...dormant.map((id, i) => [
      db().collection('users').doc(id),
      {
        ...fleetUserDoc(`Dormant user ${i}`),
        currentPoints: OLD_POINTS,
        totalPoints: OLD_POINTS,
        ...pointsModel({ [oldMonth]: OLD_POINTS }),
      },
    ]),
    ...leavers.map((id, i) => [db().collection('users').doc(id), fleetUserDoc(`Leaver ${i}`, `leaver-device-${i}`)]),
  ]);
  for (const id of dormant) await openBalance(id, 'load test');
}

/**
 * @param {{ api: string, admin: Record<string, string>, projectId: string, kiosks: { id: string, apiKey: string }[], dormant: string[], leavers: string[], rounds: number }} plan
 * @param {import('./books.mjs').Ledger} ledger
 */
export async function lifecyclePhase({ api, admin, projectId, kiosks, dormant, leavers, rounds }, ledger) {
  const started = performance.now();
  const asSelf = new Map();
  for (const id of leavers) asSelf.set(id, { authorization: `Bearer ${await idTokenFor(id)}` });
  const people = [...dormant, ...leavers];
  const refusedAfterErasure = { count: 0 };
  const deposit = async (/** @type {number} */ round) =>
    Promise.all(
      people.map(async (userId, i) => {
        const kiosk = kiosks[(round + i) % kiosks.length];
        const answer = await submitRecorded(
          api,
          ledger,
          kiosk.apiKey,
          transactionBody(kiosk.id, userId),
          `lifecycle-${process.pid}-${round}-${i}`,
        );
        if (answer.status === 404) refusedAfterErasure.count += 1;
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
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  };
  const expiryRun = async () => {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [adminCli, '--project', projectId, '--emulator', 'expiry:run']);
    return JSON.parse(stdout);
  };

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
    erasures,
    figures: {
      dormant: dormant.length,
      leavers: leavers.length,
      rounds,
      expiryRunsAtOnce: runs.length,
      usersExpiredByEachRun: runs.map((run) => run.expired.users).join(' + '),
      erased: erasures.filter((answer) => answer.success).length,
      depositsRefusedAsErased: refusedAfterErasure.count,
      seconds: (performance.now() - started) / 1000,
    },
  };
}

/**
 * The lifecycle's books: one `expire` entry per dormant user, of exactly their old
 * points, and a balance of what they were awarded since; each leaver erased, with a
 * `forfeit` of exactly what they were awarded (none when nothing), no name, no
 * notification; the two runs together expired each dormant user once.
 * @param {import('./books.mjs').Books} books
 * @param {Awaited<ReturnType<typeof lifecyclePhase>>} phase
 * @param {{ dormant: string[], leavers: string[] }} plan
 * @param {import('./books.mjs').Ledger} ledger
 */
export async function lifecycleBooks(books, { runs }, { dormant, leavers }, ledger) {
  const expired = runs.reduce((sum, run) => sum + run.expired.users, 0);
  books.expect('dormant users expired by two expiry runs at once', expired, dormant.length);
  const ledgerOf = async (/** @type {string} */ userId, /** @type {string} */ kind) =>
    (await db().collection('ledger').where('userId', '==', userId).where('kind', '==', kind).get()).docs.map(
      (/** @type {any} */ doc) => doc.get('points'),
    );
  /**
   * The users/{id} documents of `ids`, each also answering `entries` (the points of its `kind`
   * entries) and `erased` (whether `erasedAt` is set).
   * @param {string[]} ids
   * @param {string} kind
   */
  const usersWithEntries = async (ids, kind) => {
    const docs = await db().getAll(...ids.map((id) => db().collection('users').doc(id)));
    return Promise.all(
      docs.map(async (/** @type {any} */ doc) => {
        const entries = JSON.stringify(await ledgerOf(doc.id, kind));
        /** @type {Record<string, unknown>} */
        const figures = { entries, erased: doc.get('erasedAt') !== undefined };
        return {
          id: doc.id,
          get: (/** @type {string} */ field) => (field in figures ? figures[field] : doc.get(field)),
        };
      }),
    );
  };
  const dormantUsers = await usersWithEntries(dormant, 'expire');
  books.expectEach('dormant users with one expire entry of their old points', dormantUsers, ({ id }) => {
    const earned = ledger.byUser.get(id) ?? 0;
    return {
      erased: false,
      currentPoints: earned,
      totalPoints: OLD_POINTS + earned,
      entries: JSON.stringify([-OLD_POINTS]),
    };
  });
  const leaverUsers = await usersWithEntries(leavers, 'forfeit');
  books.expectEach('leavers erased, with a forfeit of exactly their awards', leaverUsers, ({ id }) => {
    const earned = ledger.byUser.get(id) ?? 0;
    const forfeit = JSON.stringify(earned ? [-earned] : []);
    return { erased: true, currentPoints: 0, totalPoints: earned, entries: forfeit, name: undefined };
  });
  const inboxes = await Promise.all(
    leavers.map((id) => countOf(db().collection('users').doc(id).collection('notifications'))),
  );
  books.expect(
    'notifications kept for erased leavers',
    inboxes.reduce((sum, n) => sum + n, 0),
    0,
  );
}
