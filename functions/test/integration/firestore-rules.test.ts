/**
 * Firestore security rules (product contract §6), tested against the Firestore emulator only.
 *
 * Policy under test:
 *   - anyone, even signed out, may read kiosks/*;
 *   - a signed-in user may read their own users/{uid} and users/{uid}/notifications/*, and may
 *     change only the `read` field (to a bool) of their own notifications;
 *   - every other client read or write is denied (the functions write through the Admin SDK,
 *     which bypasses these rules): kiosk telemetry and alerts (§7), and the daily reports
 *     (kioskDays) also to an admin's token.
 *
 * The test names are the list of guarantees: each one states what the rules allow or deny.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  assertFails,
  assertSucceeds,
  initializeTestEnvironment,
  type RulesTestContext,
  type RulesTestEnvironment,
} from '@firebase/rules-unit-testing';
import {
  collection,
  collectionGroup,
  deleteDoc,
  deleteField,
  doc,
  getDoc,
  getDocs,
  query,
  setDoc,
  updateDoc,
  where,
  type Firestore,
} from 'firebase/firestore';
import { openBalance } from '../../src/services/ledgerBooks';
import { PROJECT_ID as SERVICE_PROJECT_ID } from './helpers';
import { adminHeaders, bearerFor, call } from './requests';
import { seedUser, uniqueId } from './seeds';

const PROJECT_ID = 'demo-kiosk-rules';
const RULES_PATH = resolve(__dirname, '../../../firestore.rules');

const ALICE = 'alice';
const BOB = 'bob';

const KIOSK_PATH = 'kiosks/kiosk-1';
const ALICE_PATH = `users/${ALICE}`;
const BOB_PATH = `users/${BOB}`;
const ALICE_NOTIFICATION_PATH = `users/${ALICE}/notifications/n-1`;
const BOB_NOTIFICATION_PATH = `users/${BOB}/notifications/n-1`;

/** Server-only documents: no client may read or write any of them. */
const SERVER_ONLY_DOCS: ReadonlyArray<readonly [collectionName: string, path: string]> = [
  ['transactions', 'transactions/tx-1'],
  ['kioskKeys', 'kioskKeys/key-1'],
  ['idempotency', 'idempotency/idem-1'],
  ['config', 'config/rewards'],
  ['rateLimits', 'rateLimits/bucket-1'],
  ['pushOutbox', 'pushOutbox/push-1'],
  ['kioskDays', 'kioskDays/kiosk-1_2026-11-23'],
  ['kioskFolds', 'kioskFolds/kiosk-1'],
  ['diagnostics', 'diagnostics/event-1'],
  ['kioskTelemetry', 'kioskTelemetry/kiosk-1'],
  ['alerts', 'alerts/alert-1'],
  // Where a sweep out of its time budget stopped (contract, Part four).
  ['sweepCursors', 'sweepCursors/effectsSweep'],
  // Webhooks (contract §13): a webhook's secret is never readable by a client.
  ['webhooks', 'webhooks/webhook-1'],
  ['webhookDeliveries', 'webhookDeliveries/dlv_1'],
  ['webhookEvents', 'webhookEvents/evt_1'],
  // Partners and vouchers (§12)
  ['partners', 'partners/kaffee-alex'],
  ['partnerKeys', 'partnerKeys/key-1'],
  ['voucherCodes', 'voucherCodes/7KQ2M9XH4TZP'],
  ['voucherUses', 'voucherUses/redemption-alice'],
  ['pushTokens', 'pushTokens/token-hash-1'],
  // The idempotency record of an adjustment or a redemption (data/requestRecords.ts).
  ['requestRecords', 'requestRecords/entry-alice'],
  // Promotions (contract §16) and their budget shards.
  ['promotions', 'promotions/weekend-double'],
  ['promotions/weekend-double/budgetShards', 'promotions/weekend-double/budgetShards/0'],
];

