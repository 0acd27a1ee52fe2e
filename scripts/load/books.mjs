// @ts-check
// The load test's books: what the service's answers said (the Ledger, filled as the
// phases run), and the checks of what Firestore holds against it at the end, each a
// row of RELIABILITY.md's books table (expected, found).
import { spawnSync } from 'node:child_process';
import { isOverloaded } from '../../kiosk-simulator/journal.ts';
import { adminCli, requireFunctions } from '../lib/paths.mjs';

const { db } = requireFunctions('./lib/adapters/firestore.js');

/** @typedef {{ id: string, kioskId: string, userId: string, pointsEarned: number, plasticCount: number, metalCount: number, occurredAt: string }} Transaction */
/** @typedef {{ transactions: number, plasticCount: number, metalCount: number, points: number }} DayFigures */
/** @typedef {{ check: string, expected: unknown, found: unknown, ok: boolean }} Check */

export const randomInt = (/** @type {number} */ max) => Math.floor(Math.random() * max);

/** The ids answered for each Idempotency-Key: a key answered with two ids did the work twice. */
export class AnswersByKey {
  /** @type {Map<string, Set<string>>} */
  ids = new Map();
  /**
   * @param {string} key
   * @param {string} [id] absent: the key was sent and refused
   */
  add(key, id) {
    const ids = this.ids.get(key) ?? new Set();
    if (id !== undefined) ids.add(id);
    this.ids.set(key, ids);
  }
  /** Keys answered with an id. */
  get answered() {
    return [...this.ids.values()].filter((ids) => ids.size > 0).length;
  }
  /** Keys answered with more than one id. */
  get doubled() {
    return [...this.ids.values()].filter((ids) => ids.size > 1).length;
  }
}

export class Ledger {
  /** @type {Set<string>} */
  counted = new Set();
  points = 0;
  /** @type {Map<string, { plastic: number, metal: number }>} */
  byKiosk = new Map();
  /** @type {Map<string, number>} */
  byUser = new Map();
  /** @type {Map<string, DayFigures>} by `<kioskId>_<UTC day of occurredAt>`, as kioskDays documents are named */
  byKioskDay = new Map();
  /** @type {Map<number, number>} */
  statuses = new Map();
  /** @type {number[]} */
  latencies = [];
  /** 5xx written by the service itself ({ error } bodies) but 503 `overloaded`: each one fails the books. */
  serviceErrors = 0;
  /** 503 `overloaded` (with Retry-After): the service protecting itself, nothing written; sent again, no fault. */
  overloaded = 0;
  /** 5xx written by the functions emulator's proxy when a worker's socket broke (EPIPE, ECONNRESET). */
  emulatorErrors = 0;

  /**
   * Every HTTP response a phase received, retries included: its status and its time.
   * @param {number} code
   * @param {string} [bodyText]
   * @param {number} [ms]
   */
  response = (code, bodyText = '', ms) => {
    if (ms !== undefined) this.latencies.push(ms);
    this.statuses.set(code, (this.statuses.get(code) ?? 0) + 1);
    if (code < 500) return;
    let body;
    try {
      body = JSON.parse(bodyText);
    } catch {
      body = undefined;
    }
    if (isOverloaded({ status: code, code: body?.code })) this.overloaded += 1;
    else if (typeof body?.error === 'string') this.serviceErrors += 1;
    else this.emulatorErrors += 1;
  };

  /**
   * Counts each transaction once, however often its answer was received.
   * @param {Transaction} transaction
   */
  award(transaction) {
    if (this.counted.has(transaction.id)) return;
    this.counted.add(transaction.id);
    this.points += transaction.pointsEarned;
    const kiosk = this.byKiosk.get(transaction.kioskId) ?? { plastic: 0, metal: 0 };
    kiosk.plastic += transaction.plasticCount;
    kiosk.metal += transaction.metalCount;
    this.byKiosk.set(transaction.kioskId, kiosk);
    this.byUser.set(transaction.userId, (this.byUser.get(transaction.userId) ?? 0) + transaction.pointsEarned);
    const dayId = `${transaction.kioskId}_${transaction.occurredAt.slice(0, 10)}`;
    const day = this.byKioskDay.get(dayId) ?? { transactions: 0, plasticCount: 0, metalCount: 0, points: 0 };
    day.transactions += 1;
    day.plasticCount += transaction.plasticCount;
    day.metalCount += transaction.metalCount;
    day.points += transaction.pointsEarned;
    this.byKioskDay.set(dayId, day);
  }
}

/** The books' checks, in the order they were made; they balance when every one is ok. */
export class Books {
  /** @type {Check[]} */
  checks = [];
  /**
   * @param {string} check what must hold
   * @param {unknown} found
   * @param {unknown} expected
   * @param {boolean} [ok] default: found === expected
   */
  expect(check, found, expected, ok = found === expected) {
    this.checks.push({ check, expected, found, ok });
  }
  /**
   * Of `docs`, how many hold what `expectedOf` says (by field); the first one that does not is named.
   * @param {string} check
   * @param {{ id: string, get(field: string): any }[]} docs
   * @param {(doc: { id: string }) => Record<string, unknown>} expectedOf
   */
  expectEach(check, docs, expectedOf) {
    const differing = docs.filter((doc) => Object.entries(expectedOf(doc)).some(([field, v]) => doc.get(field) !== v));
    const first = differing[0];
    const note = first
      ? ` (${first.id}: ${JSON.stringify(Object.fromEntries(Object.keys(expectedOf(first)).map((f) => [f, first.get(f)])))}, expected ${JSON.stringify(expectedOf(first))})`
      : '';
    this.expect(check, `${docs.length - differing.length}${note}`, docs.length, differing.length === 0);
  }
  get problems() {
    return this.checks
      .filter(({ ok }) => !ok)
      .map(({ check, expected, found }) => `${check}: ${found}, not ${expected}`);
  }
}

