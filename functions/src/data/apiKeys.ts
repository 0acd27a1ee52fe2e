/**
 * API keys of one kind of holder (kiosks, partners): stored under their SHA-256 only,
 * in a collection of their own, so a key of one kind is unknown (401) where the
 * other kind is asked for. The raw key exists once, in the answer that issues it.
 */
import { randomBytes } from 'node:crypto';
import { FieldPath, FieldValue, Timestamp, type DocumentData } from 'firebase-admin/firestore';
import { createUnderOwnId, db, runTransaction } from '../adapters/firestore';
import { sha256Hex } from '../domain/hash';
import type { KioskKeyView } from '../model/fleetViews';

/** A key as operators see it: never the key itself (the service does not have it). */
export type ApiKeyView = KioskKeyView;

export interface ApiKeyFields {
  label: string;
  createdAt: Timestamp;
  revokedAt: Timestamp | null;
}

/** A key's id: its SHA-256, the only form stored. */
export const keyIdOf = (apiKey: string): string => sha256Hex(apiKey);

/** The keys of holders named by `holderField` (e.g. kioskId) in `collection`, each key starting with `prefix`. */
export function apiKeyStore<HolderField extends string>(collection: string, holderField: HolderField, prefix: string) {
  type KeyRecord = ApiKeyFields & Record<HolderField, string>;
  const keysCollection = () => db().collection(collection);

  /** A key's document as first stored: active until revoked. */
  const newKey = (holderId: string, label: string): DocumentData => ({
    [holderField]: holderId,
    label,
    createdAt: FieldValue.serverTimestamp(),
    revokedAt: null,
  });

  return {
    keysCollection,
    newKey,

    async findActiveKey(apiKey: string): Promise<(KeyRecord & { keyId: string }) | undefined> {
      const keyId = keyIdOf(apiKey);
      const record = (await keysCollection().doc(keyId).get()).data() as KeyRecord | undefined;
      if (!record || record.revokedAt !== null) return undefined;
      return { ...record, keyId };
    },

    async issueKey(holderId: string, label: string): Promise<{ keyId: string; apiKey: string }> {
      const apiKey = `${prefix}${randomBytes(32).toString('base64url')}`;
      const keyId = keyIdOf(apiKey);
      await createUnderOwnId(keysCollection().doc(keyId), newKey(holderId, label));
      return { keyId, apiKey };
    },

    /** False when the key does not exist or belongs to another holder. Revoking twice keeps the first time. */
    async revokeKey(holderId: string, keyId: string): Promise<boolean> {
      return runTransaction(async (tx) => {
        const ref = keysCollection().doc(keyId);
        const record = (await tx.get(ref)).data() as KeyRecord | undefined;
        if (!record || record[holderField] !== holderId) return false;
        if (record.revokedAt === null) tx.update(ref, { revokedAt: FieldValue.serverTimestamp() });
        return true;
      });
    },

    /** The holder's keys, revoked ones too, newest first (then by id, descending: a stable order). */
    async keysOf(holderId: string): Promise<ApiKeyView[]> {
      const snapshot = await keysCollection()
        .where(holderField, '==', holderId)
        .orderBy('createdAt', 'desc')
        .orderBy(FieldPath.documentId(), 'desc')
        .get();
      return snapshot.docs.map((doc) => {
        const { label, createdAt, revokedAt } = doc.data() as KeyRecord;
        return {
          keyId: doc.id,
          label,
          createdAt: createdAt.toDate().toISOString(),
          revokedAt: revokedAt?.toDate().toISOString() ?? null,
        };
      });
    },
  };
}
