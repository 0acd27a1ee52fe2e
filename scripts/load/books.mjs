// @ts-check
// The load test's books: what the service's answers said (the Ledger, filled as the
// phases run) and the audit of what Firestore holds against it at the end.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isOverloaded } from '../../kiosk-simulator/journal.ts';
import { functionsDir } from '../lib/paths.mjs';

const requireFn = createRequire(join(functionsDir, 'package.json'));
const { db } = requireFn('./lib/adapters/firestore.js');

/** @typedef {{ id: string, kioskId: string, userId: string, pointsEarned: number, plasticCount: number, metalCount: number, occurredAt: string }} Transaction */
/** @typedef {{ transactions: number, plasticCount: number, metalCount: number, points: number }} DayFigures */

export class Ledger {
  constructor() {
    /** @type {Set<string>} */
    this.counted = new Set();
    this.points = 0;
    /** @type {Map<string, { plastic: number, metal: number }>} */
    this.byKiosk = new Map();
    /** @type {Map<string, number>} */
    this.byUser = new Map();
    /** @type {Map<string, DayFigures>} by `<kioskId>_<UTC day of occurredAt>`, as kioskDays documents are named */
    this.byKioskDay = new Map();
    /** @type {Map<number, number>} */
    this.statuses = new Map();
    /** @type {number[]} */
    this.latencies = [];
    /** 5xx written by the service itself ({ error } bodies) but 503 `overloaded`: each one fails the books. */
    this.serviceErrors = 0;
    /** 503 `overloaded` (with Retry-After): the service protecting itself, nothing written; sent again, no fault. */
    this.overloaded = 0;
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
    if (isOverloaded({ status: code, code: body?.code })) this.overloaded += 1;
    else if (typeof body?.error === 'string') this.serviceErrors += 1;
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
    const dayId = `${transaction.kioskId}_${transaction.occurredAt.slice(0, 10)}`;
    const day = this.byKioskDay.get(dayId) ?? { transactions: 0, plasticCount: 0, metalCount: 0, points: 0 };
    day.transactions += 1;
    day.plasticCount += transaction.plasticCount;
    day.metalCount += transaction.metalCount;
    day.points += transaction.pointsEarned;
    this.byKioskDay.set(dayId, day);
  }
}

/**
 * Every way the stored books differ from the ledger (none: the books balance).
 * Returned points = transaction documents = users' gain, per user too; kiosk counters
 * = items; one notification per transaction; no 5xx from the service; no
 * Idempotency-Key awarded twice, none never awarded; every offline deposit exactly one
 * transaction document, none left in a journal; and the daily figures (kioskDays)
 * equal the sums per kiosk and day, when this build keeps them (`kioskDays` says
 * whether they were checked).
 * @param {Ledger} ledger
 * @param {{ users: string[], hotUser: string, kiosks: { id: string }[], offlineKiosks: { id: string }[] }} seeded
 * @param {{ size: number, docs: { get(field: string): any }[] }} transactions every transaction document, effects done
 * @param {{ logical: number, answered: number, doubled: number }} retries the retries phase's outcome
 * @param {{ deposits: number, answered: number, doubled: number, leftInJournals: number, itemServerErrors: number }} offline the offline phase's outcome
 */