const SEED: Record<string, Record<string, unknown>> = {
  [KIOSK_PATH]: { name: 'Main Street', plasticCount: 10, metalCount: 5, active: true },
  [ALICE_PATH]: { name: 'Alice', currentPoints: 100, totalPoints: 100, recycledCount: 10, rank: 'Bronze' },
  [BOB_PATH]: {
    name: 'Bob',
    currentPoints: 50,
    totalPoints: 50,
    recycledCount: 5,
    rank: 'Bronze',
    pushToken: 'bob-token',
  },
  [ALICE_NOTIFICATION_PATH]: {
    type: 'transaction',
    title: 'You earned 10 points',
    body: 'Thanks for recycling',
    data: { transactionId: 'tx-1' },
    read: false,
  },
  [BOB_NOTIFICATION_PATH]: {
    type: 'message',
    title: 'Hello Bob',
    body: 'A message for Bob',
    data: {},
    read: false,
  },
  'transactions/tx-1': { userId: ALICE, kioskId: 'kiosk-1', plasticCount: 6, metalCount: 4, pointsEarned: 10 },
  'kioskKeys/key-1': { kioskId: 'kiosk-1', label: 'front', revokedAt: null },
  'idempotency/idem-1': { transactionId: 'tx-1', requestHash: 'abc' },
  'config/rewards': { pointsPerPlastic: 1, pointsPerMetal: 1 },
  'rateLimits/bucket-1': { count: 1 },
  'pushOutbox/push-1': { token: 'bob-token', title: 'Hello' },
  'kioskDays/kiosk-1_2026-11-23': {
    kioskId: 'kiosk-1',
    day: '2026-11-23',
    transactions: 1,
    plasticCount: 6,
    metalCount: 4,
    points: 10,
  },
  'kioskFolds/kiosk-1': { holder: null, heldUntil: null },
  'diagnostics/event-1': { event: 'transaction_retried', attempt: 1 },
  'ledger/entry-alice': { userId: ALICE, kind: 'earn', points: 10, balanceAfter: 100 },
  'ledger/entry-bob': { userId: BOB, kind: 'earn', points: 50, balanceAfter: 50 },
  'redemptions/redemption-alice': { userId: ALICE, rewardId: 'coffee', status: 'issued' },
  'rewards/coffee': { name: 'Coffee', cost: 100, kind: 'voucher', stock: 5, active: true },
  'kioskTelemetry/kiosk-1': { kioskId: 'kiosk-1', fillLevel: { plastic: 93, metal: 10 }, errorCode: 'E1' },
  'alerts/alert-1': { kioskId: 'kiosk-1', kind: 'bin-full', resolvedAt: null, detail: 'Bin full' },
  // Webhooks (contract §13).
  'webhooks/webhook-1': {
    url: 'https://hooks.example.com/',
    events: ['alert.opened'],
    secrets: [{ secret: 'whsec_x' }],
  },
  'webhookDeliveries/dlv_1': { webhookId: 'webhook-1', status: 'pending', attempts: [] },
  'webhookEvents/evt_1': { type: 'alert.opened', body: '{}' },
  'partners/kaffee-alex': { name: 'Kaffee Alex' },
  'partnerKeys/key-1': { partnerId: 'kaffee-alex', label: 'till', revokedAt: null },
  'voucherCodes/7KQ2M9XH4TZP': { redemptionId: 'redemption-alice' },
  'voucherUses/redemption-alice': { userId: ALICE, partnerId: 'kaffee-alex', rewardName: 'Coffee' },
  'requestRecords/entry-alice': { submissionId: 'submission-1', requestFingerprint: 'abc' },
  'promotions/weekend-double': { name: 'Double points', active: true, multiplier: 2, budgetPoints: 100 },
  'promotions/weekend-double/budgetShards/0': { allotment: 7, given: 3, revision: 'r1' },
};

let testEnv: RulesTestEnvironment;

/**
 * The test contexts hand back the compat Firestore; the modular functions unwrap it at runtime,
 * so only the static type needs adjusting.
 */
const firestoreOf = (context: RulesTestContext): Firestore => context.firestore() as unknown as Firestore;

const signedOut = (): Firestore => firestoreOf(testEnv.unauthenticatedContext());
const signedIn = (uid: string): Firestore => firestoreOf(testEnv.authenticatedContext(uid));

beforeAll(async () => {
  testEnv = await initializeTestEnvironment({
    projectId: PROJECT_ID,
    firestore: { rules: readFileSync(RULES_PATH, 'utf8') },
  });
});

beforeEach(async () => {
  await testEnv.clearFirestore();
  await testEnv.withSecurityRulesDisabled(async (context) => {
    const db = firestoreOf(context);
    for (const [path, data] of Object.entries(SEED)) await setDoc(doc(db, path), data);
  });
});

afterAll(async () => {
  await testEnv?.cleanup();
});

