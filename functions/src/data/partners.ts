/**
 * Partners (`partners/{partnerId}`): the cafés and cinemas that honour vouchers, and
 * their API keys (`partnerKeys/{sha256 of the key}`, as kiosk keys).
 */
import { randomUUID } from 'node:crypto';
import { FieldPath, FieldValue, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db, runTransaction } from '../adapters/firestore';
import { assertDocumentId } from '../domain/ids';
import { notFound } from '../errors';
import type { PartnerView } from '../model/partnerViews';
import { apiKeyStore, type ApiKeyFields } from './apiKeys';

/** Who a partner route serves: a partner, through one of its keys. */
export interface PartnerCaller {
  partnerId: string;
  keyId: string;
}

export const partnersCollection = () => db().collection('partners');

export type { PartnerView };

export interface PartnerKeyRecord extends ApiKeyFields {
  partnerId: string;
}

export const partnerKeys = apiKeyStore('partnerKeys', 'partnerId', 'krp_');

const partnerView = (snapshot: DocumentSnapshot): PartnerView => ({
  id: snapshot.id,
  name: snapshot.get('name'),
});

/**
 * Creates the partner or renames it, in one transaction with its read; a create is
 * answered as one also when its commit's answer was lost and the body ran again (it
 * then finds its own `creationId`).
 */
export async function upsertPartner(id: string, name: string): Promise<{ partner: PartnerView; created: boolean }> {
  const ref = partnersCollection().doc(assertDocumentId(id, 'id'));
  const creationId = randomUUID();
  return runTransaction(async (tx) => {
    const snapshot = await tx.get(ref);
    const created = !snapshot.exists || snapshot.get('creationId') === creationId;
    tx.set(
      ref,
      {
        name,
        updatedAt: FieldValue.serverTimestamp(),
        ...(!snapshot.exists && { createdAt: FieldValue.serverTimestamp(), creationId }),
      },
      { merge: true },
    );
    return { partner: { id: ref.id, name }, created };
  });
}

/** Every partner, by id: a short list an operator keeps (a few dozen cafés), read whole. */
export async function allPartners(): Promise<PartnerView[]> {
  const snapshot = await partnersCollection().orderBy(FieldPath.documentId()).get();
  return snapshot.docs.map(partnerView);
}

export async function partnerExists(id: string): Promise<boolean> {
  return (await partnersCollection().doc(assertDocumentId(id, 'partnerId')).get()).exists;
}

/** 404 unless partner `id` exists. */
export async function assertPartnerExists(id: string): Promise<void> {
  if (!(await partnerExists(id))) throw notFound(`Partner ${id} not found`);
}
