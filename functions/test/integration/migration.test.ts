/**
 * `migrate` converts what older versions stored into the forms this version reads,
 * through the CLI as an operator runs it, a small page size so that every conversion
 * reads more than one page.
 */
import { FieldValue, Timestamp, type DocumentData } from 'firebase-admin/firestore';
import { cli } from './cli-runner';
import { db, resetEmulators, withoutBackgroundTriggers } from './helpers';
import { adminHeaders, bearerFor, call } from './requests';
import { waitForEffects } from '../harness/wait';
import { pushTokenHolderRef } from '../../src/data/pushTokens';
import { openBalance } from '../../src/services/ledgerBooks';
import { seedKioskAndUser, seedKiosk, seedTransaction, seedUser, uniqueId } from './seeds';

beforeEach(resetEmulators);

const HOUR_MS = 3_600_000;
const dayOf = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);

/** `migrate` with these arguments, 2 documents a page: its exit code, its notes and its report. */
async function migrate(...args: string[]) {
  const run = await cli('migrate', '--page-size', '2', ...args);
  return { code: run.code, stderr: run.stderr, report: run.stdout ? JSON.parse(run.stdout) : undefined };
}

/** A 24-hour idempotency record as the scheme before keyed transaction ids wrote it, `ageHours` old. */
async function seedLegacyRecord(id: string, ageHours: number): Promise<Timestamp> {
  const createdAt = Timestamp.fromMillis(Date.now() - ageHours * HOUR_MS);
  const expireAt = Timestamp.fromMillis(createdAt.toMillis() + 24 * HOUR_MS);
  await db()
    .collection('idempotency')
    .doc(id)
    .set({ kioskId: 'k', fingerprint: 'f', response: { success: true }, createdAt, expireAt });
  return expireAt;
}

/** Every document of the collections the migration converts, with its update time: what a write would change. */
async function stored(): Promise<Record<string, { data: DocumentData; updateTime: number }>> {
  const all: Record<string, { data: DocumentData; updateTime: number }> = {};
  for (const name of ['idempotency', 'users', 'transactions']) {
    for (const doc of (await db().collection(name).get()).docs) {
      all[doc.ref.path] = { data: doc.data(), updateTime: doc.updateTime.toMillis() };
    }
  }
  return all;
}

describe('migrate', () => {
  withoutBackgroundTriggers();

  test('a dry run changes nothing, --apply converts every page, a second --apply changes nothing', async () => {
    await Promise.all([25, 30, 48].map((age, i) => seedLegacyRecord(`expired-${i}`, age)));
    const [today, yesterday] = [dayOf(0), dayOf(24 * HOUR_MS)];
    const users = await Promise.all([seedUser(), seedUser(), seedUser(), seedUser()]);
    await db()
      .doc(`users/${users[0]}`)
      .update({ earnedToday: { day: today, points: 90 } });
    await db()
      .doc(`users/${users[1]}`)
      .update({ earnedToday: { day: yesterday, points: 40 }, earnedByDay: { [yesterday]: 60 } });
    await db()
      .doc(`users/${users[2]}`)
      .update({ earnedToday: { day: today, points: 20 }, earnedByDay: { [today]: 10, [yesterday]: 5 } });
    const kioskId = await seedKiosk();
    const transactions = await Promise.all(
      [1, 2, 3, 4].map((hours) =>
        seedTransaction(kioskId, users[3], { createdAt: new Date(Date.now() - hours * HOUR_MS) }),
      ),
    );
    for (const { transactionId } of transactions.slice(0, 3)) {
      await db().doc(`transactions/${transactionId}`).update({ occurredAt: FieldValue.delete() });
    }
    const counts = {
      expiredIdempotencyRecords: 3,
      liveIdempotencyRecords: 0,
      liveUntil: null,
      earnedToday: 3,
      transactionsWithoutOccurredAt: 3,
    };

    const before = await stored();
    const dryRun = await migrate();
    expect(dryRun).toMatchObject({ code: 0, report: { applied: false, ...counts } });
    expect(dryRun.stderr).toContain('dry run, nothing written; 9 changes to make');
    expect(await stored()).toEqual(before);

    const applied = await migrate('--apply');
    expect(applied).toMatchObject({ code: 0, report: { applied: true, ...counts } });
    expect((await db().collection('idempotency').get()).size).toBe(0);
    const earnings = await Promise.all(
      users.map(async (id) => {
        const user = (await db().doc(`users/${id}`).get()).data()!;
        return { earnedByDay: user.earnedByDay, earnedToday: user.earnedToday };
      }),
    );
    expect(earnings).toEqual([
      { earnedByDay: { [today]: 90 }, earnedToday: undefined },
      { earnedByDay: { [yesterday]: 60 }, earnedToday: undefined },
      { earnedByDay: { [today]: 20, [yesterday]: 5 }, earnedToday: undefined },
      { earnedByDay: undefined, earnedToday: undefined },
    ]);
    for (const { transactionId } of transactions.slice(0, 3)) {
      const transaction = await db().doc(`transactions/${transactionId}`).get();
      expect(transaction.get('occurredAt')).toEqual(transaction.get('createdAt'));
    }

    const converted = await stored();
    const again = await migrate('--apply');
    expect(again).toMatchObject({
      code: 0,
      report: { applied: true, expiredIdempotencyRecords: 0, earnedToday: 0, transactionsWithoutOccurredAt: 0 },
    });
    expect(await stored()).toEqual(converted);
  });

  test('a 24-hour record still live is kept, and --apply exits 1 saying until when', async () => {
    await seedLegacyRecord('expired', 25);
    await seedLegacyRecord('live', 23);
    const liveUntil = (await seedLegacyRecord('live-too', 1)).toDate().toISOString();

    const dryRun = await migrate();
    expect(dryRun).toMatchObject({
      code: 0,
      report: { expiredIdempotencyRecords: 1, liveIdempotencyRecords: 2, liveUntil },
    });

    const applied = await migrate('--apply');
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain(`2 24-hour idempotency records are live until ${liveUntil}`);
    const left = await db().collection('idempotency').get();
    expect(left.docs.map((doc) => doc.id).sort()).toEqual(['live', 'live-too']);
  });
});

