import type { IncomingHttpHeaders } from 'node:http';
import { verifyIdToken, type VerifiedCaller } from '../adapters/identity';
import { findActiveKey } from '../data/kioskKeys';
import { forbidden, unauthorized } from '../errors';

export interface KioskCaller {
  kioskId: string;
  keyId: string;
}

const MAX_CREDENTIAL_LENGTH = 8192;

const singleHeader = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_CREDENTIAL_LENGTH ? value : undefined;
};

/** 401 without a valid, unrevoked key; 403 when the key belongs to another kiosk. */
export async function requireKiosk(headers: IncomingHttpHeaders, kioskId?: string): Promise<KioskCaller> {
  const apiKey = singleHeader(headers, 'x-api-key');
  if (!apiKey) throw unauthorized('X-API-Key header is required');
  const key = await findActiveKey(apiKey);
  if (!key) throw unauthorized('Invalid or revoked API key');
  if (kioskId !== undefined) assertKioskMatches(key, kioskId);
  return { kioskId: key.kioskId, keyId: key.keyId };
}

export function assertKioskMatches(caller: KioskCaller, kioskId: string): void {
  if (caller.kioskId !== kioskId) throw forbidden(`This API key is not valid for kiosk ${kioskId}`);
}

/** 401 without a valid Firebase ID token. */
export async function requireUser(headers: IncomingHttpHeaders): Promise<VerifiedCaller> {
  const authorization = singleHeader(headers, 'authorization');
  const match = authorization?.match(/^Bearer\s+(\S+)$/i);
  if (!match) throw unauthorized('Authorization: Bearer <Firebase ID token> is required');
  const caller = await verifyIdToken(match[1]);
  if (!caller) throw unauthorized('Invalid or expired ID token');
  return caller;
}

/** Users reach their own data only; admins reach everyone's. */
export async function requireUserOrAdmin(headers: IncomingHttpHeaders, userId: string): Promise<VerifiedCaller> {
  const caller = await requireUser(headers);
  if (!caller.admin && caller.uid !== userId) throw forbidden('You may only access your own user');
  return caller;
}

export async function requireAdmin(headers: IncomingHttpHeaders): Promise<VerifiedCaller> {
  const caller = await requireUser(headers);
  if (!caller.admin) throw forbidden('This endpoint requires an admin account');
  return caller;
}
