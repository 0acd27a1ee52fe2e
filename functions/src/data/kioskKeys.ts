import { apiKeyStore, type ApiKeyFields } from './apiKeys';
import type { KioskKeyView } from '../model/fleetViews';

export { keyIdOf } from './apiKeys';

export interface KioskKeyRecord extends ApiKeyFields {
  kioskId: string;
}

const kioskKeys = apiKeyStore('kioskKeys', 'kioskId', 'kr_');

export const kioskKeysCollection = kioskKeys.keysCollection;

/** A kioskKeys/{keyId} document as first stored (the bench seeds keys with it, in projects of its own too). */
export const newKioskKey = kioskKeys.newKey;

export const findActiveKey = kioskKeys.findActiveKey;

export const issueKey = kioskKeys.issueKey;

/** False when the key does not exist or belongs to another kiosk. Revoking twice keeps the first time. */
export const revokeKey = kioskKeys.revokeKey;

/** A key as operators see it: never the key itself (the service does not have it). */
export type { KioskKeyView };

/** The keys of a kiosk, revoked ones too, newest first (then by id, descending: a stable order). */
export const kioskKeysOf = kioskKeys.keysOf;
