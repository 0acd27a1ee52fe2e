import { randomBytes } from 'node:crypto';
import { FieldPath, FieldValue, Timestamp, type DocumentData } from 'firebase-admin/firestore';
import { createUnderOwnId, db, runTransaction } from '../adapters/firestore';
import { sha256Hex } from '../domain/hash';
import type { KioskKeyView } from '../http/apiDescription/fleetViews';

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

/** A key as operators see it: never the key itself (the service does not have it). */
export type { KioskKeyView };

/** The keys of a kiosk, revoked ones too, newest first (then by id, descending: a stable order). */
export async function kioskKeysOf(kioskId: string): Promise<KioskKeyView[]> {
  const snapshot = await kioskKeysCollection()
    .where('kioskId', '==', kioskId)
    .orderBy('createdAt', 'desc')
    .orderBy(FieldPath.documentId(), 'desc')
    .get();
  return snapshot.docs.map((doc) => {
    const { label, createdAt, revokedAt } = doc.data() as KioskKeyRecord;
    return {
      keyId: doc.id,
      label,
      createdAt: createdAt.toDate().toISOString(),
      revokedAt: revokedAt?.toDate().toISOString() ?? null,
    };
  });
}