export const countOf = async (/** @type {any} */ query) =>
  /** @type {number} */ ((await query.count().get()).data().count);

/**
 * The books of the fleet, hot, retries and offline phases: returned points =
 * transaction documents = users' gain, per user and per kiosk too; one notification per
 * transaction (but an erased user's); no 5xx from the service; no Idempotency-Key awarded twice or never;
 * every offline deposit exactly one transaction document, none left in a journal; the
 * daily figures (kioskDays) equal to the sums per kiosk and UTC day of occurredAt.
 * @param {Books} books
 * @param {Ledger} ledger
 * @param {{ users: string[], hotUser: string, kiosks: { id: string }[], offlineKiosks: { id: string }[], leavers: string[] }} seeded
 * @param {{ get(field: string): any }[]} transactions every transaction document, effects done
 * @param {{ requests: number, awarded: number, doubled: number }} retries the retries phase's outcome
 * @param {{ deposits: number, awarded: number, doubled: number, leftInJournals: number, itemServerErrors: number }} offline the offline phase's outcome
 */
export async function auditBooks(books, ledger, seeded, transactions, retries, offline) {
  const stored = transactions.reduce((/** @type {number} */ sum, doc) => sum + doc.get('pointsEarned'), 0);
  books.expect('points in transaction documents = points returned', stored, ledger.points);
  const users = await db().getAll(...[...seeded.users, seeded.hotUser].map((id) => db().collection('users').doc(id)));
  const sum = (/** @type {(doc: any) => number} */ of) =>
    users.reduce((/** @type {number} */ n, /** @type {any} */ doc) => n + of(doc), 0);
  // The spenders of the mixed phase also earn; their books (adjusted, spent) are mixedBooks'.
  const returned = sum((doc) => ledger.byUser.get(doc.id) ?? 0);
  books.expect(
    "users' points gained = points returned to them",
    sum((doc) => doc.get('totalPoints')),
    returned,
  );
  books.expectEach('users holding exactly what was returned for them', users, ({ id }) => ({
    totalPoints: ledger.byUser.get(id) ?? 0,
    currentPoints: ledger.byUser.get(id) ?? 0,
  }));
  const kioskRefs = [...seeded.kiosks, ...seeded.offlineKiosks].map((k) => db().collection('kiosks').doc(k.id));
  books.expectEach('kiosks counting exactly the items awarded there', await db().getAll(...kioskRefs), ({ id }) => ({
    plasticCount: ledger.byKiosk.get(id)?.plastic ?? 0,
    metalCount: ledger.byKiosk.get(id)?.metal ?? 0,
  }));
  const notified = await countOf(db().collectionGroup('notifications').where('type', '==', 'transaction'));
  // An erased person keeps no notification (lifecycle.mjs's books count what is left of theirs).
  const erased = new Set(seeded.leavers);
  const ofKept = transactions.filter((doc) => !erased.has(doc.get('userId'))).length;
  books.expect('transaction notifications = transaction documents of users not erased', notified, ofKept);
  books.expect('5xx from the service (but 503 overloaded)', ledger.serviceErrors, 0);
  books.expect('retried keys awarded', retries.awarded, retries.requests);
  books.expect('retried keys awarded twice', retries.doubled, 0);
  const offlineIds = new Set(seeded.offlineKiosks.map((kiosk) => kiosk.id));
  const offlineStored = transactions.filter((doc) => offlineIds.has(doc.get('kioskId'))).length;
  books.expect('transaction documents of offline deposits', offlineStored, offline.deposits);
  books.expect('offline deposits awarded', offline.awarded, offline.deposits);
  books.expect('offline deposits awarded twice', offline.doubled, 0);
  books.expect("deposits left in the kiosks' journals", offline.leftInJournals, 0);
  books.expect('batch items answered 5xx (but 503 overloaded)', offline.itemServerErrors, 0);
  const days = (await db().collection('kioskDays').get()).docs;
  const zero = { transactions: 0, plasticCount: 0, metalCount: 0, points: 0 };
  books.expectEach('kioskDays documents = sums per kiosk and UTC day', days, ({ id }) => {
    return ledger.byKioskDay.get(id) ?? zero;
  });
  const storedDays = new Set(days.map((/** @type {{ id: string }} */ doc) => doc.id));
  const missing = [...ledger.byKioskDay.keys()].filter((id) => !storedDays.has(id));
  books.expect('kiosk-days with a transaction but no kioskDays document', missing.length, 0);
}

/**
 * The operator CLI (as built) against `projectId` on the emulators, with `args`.
 * @param {string} projectId
 * @param {string[]} args
 */
export const runAdmin = (projectId, args) =>
  spawnSync(process.execPath, [adminCli, '--project', projectId, '--emulator', ...args], { encoding: 'utf8' });

/**
 * The operator CLI's `audit` on the whole database (every balance from the ledger,
 * every kiosk counter from the transactions): its verdict line, and the first
 * differences it printed.
 * @param {string} projectId
 */
export function pointsAudit(projectId) {
  const run = runAdmin(projectId, ['audit']);
  const verdict = `${run.stdout}${run.stderr}`.match(/audit: (OK|DRIFT) \([^)]*\)/)?.[0];
  const line = verdict ?? `audit did not run (exit ${run.status})`;
  return { ok: run.status === 0, line, differences: run.stdout.trim().split('\n').slice(0, 3).join('; ') };
}