test('a profile awarded before per-day earnings were kept: after migrate, its earnedToday still counts', async () => {
  await db().doc('config/rewards').set({ dailyPointsCap: 100 });
  const { kioskId, apiKey, userId } = await seedKioskAndUser();
  const today = new Date().toISOString().slice(0, 10);
  await db()
    .collection('users')
    .doc(userId)
    .update({ earnedToday: { day: today, points: 90 } });
  expect((await migrate('--apply')).code).toBe(0);
  const res = await call('POST', '/kiosk/transaction', {
    body: { kioskId, userId, plasticCount: 2, metalCount: 0 },
    headers: { 'x-api-key': apiKey },
  });
  expect(res.body.transaction).toMatchObject({ pointsEarned: 10, capped: true });
  const user = (await db().collection('users').doc(userId).get()).data()!;
  expect(user.earnedByDay).toEqual({ [today]: 100 });
  expect(user.earnedToday).toBeUndefined();
});

test('a push token registered before holder documents: migrate gives it one, and the one-holder rule holds again', async () => {
  const legacy = await seedUser({ pushToken: 'old-phone' });
  await pushTokenHolderRef('old-phone').delete();
  expect(await migrate()).toMatchObject({ code: 0, report: { applied: false, pushTokensIndexed: 1 } });
  expect((await pushTokenHolderRef('old-phone').get()).exists).toBe(false);
  expect(await migrate('--apply')).toMatchObject({ code: 0, report: { applied: true, pushTokensIndexed: 1 } });
  expect((await pushTokenHolderRef('old-phone').get()).get('userId')).toBe(legacy);
  expect(await migrate('--apply')).toMatchObject({ code: 0, report: { pushTokensIndexed: 0 } });

  const newOwner = await seedUser();
  const put = await call('PUT', `/user/${newOwner}/push-token`, {
    headers: await bearerFor(newOwner),
    body: { token: 'old-phone' },
  });
  expect(put.status).toBe(200);
  expect((await db().doc(`users/${legacy}`).get()).get('pushToken')).toBeUndefined();
});