describe('kiosks: public read, no client writes', () => {
  it('allows a signed-out visitor to read a kiosk', async () => {
    await assertSucceeds(getDoc(doc(signedOut(), KIOSK_PATH)));
  });

  it('allows a signed-out visitor to list kiosks', async () => {
    await assertSucceeds(getDocs(collection(signedOut(), 'kiosks')));
  });

  it('allows a signed-in user to read a kiosk', async () => {
    await assertSucceeds(getDoc(doc(signedIn(ALICE), KIOSK_PATH)));
  });

  it('denies a signed-out visitor creating a kiosk', async () => {
    await assertFails(setDoc(doc(signedOut(), 'kiosks/kiosk-new'), { name: 'Rogue' }));
  });

  it('denies a signed-in user creating a kiosk', async () => {
    await assertFails(setDoc(doc(signedIn(ALICE), 'kiosks/kiosk-new'), { name: 'Rogue' }));
  });

  it('denies a signed-in user updating a kiosk (e.g. its counters)', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), KIOSK_PATH), { plasticCount: 9999 }));
  });

  it('denies a signed-in user overwriting a kiosk', async () => {
    await assertFails(setDoc(doc(signedIn(ALICE), KIOSK_PATH), { name: 'Replaced' }));
  });

  it('denies a signed-in user deleting a kiosk', async () => {
    await assertFails(deleteDoc(doc(signedIn(ALICE), KIOSK_PATH)));
  });
});

describe('users/{uid}: owner may read, no client writes', () => {
  it('allows a signed-in user to read their own user document', async () => {
    await assertSucceeds(getDoc(doc(signedIn(ALICE), ALICE_PATH)));
  });

  it("denies a signed-in user reading another user's document", async () => {
    await assertFails(getDoc(doc(signedIn(ALICE), BOB_PATH)));
  });

  it("denies a signed-in user reading a non-existent other user's document", async () => {
    await assertFails(getDoc(doc(signedIn(ALICE), 'users/nobody')));
  });

  it('denies a signed-out visitor reading any user document', async () => {
    await assertFails(getDoc(doc(signedOut(), ALICE_PATH)));
  });

  it('denies a signed-in user listing the users collection', async () => {
    await assertFails(getDocs(collection(signedIn(ALICE), 'users')));
  });

  it('denies a signed-out visitor listing the users collection', async () => {
    await assertFails(getDocs(collection(signedOut(), 'users')));
  });

  it('denies a signed-in user updating their own points', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), ALICE_PATH), { currentPoints: 1_000_000 }));
  });

  it('denies a signed-in user updating their own name', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), ALICE_PATH), { name: 'Mallory' }));
  });

  it('denies a signed-in user overwriting their own user document', async () => {
    await assertFails(setDoc(doc(signedIn(ALICE), ALICE_PATH), { name: 'Alice', currentPoints: 1_000_000 }));
  });

  it('denies a signed-in user creating their own user document', async () => {
    await assertFails(setDoc(doc(signedIn('carol'), 'users/carol'), { name: 'Carol', currentPoints: 0 }));
  });

  it('denies a signed-in user deleting their own user document', async () => {
    await assertFails(deleteDoc(doc(signedIn(ALICE), ALICE_PATH)));
  });

  it("denies a signed-in user updating another user's document", async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), BOB_PATH), { currentPoints: 0 }));
  });

  it("denies a signed-in user deleting another user's document", async () => {
    await assertFails(deleteDoc(doc(signedIn(ALICE), BOB_PATH)));
  });

  it('denies a signed-out visitor creating a user document', async () => {
    await assertFails(setDoc(doc(signedOut(), 'users/carol'), { name: 'Carol' }));
  });
});

