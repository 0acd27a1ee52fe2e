/**
 * webhooks/{id}: a registered webhook (contract §13). Its signing secrets are stored
 * here, never readable by a client (firestore.rules) and never listed by the API:
 * `secrets` holds the current one first and, for 24 h after a rotation, the one it
 * replaced with `until`.
 */
import { FieldValue, Timestamp, type DocumentSnapshot } from 'firebase-admin/firestore';
import { db, runTransaction } from '../adapters/firestore';
import { ROTATED_SECRET_GRACE_MS, isWebhookEventType } from '../domain/webhookEvents';
import type { WebhookView } from '../model/webhookViews';
import type { WebhookEventType } from '../model/webhookEventTypes';

export const webhooksCollection = () => db().collection('webhooks');

export interface StoredSecret {
  secret: string;
  /** Signs until then (a secret a rotation replaced); null: the current secret. */
  until: Timestamp | null;
}

export interface WebhookRecord {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  active: boolean;
  /** A partner's webhook (PARTNER_WEBHOOK_EVENT_TYPES of its rewards only); null: the operator's. */
  partnerId: string | null;
  createdAt: Date;
  secrets: StoredSecret[];
}

export type { WebhookView };

/** Everything but its secrets, which are never shown again after creation. */
export const toWebhookView = ({ secrets: _secrets, createdAt, ...shown }: WebhookRecord): WebhookView => ({
  ...shown,
  createdAt: createdAt.toISOString(),
});

/** The webhook as stored; undefined when it is missing or not one (a document broken by hand). */
export function webhookFromSnapshot(snapshot: DocumentSnapshot): WebhookRecord | undefined {
  const data = snapshot.data();
  if (!data) return undefined;
  const { url, events, description, active, partnerId, createdAt, secrets } = data;
  if (
    typeof url !== 'string' ||
    !Array.isArray(events) ||
    !Array.isArray(secrets) ||
    !(createdAt instanceof Timestamp)
  ) {
    return undefined;
  }
  return {
    id: snapshot.id,
    url,
    events: events.filter(isWebhookEventType),
    description: typeof description === 'string' ? description : '',
    active: active === true,
    partnerId: typeof partnerId === 'string' ? partnerId : null,
    createdAt: createdAt.toDate(),
    secrets: secrets as StoredSecret[],
  };
}

/** The secrets that sign a delivery at `now`: the current one, and a replaced one within its 24 h. */
export const signingSecrets = (webhook: WebhookRecord, now: Date): string[] =>
  webhook.secrets.filter(({ until }) => until === null || until.toMillis() > now.getTime()).map(({ secret }) => secret);

export async function createWebhook(
  fields: { url: string; events: WebhookEventType[]; description: string; partnerId?: string | null },
  secret: string,
): Promise<WebhookRecord> {
  const ref = webhooksCollection().doc();
  const createdAt = Timestamp.now();
  const secrets: StoredSecret[] = [{ secret, until: null }];
  const stored = { ...fields, partnerId: fields.partnerId ?? null, active: true };
  await ref.create({ ...stored, createdAt, secrets });
  return { id: ref.id, ...stored, createdAt: createdAt.toDate(), secrets };
}

/** Every webhook, oldest first. */
export async function listWebhooks(): Promise<WebhookRecord[]> {
  const snapshot = await webhooksCollection().orderBy('createdAt').get();
  return snapshot.docs.flatMap((doc) => webhookFromSnapshot(doc) ?? []);
}

/** The active webhooks that take `type`. */
export async function webhooksTaking(type: WebhookEventType): Promise<WebhookRecord[]> {
  const snapshot = await webhooksCollection().where('events', 'array-contains', type).get();
  return snapshot.docs.flatMap((doc) => {
    const webhook = webhookFromSnapshot(doc);
    return webhook?.active ? [webhook] : [];
  });
}

export async function getWebhook(id: string): Promise<WebhookRecord | undefined> {
  return webhookFromSnapshot(await webhooksCollection().doc(id).get());
}

/** False when there is no such webhook. */
export async function deleteWebhook(id: string): Promise<boolean> {
  return runTransaction(async (tx) => {
    const ref = webhooksCollection().doc(id);
    if (!(await tx.get(ref)).exists) return false;
    tx.delete(ref);
    return true;
  });
}

/**
 * Makes `secret` the webhook's secret; the one it replaces signs too for 24 h. A
 * secret replaced earlier is dropped (at most two sign). Undefined: no such webhook.
 */
export async function rotateWebhookSecret(id: string, secret: string): Promise<WebhookRecord | undefined> {
  return runTransaction(async (tx) => {
    const ref = webhooksCollection().doc(id);
    const webhook = webhookFromSnapshot(await tx.get(ref));
    if (!webhook) return undefined;
    const current = webhook.secrets.find(({ until }) => until === null);
    const until = Timestamp.fromMillis(Date.now() + ROTATED_SECRET_GRACE_MS);
    const secrets: StoredSecret[] = [{ secret, until: null }, ...(current ? [{ secret: current.secret, until }] : [])];
    tx.update(ref, { secrets, rotatedAt: FieldValue.serverTimestamp() });
    return { ...webhook, secrets };
  });
}
