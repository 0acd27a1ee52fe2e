// @ts-check
// The bench's rewards endpoints (the catalog, an operator's adjustment, a redemption),
// each with its Firestore floor: the reads and writes its service does
// (src/data/rewards.ts, src/services/adjustBalance.ts, src/services/redemptions.ts),
// written out with the Admin SDK; endpointSpecs (endpoints.mjs) times them in this order.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { functionsDir } from '../lib/paths.mjs';

const requireFn = createRequire(join(functionsDir, 'package.json'));
const { db } = requireFn('./lib/adapters/firestore.js');
const { sha256Hex } = requireFn('./lib/domain/hash.js');
const { FieldValue } = requireFn('firebase-admin/firestore');

/** The bench's catalog (seed.mjs): the redemption row spends on the first, unlimited, for 1 point. */
export const BENCH_REWARDS = [
  { id: 'bench-donation', name: 'Bench donation', cost: 1, kind: 'donation', stock: null },
  { id: 'bench-coffee', name: 'Bench coffee', cost: 150, kind: 'voucher', stock: 500 },
  { id: 'bench-tree', name: 'Bench tree', cost: 200, kind: 'donation', stock: null },
  { id: 'bench-bag', name: 'Bench bag', cost: 400, kind: 'voucher', stock: 50 },
  { id: 'bench-retired', name: 'Bench retired', cost: 100, kind: 'voucher', stock: 0, active: false },
];
const SPENT = BENCH_REWARDS[0];

/** A user's snapshot and its spendable balance. */
const userSnapshot = (/** @type {any} */ snap) => ({ snap, current: snap.get('currentPoints') ?? 0 });

/**
 * @param {import('./endpoints.mjs').BenchContext} ctx
 * @param {(w: number) => { uid: string, token: string, headers: Record<string, string> }} signedIn
 * @returns {import('./endpoints.mjs').EndpointSpec[]}
 */
export function rewardEndpointSpecs({ authUsers, adminToken, runId }, signedIn) {
  const admin = { authorization: `Bearer ${adminToken}` };
  // Signed-in users hold a big balance (seed.mjs); +1 and -1 in turn keep it there.
  const adjustment = (/** @type {number} */ g) => ({ points: g % 2 ? -1 : 1, reason: 'Bench correction' });
  return [
    {
      name: 'GET /rewards',
      request: () => ({ method: 'GET', path: '/rewards' }),
      floorLabel: 'query active rewards by cost',
      floor: async () =>
        (
          await db().collection('rewards').where('active', '==', true).orderBy('cost').orderBy('__name__').get()
        ).docs.map((/** @type {any} */ doc) => doc.data()),
    },
    {
      name: 'POST /admin/users/{id}/adjustments',
      idToken: () => adminToken,
      request: (w, g) => ({
        method: 'POST',
        path: `/admin/users/${authUsers[w % authUsers.length]}/adjustments`,
        headers: admin,
        body: adjustment(g),
      }),
      floorLabel: 'get config; tx(getAll user, entry; create entry, update user)',
      floor: async (w, g) => {
        const { points, reason } = adjustment(g);
        const userId = authUsers[w % authUsers.length];
        const userRef = db().collection('users').doc(userId);
        const entryRef = db().collection('ledger').doc();
        (await db().doc('config/rewards').get()).data();
        await db().runTransaction(async (/** @type {any} */ tx) => {
          const [userRead, entrySnap] = await tx.getAll(userRef, entryRef);
          const { snap, current } = userSnapshot(userRead);
          entrySnap.data();
          tx.create(entryRef, {
            userId,
            kind: 'adjust',
            points,
            balanceAfter: current + points,
            reason,
            by: 'bench-admin',
            submissionId: `${runId}-floor-adj-${g}`,
            createdAt: FieldValue.serverTimestamp(),
          });
          tx.update(userRef, {
            currentPoints: current + points,
            totalPoints: (snap.get('totalPoints') ?? 0) + points,
            rank: 'Bronze',
          });
        });
      },
    },
    {
      name: 'POST /user/{id}/redemptions',
      idToken: (w) => signedIn(w).token,
      request: (w, g) => ({
        method: 'POST',
        path: `/user/${signedIn(w).uid}/redemptions`,
        headers: { ...signedIn(w).headers, 'idempotency-key': `${runId}-red-${g}` },
        body: { rewardId: SPENT.id },
      }),
      floorLabel: 'getAll(user, reward, redemption); commit redemption + ledger entry + user',
      floor: async (w, g) => {
        const userId = signedIn(w).uid;
        const key = `${runId}-floor-red-${g}`;
        const userRef = db().collection('users').doc(userId);
        const rewardRef = db().collection('rewards').doc(SPENT.id);
        // keyedRedemptionId of src/data/redemptions.ts.
        const redemptionRef = db()
          .collection('redemptions')
          .doc(sha256Hex(JSON.stringify(['redeem', userId, key])));
        const [userRead, rewardSnap, recordedSnap] = await db().getAll(userRef, rewardRef, redemptionRef);
        const { snap, current } = userSnapshot(userRead);
        const reward = rewardSnap.data();
        recordedSnap.data();
        const balanceAfter = current - reward.cost;
        const batch = db().batch();
        batch.create(redemptionRef, {
          userId,
          code: null,
          balanceAfter,
          idempotencyKey: key,
          requestFingerprint: 'x',
          submissionId: `${runId}-floor-red-${g}`,
          rewardId: rewardSnap.id,
          rewardName: reward.name,
          kind: reward.kind,
          cost: reward.cost,
          status: 'issued',
          createdAt: FieldValue.serverTimestamp(),
        });
        batch.create(db().collection('ledger').doc(`redeem-${redemptionRef.id}`), {
          userId,
          kind: 'redeem',
          points: -reward.cost,
          balanceAfter,
          redemption: { id: redemptionRef.id, rewardId: rewardSnap.id, rewardName: reward.name },
          createdAt: FieldValue.serverTimestamp(),
        });
        batch.update(userRef, { currentPoints: balanceAfter }, { lastUpdateTime: snap.updateTime });
        await batch.commit();
      },
    },
  ];
}