describe('users/{uid}/notifications: owner may read', () => {
  it('allows a signed-in user to read their own notification', async () => {
    await assertSucceeds(getDoc(doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH)));
  });

  it('allows a signed-in user to list their own notifications', async () => {
    await assertSucceeds(getDocs(collection(signedIn(ALICE), `users/${ALICE}/notifications`)));
  });

  it('allows a signed-in user to query their own unread notifications', async () => {
    await assertSucceeds(
      getDocs(query(collection(signedIn(ALICE), `users/${ALICE}/notifications`), where('read', '==', false))),
    );
  });

  it("denies a signed-in user reading another user's notification", async () => {
    await assertFails(getDoc(doc(signedIn(ALICE), BOB_NOTIFICATION_PATH)));
  });

  it("denies a signed-in user listing another user's notifications", async () => {
    await assertFails(getDocs(collection(signedIn(ALICE), `users/${BOB}/notifications`)));
  });

  it('denies a signed-in user a collection-group query over all notifications', async () => {
    await assertFails(getDocs(collectionGroup(signedIn(ALICE), 'notifications')));
  });

  it('denies a signed-out visitor reading a notification', async () => {
    await assertFails(getDoc(doc(signedOut(), ALICE_NOTIFICATION_PATH)));
  });

  it("denies a signed-out visitor listing a user's notifications", async () => {
    await assertFails(getDocs(collection(signedOut(), `users/${ALICE}/notifications`)));
  });
});

describe('users/{uid}/notifications: the owner may change only `read`, to a bool', () => {
  it('allows a signed-in user to mark their own notification read', async () => {
    const db = signedIn(ALICE);
    await assertSucceeds(updateDoc(doc(db, ALICE_NOTIFICATION_PATH), { read: true }));
    let stored: unknown;
    await testEnv.withSecurityRulesDisabled(async (context) => {
      stored = (await getDoc(doc(firestoreOf(context), ALICE_NOTIFICATION_PATH))).data();
    });
    expect(stored).toEqual({ ...SEED[ALICE_NOTIFICATION_PATH], read: true });
  });

  it('allows a signed-in user to mark their own notification unread again', async () => {
    const ref = doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH);
    await assertSucceeds(updateDoc(ref, { read: true }));
    await assertSucceeds(updateDoc(ref, { read: false }));
  });

  it('allows a signed-in user to set `read` with a merge write on their own notification', async () => {
    await assertSucceeds(setDoc(doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH), { read: true }, { merge: true }));
  });

  it('denies setting `read` to a string', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH), { read: 'true' }));
  });

  it('denies setting `read` to a number', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH), { read: 1 }));
  });

  it('denies setting `read` to null', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH), { read: null }));
  });

  it('denies removing the `read` field', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH), { read: deleteField() }));
  });

  it('denies changing the notification title', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH), { title: 'You earned 1000 points' }));
  });

  it('denies changing the notification body', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH), { body: 'Edited' }));
  });

  it('denies changing the notification type', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH), { type: 'message' }));
  });

  it('denies changing the notification data', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH), { data: { transactionId: 'tx-2' } }));
  });

  it('denies removing the notification data', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH), { data: deleteField() }));
  });

  it('denies adding a new field to a notification', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH), { pinned: true }));
  });

  it('denies changing `read` together with another field', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH), { read: true, title: 'Edited' }));
  });

  it('denies overwriting a notification with only `read` (drops title/body/type/data)', async () => {
    await assertFails(setDoc(doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH), { read: true }));
  });

  it('denies creating a notification, even one holding only `read`', async () => {
    await assertFails(setDoc(doc(signedIn(ALICE), `users/${ALICE}/notifications/n-new`), { read: false }));
  });

  it('denies creating a full notification in their own inbox', async () => {
    await assertFails(
      setDoc(doc(signedIn(ALICE), `users/${ALICE}/notifications/n-new`), {
        ...SEED[ALICE_NOTIFICATION_PATH],
        title: 'Forged',
      }),
    );
  });

  it('denies deleting their own notification', async () => {
    await assertFails(deleteDoc(doc(signedIn(ALICE), ALICE_NOTIFICATION_PATH)));
  });

  it("denies marking another user's notification read", async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), BOB_NOTIFICATION_PATH), { read: true }));
  });

  it("denies creating a notification in another user's inbox", async () => {
    await assertFails(setDoc(doc(signedIn(ALICE), `users/${BOB}/notifications/n-new`), { read: false }));
  });

  it("denies deleting another user's notification", async () => {
    await assertFails(deleteDoc(doc(signedIn(ALICE), BOB_NOTIFICATION_PATH)));
  });

  it('denies a signed-out visitor marking a notification read', async () => {
    await assertFails(updateDoc(doc(signedOut(), ALICE_NOTIFICATION_PATH), { read: true }));
  });
});