export async function auditBooks(ledger, seeded, transactions, retries, offline) {
  const problems = [];
  const storedPoints = transactions.docs.reduce((/** @type {number} */ sum, doc) => sum + doc.get('pointsEarned'), 0);
  const userDocs = await db().getAll(
    ...[...seeded.users, seeded.hotUser].map((id) => db().collection('users').doc(id)),
  );
  const userPoints = userDocs.reduce(
    (/** @type {number} */ sum, /** @type {any} */ doc) => sum + doc.get('totalPoints'),
    0,
  );
  // The spenders of the mixed phase also earn; their books (adjusted, spent) are mixedBooks'.
  const returnedToUsers = userDocs.reduce(
    (/** @type {number} */ sum, /** @type {any} */ doc) => sum + (ledger.byUser.get(doc.id) ?? 0),
    0,
  );
  if (storedPoints !== ledger.points)
    problems.push(`transaction documents hold ${storedPoints} points, responses returned ${ledger.points}`);
  if (userPoints !== returnedToUsers)
    problems.push(`users gained ${userPoints} points, responses returned ${returnedToUsers}`);
  for (const doc of userDocs) {
    const expected = ledger.byUser.get(doc.id) ?? 0;
    if (doc.get('totalPoints') !== expected || doc.get('currentPoints') !== expected) {
      problems.push(`user ${doc.id} holds ${doc.get('currentPoints')}/${doc.get('totalPoints')}, expected ${expected}`);
    }
  }
  const kioskDocs = await db().getAll(
    ...[...seeded.kiosks, ...seeded.offlineKiosks].map((k) => db().collection('kiosks').doc(k.id)),
  );
  for (const doc of kioskDocs) {
    const expected = ledger.byKiosk.get(doc.id) ?? { plastic: 0, metal: 0 };
    if (doc.get('plasticCount') !== expected.plastic || doc.get('metalCount') !== expected.metal) {
      problems.push(
        `kiosk ${doc.id} counts ${doc.get('plasticCount')}/${doc.get('metalCount')}, expected ${expected.plastic}/${expected.metal}`,
      );
    }
  }
  const notifications = (
    await db().collectionGroup('notifications').where('type', '==', 'transaction').count().get()
  ).data().count;
  if (notifications !== transactions.size)
    problems.push(`${notifications} notifications for ${transactions.size} transactions`);
  if (ledger.serviceErrors > 0)
    problems.push(`the service answered ${ledger.serviceErrors} requests with 5xx other than 503 overloaded`);
  if (retries.doubled > 0) problems.push(`${retries.doubled} idempotency keys produced more than one transaction`);
  if (retries.answered !== retries.logical)
    problems.push(`${retries.logical - retries.answered} retried requests were never awarded`);

  const offlineIds = new Set(seeded.offlineKiosks.map((kiosk) => kiosk.id));
  const offlineStored = transactions.docs.filter((doc) => offlineIds.has(doc.get('kioskId'))).length;
  if (offlineStored !== offline.deposits)
    problems.push(`${offlineStored} transaction documents for ${offline.deposits} offline deposits`);
  if (offline.answered !== offline.deposits)
    problems.push(`${offline.deposits - offline.answered} offline deposits were never awarded`);
  if (offline.doubled > 0) problems.push(`${offline.doubled} offline deposits were answered with two transactions`);
  if (offline.leftInJournals > 0) problems.push(`${offline.leftInJournals} deposits left in the kiosks' journals`);
  if (offline.itemServerErrors > 0)
    problems.push(`the service answered ${offline.itemServerErrors} batch items with 5xx other than 503 overloaded`);

  const days = await auditKioskDays(ledger);
  return { problems: [...problems, ...days.problems], kioskDays: days.verdict };
}

/**
 * The daily figures against the sums of the answers per kiosk and UTC day of
 * occurredAt: every kioskDays document, and a document for every kiosk-day that had a
 * transaction. Skipped when no kioskDays document exists at all (a build without the
 * daily reports).
 * @param {Ledger} ledger
 */
async function auditKioskDays(ledger) {
  const stored = await db().collection('kioskDays').get();
  if (stored.empty)
    return { problems: [], verdict: 'skipped: no kioskDays documents (this build keeps no daily reports)' };
  /** @type {string[]} */
  const problems = [];
  const zero = { transactions: 0, plasticCount: 0, metalCount: 0, points: 0 };
  for (const doc of stored.docs) {
    const expected = ledger.byKioskDay.get(doc.id) ?? zero;
    const found = Object.fromEntries(Object.keys(zero).map((field) => [field, doc.get(field)]));
    if (Object.entries(expected).some(([field, value]) => found[field] !== value))
      problems.push(`kioskDays/${doc.id} holds ${JSON.stringify(found)}, expected ${JSON.stringify(expected)}`);
  }
  const storedIds = new Set(stored.docs.map((/** @type {any} */ doc) => doc.id));
  for (const id of ledger.byKioskDay.keys()) if (!storedIds.has(id)) problems.push(`no kioskDays/${id}`);
  return {
    problems,
    verdict: problems.length
      ? `FAIL (${problems.length} kiosk-days differ)`
      : `PASS (${stored.size} kiosk-days, ${new Set(stored.docs.map((/** @type {any} */ doc) => doc.get('kioskId'))).size} kiosks)`,
  };
}

/**
 * The operator CLI (as built) against `projectId` on the emulators, with `args`.
 * @param {string} projectId
 * @param {string[]} args
 */
export const runAdmin = (projectId, args) =>
  spawnSync(
    process.execPath,
    [join(functionsDir, 'lib', 'cli', 'admin.js'), '--project', projectId, '--emulator', ...args],
    {
      encoding: 'utf8',
    },
  );

/**
 * The operator CLI's `audit` on the whole database (every balance from the ledger,
 * every kiosk counter from the transactions): its verdict line, and the differences it
 * printed.
 * @param {string} projectId
 */
export function pointsAudit(projectId) {
  const run = runAdmin(projectId, ['audit']);
  const verdict = `${run.stdout}${run.stderr}`.match(/audit: (OK|DRIFT) \([^)]*\)/)?.[0];
  return { ok: run.status === 0, line: verdict ?? `audit did not run (exit ${run.status})`, output: run.stdout.trim() };
}
