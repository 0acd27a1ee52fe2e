// The Ledger of the service's answers, and the books' checks of Firestore (docs/operations.md, Reliability and load).
import { parseJson } from '../../kiosk-simulator/client.ts';
import { isOverloaded } from '../../kiosk-simulator/journal.ts';
import { runAdmin } from '../lib/emulators.mjs';
import { db } from '../lib/fleet.mjs';
import { sum, summarize } from '../lib/stats.mjs';

/**
 * A phase's checks, by what must hold: [found, expected, ok?] (ok: found === expected unless given).
 * @typedef {Record<string, unknown[]>} Checks
 * @typedef {{ id: string } & Record<string, any>} Row a document's id and fields
 * @typedef {{ id: string, kioskId: string, userId: string, pointsEarned: number, plasticCount: number, metalCount: number, occurredAt: string }} Transaction
 */

export const randomInt = (/** @type {number} */ max) => Math.floor(Math.random() * max);
export const roundedSummary = (/** @type {number[]} */ values) =>
  Object.fromEntries(Object.entries(summarize(values)).map(([key, value]) => [key, Math.round(value)]));
export const countOf = async (/** @type {any} */ query) =>
  /** @type {number} */ ((await query.count().get()).data().count);
export const notificationsOf = (/** @type {string} */ type) =>
  countOf(db().collectionGroup('notifications').where('type', '==', type));
/** @returns {Row[]} */
const rowsOf = (/** @type {any[]} */ docs) => docs.map((doc) => ({ id: doc.id, ...doc.data() }));
export const docsOf = async (/** @type {string} */ collection, /** @type {string[]} */ ids) =>
  rowsOf(await db().getAll(...ids.map((id) => db().collection(collection).doc(id))));

/** The ids answered per Idempotency-Key (two: work done twice), and what each stands for. @template [T=undefined] */
export class AnswersByKey {
  ids = /** @type {Map<string, Set<string>>} */ (new Map());
  byId = /** @type {Map<string, T>} */ (new Map());
  /** @param {string} key @param {string} [id] absent: the key was sent and refused @param {T} [detail] */
  add(key, id, detail) {
    const ids = this.ids.get(key) ?? new Set();
    this.ids.set(key, ids);
    if (id === undefined) return;
    ids.add(id);
    this.byId.set(id, /** @type {T} */ (detail));
  }
  get answered() {
    return [...this.ids.values()].filter((ids) => ids.size > 0).length;
  }
  get doubled() {
    return [...this.ids.values()].filter((ids) => ids.size > 1).length;
  }
}

export class Ledger {
  counted = /** @type {Set<string>} */ (new Set());
  points = 0;
  byUser = /** @type {Map<string, number>} */ (new Map());
  earnedBy = (/** @type {string} */ userId) => this.byUser.get(userId) ?? 0;
  /** By `<kioskId>_<UTC day of occurredAt>`, as kioskDays documents are named. */
  byKioskDay = new Map();
  statuses = /** @type {Map<number, number>} */ (new Map());
  latencies = /** @type {number[]} */ ([]);
  /** 5xx written by the service itself ({ error } bodies) but 503 `overloaded`: each one fails the books. */
  serviceErrors = 0;
  /** 503 `overloaded` (with Retry-After): the service protecting itself, nothing written; sent again, no fault. */
  overloaded = 0;
  /** 5xx written by the functions emulator's proxy when a worker's socket broke (EPIPE, ECONNRESET). */
  emulatorErrors = 0;

  /** Every response received, retries included. @param {number} code @param {string} [bodyText] @param {number} [ms] */
  response = (code, bodyText = '', ms) => {
    if (ms !== undefined) this.latencies.push(ms);
    this.statuses.set(code, (this.statuses.get(code) ?? 0) + 1);
    if (code < 500) return;
    const body = /** @type {any} */ (parseJson(bodyText));
    if (isOverloaded({ status: code, code: body?.code })) this.overloaded += 1;
    else if (typeof body?.error === 'string') this.serviceErrors += 1;
    else this.emulatorErrors += 1;
  };

  /** Counts each transaction once, however often its answer was received. @param {Transaction} transaction */
  award({ id, kioskId, userId, pointsEarned, plasticCount, metalCount, occurredAt }) {
    if (this.counted.has(id)) return;
    this.counted.add(id);
    this.points += pointsEarned;
    this.byUser.set(userId, this.earnedBy(userId) + pointsEarned);
    const dayId = `${kioskId}_${occurredAt.slice(0, 10)}`;
    const day = this.byKioskDay.get(dayId) ?? { transactions: 0, plasticCount: 0, metalCount: 0, points: 0 };
    this.byKioskDay.set(dayId, day);
    day.transactions += 1;
    day.plasticCount += plasticCount;
    day.metalCount += metalCount;
    day.points += pointsEarned;
  }

