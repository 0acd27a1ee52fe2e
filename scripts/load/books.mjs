// @ts-check
// The load test's books: what the service's answers said (the Ledger, filled as the
// phases run) and the audit of what Firestore holds against it at the end.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { functionsDir } from '../lib/paths.mjs';

const requireFn = createRequire(join(functionsDir, 'package.json'));
const { db } = requireFn('./lib/adapters/firestore.js');

/** @typedef {{ id: string, kioskId: string, userId: string, pointsEarned: number, plasticCount: number, metalCount: number }} Transaction */

export class Ledger {
  constructor() {
    /** @type {Set<string>} */
    this.counted = new Set();
    this.points = 0;
    /** @type {Map<string, { plastic: number, metal: number }>} */
    this.byKiosk = new Map();
    /** @type {Map<string, number>} */
    this.byUser = new Map();
    /** @type {Map<number, number>} */
    this.statuses = new Map();
    /** @type {number[]} */
    this.latencies = [];
    /** 5xx written by the service itself ({ error } bodies): each one fails the books. */
    this.serviceErrors = 0;
    /** 5xx written by the functions emulator's proxy when a worker's socket broke (EPIPE, ECONNRESET). */
    this.emulatorErrors = 0;
  }
  /**
   * @param {number} code
   * @param {string} [bodyText]
   */
  status(code, bodyText = '') {
    this.statuses.set(code, (this.statuses.get(code) ?? 0) + 1);
    if (code < 500) return;
    let body;
    try {
      body = JSON.parse(bodyText);
    } catch {
      body = undefined;
    }
    if (typeof body?.error === 'string') this.serviceErrors += 1;
    else this.emulatorErrors += 1;
  }
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
  }
}

/**
 * Every way the stored books differ from the ledger (none: the books balance).
 * Returned points = transaction documents = users' gain, per user too; kiosk counters
 * = items; one notification per transaction; no 5xx from the service; no
 * Idempotency-Key awarded twice, none never awarded.
 * @param {Ledger} ledger
 * @param {{ users: string[], hotUser: string, kiosks: { id: string }[] }} seeded
 * @param {{ size: number, docs: { get(field: string): any }[] }} transactions every transaction document, effects done
 * @param {{ logical: number, answered: number, doubled: number }} retries the retries phase's outcome
 */
export async function auditBooks(ledger, seeded, transactions, retries) {
  const problems = [];
  const storedPoints = transactions.docs.reduce((/** @type {number} */ sum, doc) => sum + doc.get('pointsEarned'), 0);
  const userDocs = await db().getAll(
    ...[...seeded.users, seeded.hotUser].map((id) => db().collection('users').doc(id)),
  );
  const userPoints = userDocs.reduce(
    (/** @type {number} */ sum, /** @type {any} */ doc) => sum + doc.get('totalPoints'),
    0,
  );
  if (storedPoints !== ledger.points)
    problems.push(`transaction documents hold ${storedPoints} points, responses returned ${ledger.points}`);
  if (userPoints !== ledger.points)
    problems.push(`users gained ${userPoints} points, responses returned ${ledger.points}`);
  for (const doc of userDocs) {
    const expected = ledger.byUser.get(doc.id) ?? 0;
    if (doc.get('totalPoints') !== expected || doc.get('currentPoints') !== expected) {
      problems.push(`user ${doc.id} holds ${doc.get('currentPoints')}/${doc.get('totalPoints')}, expected ${expected}`);
    }
  }
  const kioskDocs = await db().getAll(...seeded.kiosks.map((k) => db().collection('kiosks').doc(k.id)));
  for (const doc of kioskDocs) {
    const expected = ledger.byKiosk.get(doc.id) ?? { plastic: 0, metal: 0 };
    if (doc.get('plasticCount') !== expected.plastic || doc.get('metalCount') !== expected.metal) {
      problems.push(
        `kiosk ${doc.id} counts ${doc.get('plasticCount')}/${doc.get('metalCount')}, expected ${expected.plastic}/${expected.metal}`,
      );
    }
  }
  const notifications = (await db().collectionGroup('notifications').count().get()).data().count;
  if (notifications !== transactions.size)
    problems.push(`${notifications} notifications for ${transactions.size} transactions`);
  if (ledger.serviceErrors > 0) problems.push(`the service answered ${ledger.serviceErrors} requests with 5xx`);
  if (retries.doubled > 0) problems.push(`${retries.doubled} idempotency keys produced more than one transaction`);
  if (retries.answered !== retries.logical)
    problems.push(`${retries.logical - retries.answered} retried requests were never awarded`);
  return problems;
}