test('ledger entries and redemptions carrying the service fields: migrate moves them out, and keys replay as before', async () => {
  const headers = await adminHeaders();
  const userId = await seedUser({ currentPoints: 0, totalPoints: 0 });
  await openBalance(userId, 'test');
  const adjustment = { points: 500, reason: 'Welcome bonus' };
  const adjust = (body: unknown) =>
    call('POST', `/admin/users/${userId}/adjustments`, { body, headers: { ...headers, 'idempotency-key': 'a-1' } });
  const adjusted = await adjust(adjustment);
  expect(adjusted.status).toBe(201);
  const partnerId = uniqueId('partner');
  expect((await call('POST', '/admin/partners', { body: { id: partnerId, name: 'Café' }, headers })).status).toBe(201);
  const partnerKey = (await call('POST', `/admin/partners/${partnerId}/keys`, { body: { label: 'till' }, headers }))
    .body.key as string;
  const rewardId = uniqueId('reward');
  const reward = { id: rewardId, name: 'Coffee', cost: 100, kind: 'voucher', partnerId };
  expect((await call('POST', '/admin/rewards', { body: reward, headers })).status).toBe(201);
  const redeemed = await call('POST', `/user/${userId}/redemptions`, {
    body: { rewardId },
    headers: { ...(await bearerFor(userId)), 'idempotency-key': 'r-1' },
  });
  expect(redeemed.status).toBe(201);
  const { id: redemptionId, code } = redeemed.body.redemption;
  const use = () =>
    call('POST', `/partner/vouchers/${code}/use`, { headers: { 'x-api-key': partnerKey, 'idempotency-key': 'u-1' } });
  expect((await use()).status).toBe(200);
  // The redemption's and the use's triggers finish first: their effects change the documents compared below.
  await waitForEffects(db().collection('redemptions'), [redemptionId]);
  await waitForEffects(db().collection('voucherUses'), [redemptionId]);

  // Put back the form older versions stored: the fields on the documents their user reads.
  const entryRef = db().doc(`ledger/${adjusted.body.adjustment.id}`);
  const redemptionRef = db().doc(`redemptions/${redemptionId}`);
  const useRef = db().doc(`voucherUses/${redemptionId}`);
  const records = [entryRef, redemptionRef].map((ref) => db().doc(`requestRecords/${ref.id}`));
  const [entryRecord, redemptionRecord] = await Promise.all(records.map(async (ref) => (await ref.get()).data()!));
  const recordedUse = (await useRef.get()).data()!;
  const oldUse = {
    partnerId: recordedUse.partnerId,
    keyId: recordedUse.keyId,
    idempotencyKey: recordedUse.idempotencyKey,
    useId: recordedUse.useId,
  };
  await entryRef.update(entryRecord);
  await redemptionRef.update({ ...redemptionRecord, use: oldUse });
  await useRef.update({ idempotencyKey: FieldValue.delete(), useId: FieldValue.delete() });
  await Promise.all(records.map((ref) => ref.delete()));
  const before = await Promise.all([entryRef, redemptionRef, useRef].map(async (ref) => (await ref.get()).data()));

  expect(await migrate()).toMatchObject({ code: 0, report: { applied: false, internalFieldsMoved: 2 } });
  expect(await Promise.all([entryRef, redemptionRef, useRef].map(async (ref) => (await ref.get()).data()))).toEqual(
    before,
  );
  expect(await migrate('--apply')).toMatchObject({ code: 0, report: { applied: true, internalFieldsMoved: 2 } });
  expect(await migrate('--apply')).toMatchObject({ code: 0, report: { internalFieldsMoved: 0 } });

  const internal = ['submissionId', 'requestFingerprint', 'use'];
  expect(Object.keys((await entryRef.get()).data()!)).toEqual(expect.not.arrayContaining(internal));
  expect(Object.keys((await redemptionRef.get()).data()!)).toEqual(expect.not.arrayContaining(internal));
  expect((await records[0].get()).data()).toEqual(entryRecord);
  expect((await records[1].get()).data()).toEqual(redemptionRecord);
  expect((await useRef.get()).data()).toEqual(recordedUse);
  // The keys answer from the moved records: replays, and a reuse with another body.
  const replayed = await adjust(adjustment);
  expect(replayed.status).toBe(200);
  expect(replayed.headers.get('idempotent-replayed')).toBe('true');
  expect((await adjust({ ...adjustment, points: 1 })).status).toBe(422);
  const usedAgain = await use();
  expect(usedAgain.status).toBe(200);
  expect(usedAgain.headers.get('idempotent-replayed')).toBe('true');
});

test('a promotion from before shards were named by revision and its terms listed: migrate converts it, and the budget holds', async () => {
  const { kioskId, userId, apiKey } = await seedKioskAndUser();
  const promotion = db().collection('promotions').doc('bonus');
  await promotion.set({ name: 'Bonus', active: true, bonusPoints: 5, budgetPoints: 40, revision: 'r1' });
  await Promise.all(
    Array.from({ length: 16 }, (_, index) =>
      promotion
        .collection('budgetShards')
        .doc(String(index))
        .set({ revision: 'r1', allotment: index < 8 ? 5 : 0, given: index < 2 ? 5 : 0 }),
    ),
  );
  const legacy = { promotionShardsRenamed: 1, activePromotionsListed: 1 };
  expect(await migrate()).toMatchObject({ code: 0, report: { applied: false, ...legacy } });
  expect(await migrate('--apply')).toMatchObject({ code: 0, report: { applied: true, ...legacy } });
  expect(await migrate('--apply')).toMatchObject({
    code: 0,
    report: { promotionShardsRenamed: 0, activePromotionsListed: 0 },
  });
  const shards = (await promotion.collection('budgetShards').get()).docs;
  expect(shards.map(({ id }) => id).sort()).toEqual(Array.from({ length: 16 }, (_, index) => `r1_${index}`).sort());
  expect(shards.reduce((sum, shard) => sum + shard.get('given'), 0)).toBe(10);

  const given: number[] = [];
  for (let i = 0; i < 7; i++) {
    const res = await call('POST', '/kiosk/transaction', {
      body: { kioskId, userId, plasticCount: 1, metalCount: 0 },
      headers: { 'x-api-key': apiKey },
    });
    given.push(res.body.transaction.pointsEarned - 10);
  }
  expect(given).toEqual([5, 5, 5, 5, 5, 5, 0]);
});