  itemsAt(/** @type {string} */ kioskId) {
    const days = [...this.byKioskDay].filter(([dayId]) => dayId.startsWith(`${kioskId}_`)).map(([, day]) => day);
    return {
      plasticCount: sum(days.map((day) => day.plasticCount)),
      metalCount: sum(days.map((day) => day.metalCount)),
    };
  }
}

/** Each row holds `expectedOf` (by field): found, how many do (the first that does not, named); expected, all. */
export function each(/** @type {Row[]} */ rows, /** @type {(row: Row) => Record<string, unknown>} */ expectedOf) {
  const differing = rows.filter((row) => Object.entries(expectedOf(row)).some(([field, v]) => row[field] !== v));
  const first = differing[0];
  const note = first
    ? ` (${first.id}: ${JSON.stringify(Object.fromEntries(Object.keys(expectedOf(first)).map((f) => [f, first[f]])))}, expected ${JSON.stringify(expectedOf(first))})`
    : '';
  return [`${rows.length - differing.length}${note}`, rows.length, differing.length === 0];
}

export const booksTable = (/** @type {Checks[]} */ checks) =>
  checks
    .flatMap((phase) => Object.entries(phase))
    .map(([check, [found, expected, ok = found === expected]]) => ({ check, expected, found, ok }));

/**
 * The books of the fleet, hot, retries and offline phases, from every phase's transactions once the effects are done.
 * @param {import('./run.mjs').Run} run @param {unknown} _
 * @param {{ transactions: { get(field: string): any }[], done: Record<string, any> }} end
 */
export async function auditBooks(run, _, { transactions, done: { retries, offline } }) {
  const { ledger } = run;
  // The spenders of the mixed phase also earn; their books (adjusted, spent) are mixedBooks'.
  const users = await docsOf('users', [...run.users, run.hotUser]);
  const offlineIds = run.offlineKiosks.map(({ id }) => id);
  const kiosks = await docsOf('kiosks', [...run.kiosks.map(({ id }) => id), ...offlineIds]);
  const days = rowsOf((await db().collection('kioskDays').get()).docs);
  const missingDays = [...ledger.byKioskDay.keys()].filter((id) => !days.some((day) => day.id === id));
  const offlineStored = transactions.filter((doc) => offlineIds.includes(doc.get('kioskId'))).length;
  // An erased person keeps no notification (lifecycle phase), a deposit without a user tells nobody until claimed.
  const ofKept = transactions.filter((doc) => ![null, ...run.leavers].includes(doc.get('userId'))).length;
  const zero = { transactions: 0, plasticCount: 0, metalCount: 0, points: 0 };
  const stored = sum(transactions.map((doc) => doc.get('pointsEarned')));
  const gained = sum(users.map((user) => user.totalPoints));
  const notified = await notificationsOf('transaction');
  return {
    'points in transaction documents = points returned': [stored, ledger.points],
    "users' points gained = points returned to them": [gained, sum(users.map((user) => ledger.earnedBy(user.id)))],
    'users holding exactly what was returned for them': each(users, ({ id }) => ({
      totalPoints: ledger.earnedBy(id),
      currentPoints: ledger.earnedBy(id),
    })),
    'kiosks counting exactly the items awarded there': each(kiosks, ({ id }) => ledger.itemsAt(id)),
    'transaction notifications = transaction documents of users not erased': [notified, ofKept],
    '5xx from the service (but 503 overloaded)': [ledger.serviceErrors, 0],
    'retried keys awarded': [retries.awarded, retries.requests],
    'retried keys awarded twice': [retries.doubled, 0],
    'transaction documents of offline deposits': [offlineStored, offline.deposits],
    'offline deposits awarded': [offline.awarded, offline.deposits],
    'offline deposits awarded twice': [offline.doubled, 0],
    "deposits left in the kiosks' journals": [offline.leftInJournals, 0],
    'batch items answered 5xx (but 503 overloaded)': [offline.itemServerErrors, 0],
    'kioskDays documents = sums per kiosk and UTC day': each(days, ({ id }) => ledger.byKioskDay.get(id) ?? zero),
    'kiosk-days with a transaction but no kioskDays document': [missingDays.length, 0],
  };
}

/** `admin audit`'s verdict, and the books' check (it, or its first differences). @param {string} projectId */
export async function pointsAudit(projectId) {
  const run = await runAdmin(projectId, ['audit']);
  const verdict = `${run.stdout}${run.stderr}`.match(/audit: (OK|DRIFT) \([^)]*\)/)?.[0];
  const line = verdict ?? `audit did not run (exit ${run.status})`;
  const found = run.status === 0 ? line : `${line}: ${run.stdout.trim().split('\n').slice(0, 3).join('; ')}`;
  return { line, checks: { '`npm run admin -- audit`': [found, 'audit: OK', run.status === 0] } };
}