describe.each(SERVER_ONLY_DOCS)('%s: server-only, no client access', (collectionName, path) => {
  it(`denies a signed-out visitor reading ${path}`, async () => {
    await assertFails(getDoc(doc(signedOut(), path)));
  });

  it(`denies a signed-in user reading ${path}`, async () => {
    await assertFails(getDoc(doc(signedIn(ALICE), path)));
  });

  it(`denies a signed-in user listing ${collectionName}`, async () => {
    await assertFails(getDocs(collection(signedIn(ALICE), collectionName)));
  });

  it(`denies a signed-out visitor listing ${collectionName}`, async () => {
    await assertFails(getDocs(collection(signedOut(), collectionName)));
  });

  it(`denies a signed-in user creating a document in ${collectionName}`, async () => {
    await assertFails(setDoc(doc(signedIn(ALICE), `${collectionName}/client-created`), { forged: true }));
  });

  it(`denies a signed-in user updating ${path}`, async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), path), { forged: true }));
  });

  it(`denies a signed-in user overwriting ${path}`, async () => {
    await assertFails(setDoc(doc(signedIn(ALICE), path), { forged: true }));
  });

  it(`denies a signed-in user deleting ${path}`, async () => {
    await assertFails(deleteDoc(doc(signedIn(ALICE), path)));
  });

  it(`denies a signed-out visitor creating a document in ${collectionName}`, async () => {
    await assertFails(setDoc(doc(signedOut(), `${collectionName}/client-created`), { forged: true }));
  });
});

describe('transactions: not readable even by the user they belong to', () => {
  it('denies a signed-in user reading their own transaction', async () => {
    // transactions/tx-1 has userId == alice; ownership does not grant client reads.
    await assertFails(getDoc(doc(signedIn(ALICE), 'transactions/tx-1')));
  });

  it('denies a signed-in user querying transactions filtered to their own userId', async () => {
    await assertFails(getDocs(query(collection(signedIn(ALICE), 'transactions'), where('userId', '==', ALICE))));
  });
});

describe('kioskDays: the daily reports reach admins through the API only', () => {
  it('denies a signed-in user with the admin claim reading or querying them', async () => {
    const admin = firestoreOf(testEnv.authenticatedContext('an-admin', { admin: true }));
    await assertFails(getDoc(doc(admin, 'kioskDays/kiosk-1_2026-11-23')));
    await assertFails(getDocs(query(collection(admin, 'kioskDays'), where('kioskId', '==', 'kiosk-1'))));
  });
});

describe.each([
  ['ledger', 'ledger/entry-alice', 'ledger/entry-bob'],
  ['redemptions', 'redemptions/redemption-alice', undefined],
])('%s: a user reads their own, no client writes', (collectionName, alicesPath, bobsPath) => {
  it('allows a user to read their own document and to query their own', async () => {
    await assertSucceeds(getDoc(doc(signedIn(ALICE), alicesPath)));
    await assertSucceeds(getDocs(query(collection(signedIn(ALICE), collectionName), where('userId', '==', ALICE))));
  });

  it("denies reading another user's, listing everyone's, or reading signed out", async () => {
    if (bobsPath) await assertFails(getDoc(doc(signedIn(ALICE), bobsPath)));
    await assertFails(getDoc(doc(signedIn(BOB), alicesPath)));
    await assertFails(getDocs(collection(signedIn(ALICE), collectionName)));
    await assertFails(getDoc(doc(signedOut(), alicesPath)));
  });

  it('denies every client write, also to their own', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), alicesPath), { points: 1_000_000 }));
    await assertFails(setDoc(doc(signedIn(ALICE), `${collectionName}/new`), { userId: ALICE, points: 5 }));
    await assertFails(deleteDoc(doc(signedIn(ALICE), alicesPath)));
  });
});

describe('rewards: public read, no client writes', () => {
  it('allows anyone to read the catalog', async () => {
    await assertSucceeds(getDoc(doc(signedOut(), 'rewards/coffee')));
    await assertSucceeds(getDocs(collection(signedIn(ALICE), 'rewards')));
  });

  it('denies every client write', async () => {
    await assertFails(updateDoc(doc(signedIn(ALICE), 'rewards/coffee'), { stock: 1000 }));
    await assertFails(setDoc(doc(signedIn(ALICE), 'rewards/free'), { name: 'Free', cost: 0 }));
  });
});

