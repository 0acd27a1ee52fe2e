import { randomBytes } from 'node:crypto';
import { FieldValue, Timestamp, type DocumentData } from 'firebase-admin/firestore';
import { createUnderOwnId, db, runTransaction } from '../adapters/firestore';
import { sha256Hex } from '../domain/hash';

export interface KioskKeyRecord {
  kioskId: string;
  label: string;
  createdAt: Timestamp;
  revokedAt: Timestamp | null;
}

export const kioskKeysCollection = () => db().collection('kioskKeys');

/** Keys are stored under their SHA-256 only; the raw key exists once, in the 201. */
export const keyIdOf = (apiKey: string): string => sha256Hex(apiKey);

export async function findActiveKey(apiKey: string): Promise<(KioskKeyRecord & { keyId: string }) | undefined> {
  const keyId = keyIdOf(apiKey);
  const snapshot = await kioskKeysCollection().doc(keyId).get();
  const record = snapshot.data() as KioskKeyRecord | undefined;
  if (!record || record.revokedAt !== null) return undefined;
  return { ...record, keyId };
}

/** A kioskKeys/{sha256 of the key} document as first stored: active until revoked. */
export const newKioskKey = (kioskId: string, label: string): DocumentData => ({
  kioskId,
  label,
  createdAt: FieldValue.serverTimestamp(),
  revokedAt: null,
});

export async function issueKey(kioskId: string, label: string): Promise<{ keyId: string; apiKey: string }> {
  const apiKey = `kr_${randomBytes(32).toString('base64url')}`;
  const keyId = keyIdOf(apiKey);
  await createUnderOwnId(kioskKeysCollection().doc(keyId), newKioskKey(kioskId, label));
  return { keyId, apiKey };
}

/** False when the key does not exist or belongs to another kiosk. Revoking twice keeps the first time. */
export async function revokeKey(kioskId: string, keyId: string): Promise<boolean> {
  return runTransaction(async (tx) => {
    const ref = kioskKeysCollection().doc(keyId);
    const record = (await tx.get(ref)).data() as KioskKeyRecord | undefined;
    if (!record || record.kioskId !== kioskId) return false;
    if (record.revokedAt === null) tx.update(ref, { revokedAt: FieldValue.serverTimestamp() });
    return true;
  });
}
