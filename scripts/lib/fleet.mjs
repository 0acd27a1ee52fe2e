// What the load test and the bench seed (kiosks half a degree apart in south-west Germany), and the batched writes.
import { requireFunctions } from './paths.mjs';

/** The service's Firestore (the scripts' own project): `db()`. @type {() => import('firebase-admin/firestore').Firestore} */
export const db = requireFunctions('./lib/adapters/firestore.js').db;
const { newKiosk } = requireFunctions('./lib/data/kiosks.js');
const { newLedgerEntry } = requireFunctions('./lib/data/ledger.js');
const { newTransaction } = requireFunctions('./lib/data/transactions.js');
const { newProfile } = requireFunctions('./lib/data/users.js');
const { DEFAULT_REWARDS } = requireFunctions('./lib/domain/rewards.js');

/** @param {number} i @param {{ name: string, address: string, openingHours?: string, status?: string }} definition */
export function fleetKioskDoc(i, definition) {
  const location = { latitude: 48 + (i % 10) * 0.5, longitude: 8 + Math.floor(i / 10) * 0.5 };
  return newKiosk({ timezone: 'Europe/Berlin', ...definition, location });
}

/** A new user's users/{id} document. @param {string} name @param {string} [pushToken] */
export const fleetUserDoc = (name, pushToken) => newProfile({ name, pushToken }, DEFAULT_REWARDS);

/**
 * `entries` one-bottle deposits a minute apart at `kioskId` (`points` each, 10 unless told), by the service's builders:
 * the users/{id} document holding their sum, its ledger entries oldest first, with `transactions` their transactions.
 * @param {import('firebase-admin/firestore').Firestore} firestore
 * @param {{ userId: string, name: string, entries: number, kioskId: string, points?: number, transactions?: boolean }} history
 * @returns {[import('firebase-admin/firestore').DocumentReference, Record<string, unknown>][]}
 */
export function fleetUserWithHistory(
  firestore,
  { userId, name, entries, kioskId, points: each = 10, transactions = false },
) {
  const firstAt = Date.UTC(2026, 0, 1);
  const points = each * entries;
  const profile = { name, currentPoints: points, totalPoints: points, recycledCount: entries };
  return [
    [firestore.collection('users').doc(userId), newProfile(profile, DEFAULT_REWARDS)],
    ...Array.from({ length: entries }, (_, i) => {
      const id = `${userId}-${String(i).padStart(6, '0')}`;
      const deposit = { kioskId, plasticCount: 1, metalCount: 0, occurredAt: new Date(firstAt + i * 60_000) };
      const balanceAfter = each * (i + 1);
      const entry = newLedgerEntry({
        userId,
        kind: 'earn',
        points: each,
        balanceAfter,
        transaction: { id, ...deposit },
      });
      const docs = /** @type {[any, Record<string, unknown>][]} */ ([[firestore.collection('ledger').doc(id), entry]]);
      if (transactions) {
        const transaction = newTransaction({
          ...deposit,
          userId,
          totalItems: 1,
          pointsEarned: each,
          capped: false,
          balanceBefore: balanceAfter - each,
          newBalance: balanceAfter,
          idempotencyKey: null,
          requestFingerprint: null,
          submissionId: id,
          apiKeyId: 'seeded',
          pushQueued: false,
        });
        docs.push([firestore.collection('transactions').doc(id), transaction]);
      }
      return docs;
    }).flat(),
  ];
}

/** In batches of 400. @param {any[][]} docs @param {import('firebase-admin/firestore').Firestore} [firestore] */
export async function writeAll(docs, firestore = db()) {
  for (let i = 0; i < docs.length; i += 400) {
    const batch = firestore.batch();
    for (const [ref, data] of docs.slice(i, i + 400)) batch.set(ref, data);
    await batch.commit();
  }
}