describe('everything else is denied by default', () => {
  it('denies a signed-in user reading an unlisted collection', async () => {
    await testEnv.withSecurityRulesDisabled(async (context) => {
      await setDoc(doc(firestoreOf(context), 'other/doc-1'), { x: 1 });
    });
    await assertFails(getDoc(doc(signedIn(ALICE), 'other/doc-1')));
  });

  it('denies a signed-in user writing an unlisted collection', async () => {
    await assertFails(setDoc(doc(signedIn(ALICE), 'other/doc-2'), { x: 1 }));
  });

  it('denies a signed-in user reading an unlisted subcollection of their own user document', async () => {
    await testEnv.withSecurityRulesDisabled(async (context) => {
      await setDoc(doc(firestoreOf(context), `users/${ALICE}/private/doc-1`), { x: 1 });
    });
    await assertFails(getDoc(doc(signedIn(ALICE), `users/${ALICE}/private/doc-1`)));
  });

  it('denies a signed-in user writing an unlisted subcollection of their own user document', async () => {
    await assertFails(setDoc(doc(signedIn(ALICE), `users/${ALICE}/private/doc-2`), { x: 1 }));
  });

  it('denies a signed-in user writing a subcollection under a kiosk', async () => {
    await assertFails(setDoc(doc(signedIn(ALICE), `${KIOSK_PATH}/visits/v-1`), { x: 1 }));
  });
});

describe('ledger and redemptions: a user reads no field only the service needs', () => {
  /** What only the service needs: in requestRecords and voucherUses, never on a document its user reads. */
  const INTERNAL = ['submissionId', 'requestFingerprint'];

  it("a user's keyed adjustment, redemption and used voucher, read as the user, carry none of them", async () => {
    // The documents as the functions write them, in the project they serve, read through the rules by their user.
    const served = await initializeTestEnvironment({
      projectId: SERVICE_PROJECT_ID,
      firestore: { rules: readFileSync(RULES_PATH, 'utf8') },
    });
    try {
      const headers = await adminHeaders();
      const userId = await seedUser({ currentPoints: 0, totalPoints: 0 });
      await openBalance(userId, 'test');
      const adjusted = await call('POST', `/admin/users/${userId}/adjustments`, {
        body: { points: 500, reason: 'Welcome bonus' },
        headers: { ...headers, 'idempotency-key': 'adjust-1' },
      });
      expect(adjusted.status).toBe(201);
      const partnerId = uniqueId('partner');
      expect((await call('POST', '/admin/partners', { body: { id: partnerId, name: 'Café' }, headers })).status).toBe(
        201,
      );
      const key = await call('POST', `/admin/partners/${partnerId}/keys`, { body: { label: 'till' }, headers });
      const rewardId = uniqueId('reward');
      const reward = { id: rewardId, name: 'Coffee', cost: 100, kind: 'voucher', partnerId };
      expect((await call('POST', '/admin/rewards', { body: reward, headers })).status).toBe(201);
      const redeemed = await call('POST', `/user/${userId}/redemptions`, {
        body: { rewardId },
        headers: { ...(await bearerFor(userId)), 'idempotency-key': 'redeem-1' },
      });
      expect(redeemed.status).toBe(201);
      const { id: redemptionId, code } = redeemed.body.redemption;
      const used = await call('POST', `/partner/vouchers/${code}/use`, {
        headers: { 'x-api-key': key.body.key, 'idempotency-key': 'use-1' },
      });
      expect(used.status).toBe(200);

      const asUser = firestoreOf(served.authenticatedContext(userId));
      const entry = (await getDoc(doc(asUser, `ledger/${adjusted.body.adjustment.id}`))).data()!;
      const redemption = (await getDoc(doc(asUser, `redemptions/${redemptionId}`))).data()!;
      expect(entry).toMatchObject({ kind: 'adjust', by: expect.any(String) });
      expect(Object.keys(entry)).toEqual(expect.not.arrayContaining(INTERNAL));
      expect(redemption).toMatchObject({ status: 'used', usedAt: expect.anything() });
      expect(Object.keys(redemption)).toEqual(expect.not.arrayContaining(INTERNAL));
      expect(Object.keys(redemption.use ?? {})).toEqual(expect.not.arrayContaining(['keyId', 'partnerId']));
      // What the service needs is where no client reads it.
      const asUserRecord = doc(asUser, `requestRecords/${adjusted.body.adjustment.id}`);
      await assertFails(getDoc(asUserRecord));
    } finally {
      await served.cleanup();
    }
  });
});
