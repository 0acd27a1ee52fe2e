/** Data stored as the service stores it, for tests to start from; ids unique across the run. */
import { Timestamp } from 'firebase-admin/firestore';
import { kioskDayIncrement, kioskDayRef } from '../../src/data/kioskDays';
import { issueKey } from '../../src/data/kioskKeys';
import { kiosksCollection, newKiosk } from '../../src/data/kiosks';
import { newTransaction, transactionsCollection, type RecordedTransaction } from '../../src/data/transactions';
import { newProfile, usersCollection } from '../../src/data/users';
import { newPushTokenHolder, pushTokenHolderRef } from '../../src/data/pushTokens';
import type { KioskDayRow } from '../../src/domain/kioskDays';
import { DEFAULT_REWARDS, pointsFor } from '../../src/domain/rewards';
import type { KioskStatus } from '../../src/model/vocabulary';
import { legacyBreakdown } from '../../src/domain/promotions';

let counter = 0;
/** Ids unique across the run, so a late trigger of an earlier test never lands on a later test's data. */
export const uniqueId = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export async function seedKiosk(
  fields: Partial<{
    id: string;
    name: string;
    status: KioskStatus;
    openingHours: string;
    timezone: string;
    latitude: number;
    longitude: number;
  }> = {},
): Promise<string> {
  const id = fields.id ?? uniqueId('kiosk');
  await kiosksCollection()
    .doc(id)
    .set(
      newKiosk({
        name: fields.name ?? 'Test Kiosk',
        address: 'Alexanderplatz 1, Berlin',
        status: fields.status,
        location: { latitude: fields.latitude ?? 52.52, longitude: fields.longitude ?? 13.405 },
        openingHours: fields.openingHours,
        timezone: fields.timezone ?? 'Europe/Berlin',
      }),
    );
  return id;
}

export async function seedKioskWithKey(fields: Parameters<typeof seedKiosk>[0] = {}) {
  const kioskId = await seedKiosk(fields);
  const { apiKey, keyId } = await issueKey(kioskId, 'test');
  return { kioskId, apiKey, keyId };
}

export async function seedUser(
  fields: Partial<{ id: string; name: string; currentPoints: number; totalPoints: number; pushToken: string }> = {},
): Promise<string> {
  const id = fields.id ?? uniqueId('user');
  await usersCollection()
    .doc(id)
    .set(newProfile({ ...fields, name: fields.name ?? 'Test User' }, DEFAULT_REWARDS));
  if (fields.pushToken) await pushTokenHolderRef(fields.pushToken).set(newPushTokenHolder(id));
  return id;
}

/**
 * A recorded transaction, by default of 2 plastic and 1 metal item (40 points) for a
 * user who had none, stored as an award stores it; for tests that drive the trigger
 * by hand. `occurredAt` is when the kiosk took the deposit; `createdAt` replaces the
 * server's time of recording (a transaction recorded minutes ago).
 */
export async function seedTransaction(
  kioskId: string,
  userId: string,
  fields: Partial<{ plasticCount: number; metalCount: number; occurredAt: Date; createdAt: Date }> = {},
) {
  const transactionId = uniqueId('tx');
  const { plasticCount = 2, metalCount = 1 } = fields;
  const pointsEarned = pointsFor(DEFAULT_REWARDS, plasticCount, metalCount);
  const recorded: RecordedTransaction = {
    userId,
    kioskId,
    plasticCount,
    metalCount,
    totalItems: plasticCount + metalCount,
    pointsEarned,
    capped: false,
    balanceBefore: 0,
    newBalance: pointsEarned,
    occurredAt: fields.occurredAt ?? new Date(),
    idempotencyKey: null,
    requestFingerprint: null,
    submissionId: 'test-submission',
    apiKeyId: 'test-key',
    pushQueued: false,
    breakdown: legacyBreakdown(pointsEarned),
    status: 'awarded',
    holdReasons: [],
  };
  await transactionsCollection()
    .doc(transactionId)
    .set({
      ...newTransaction(recorded),
      ...(fields.createdAt && { createdAt: Timestamp.fromDate(fields.createdAt) }),
    });
  return { transactionId, recorded };
}

/** A kiosk, a user (with the device `pushToken`, if given) and a transaction of theirs recorded, as seedTransaction records it. */
export async function seedUserTransaction(pushToken?: string) {
  const kioskId = await seedKiosk();
  const userId = await seedUser({ pushToken });
  const { transactionId, recorded } = await seedTransaction(kioskId, userId);
  return { kioskId, userId, transactionId, recorded };
}

/** A daily report row of `transactions` transactions of 2 plastic and 1 metal item (40 points) each. */
export const kioskDayRow = (kioskId: string, day: string, transactions: number): KioskDayRow => ({
  kioskId,
  day,
  transactions,
  plasticCount: 2 * transactions,
  metalCount: transactions,
  points: 40 * transactions,
});

/** Stores daily figures as the trigger's folds store them. */
export async function seedKioskDays(rows: readonly KioskDayRow[]): Promise<void> {
  await Promise.all(
    rows.map(({ kioskId, day, ...figures }) =>
      kioskDayRef(kioskId, day).set(kioskDayIncrement(kioskId, day, figures), { merge: true }),
    ),
  );
}

/** A kiosk with its key, and a user with no points yet. */
export async function seedKioskAndUser(): Promise<{ kioskId: string; apiKey: string; userId: string }> {
  const { kioskId, apiKey } = await seedKioskWithKey();
  return { kioskId, apiKey, userId: await seedUser() };
}
