import type { IncomingHttpHeaders } from 'node:http';
import { IdentityUnavailableError, verifyIdToken, type VerifiedCaller } from '../adapters/identity';
import { findActiveKey } from '../data/kioskKeys';
import { partnerKeys, type PartnerCaller } from '../data/partners';
import { assertKioskMatches, type KioskCaller } from '../domain/kiosk';
import { ApiError, forbidden, unauthorized } from '../errors';
import { logWarn } from '../log';
import { noteKioskSeen } from '../services/liveness';

export type { KioskCaller };

const MAX_CREDENTIAL_LENGTH = 8192;

const singleHeader = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_CREDENTIAL_LENGTH ? value : undefined;
};

/**
 * 401 without a valid, unrevoked key; 403 when the key belongs to another kiosk. A
 * valid key records its kiosk as seen (lastSeenAt, at most once a minute), whatever
 * becomes of the request: the kiosk is alive.
 */
export async function requireKiosk(headers: IncomingHttpHeaders, kioskId?: string): Promise<KioskCaller> {
  const apiKey = singleHeader(headers, 'x-api-key');
  if (!apiKey) throw unauthorized('X-API-Key header is required');
  const key = await findActiveKey(apiKey);
  if (!key) throw unauthorized('Invalid or revoked API key');
  await noteKioskSeen(key.kioskId);
  if (kioskId !== undefined) assertKioskMatches(key, kioskId);
  return { kioskId: key.kioskId, keyId: key.keyId };
}

/** 401 without a valid, unrevoked partner key: a kiosk's key is unknown here, as a partner's is on kiosk routes. */
export async function requirePartner(headers: IncomingHttpHeaders): Promise<PartnerCaller> {
  const apiKey = singleHeader(headers, 'x-api-key');
  if (!apiKey) throw unauthorized('X-API-Key header is required');
  const key = await partnerKeys.findActiveKey(apiKey);
  if (!key) throw unauthorized('Invalid or revoked API key');
  return { partnerId: key.partnerId, keyId: key.keyId };
}

const AUTH_RETRY_AFTER_SECONDS = 5;

/** The Auth backend out of reach is 503 with Retry-After, logged; any other error is returned as it is. */
export function answerForUnavailableAuth(error: unknown, fields: Record<string, unknown>): unknown {
  if (!(error instanceof IdentityUnavailableError)) return error;
  logWarn('auth_unavailable', { code: error.providerCode, ...fields });
  return new ApiError('auth-unavailable', 'Sign-in could not be checked right now; try again shortly', {
    retryAfterSeconds: AUTH_RETRY_AFTER_SECONDS,
  });
}

/**
 * 401 without a valid Firebase ID token; 503 when it could not be checked (Google's
 * keys or the Auth backend out of reach), which says nothing about the token.
 */
async function verifiedCaller(idToken: string, checkRevoked: boolean): Promise<VerifiedCaller> {
  const caller = await verdictOn(idToken, checkRevoked);
  if (!caller || caller === 'revoked') throw unauthorized('Invalid or expired ID token');
  return caller;
}

async function verdictOn(idToken: string, checkRevoked: boolean): Promise<VerifiedCaller | 'revoked' | undefined> {
  try {
    return await verifyIdToken(idToken, { checkRevoked });
  } catch (error) {
    throw answerForUnavailableAuth(error, { checkRevoked });
  }
}

function bearerToken(headers: IncomingHttpHeaders): string {
  const match = singleHeader(headers, 'authorization')?.match(/^Bearer\s+(\S+)$/i);
  if (!match) throw unauthorized('Authorization: Bearer <Firebase ID token> is required');
  return match[1];
}

/**
 * Users reach their own data only; admins reach everyone's. A user's own data needs
 * the signature and expiry only, no Auth backend call: a revoked or disabled account
 * keeps it until its token expires (at most 1 h). Where the admin claim is what grants
 * access, the token is checked for revocation as on /admin/*.
 */
export async function requireUserOrAdmin(headers: IncomingHttpHeaders, userId: string): Promise<VerifiedCaller> {
  const idToken = bearerToken(headers);
  const caller = await verifiedCaller(idToken, false);
  if (caller.uid === userId) return caller;
  if (!caller.admin) throw forbidden('You may only access your own user');
  return verifiedCaller(idToken, true);
}

/** How long ago a user may have signed in to erase or export their own data (contract, Part four). */
export const RECENT_SIGN_IN_SECONDS = 5 * 60;

const recentSignInRequired = () =>
  new ApiError('recent-sign-in-required', 'Sign in again: this needs a sign-in of the last 5 minutes');

/**
 * For what cannot be undone or hands everything over (an erasure, an export): the
 * user's own token must not be revoked (one Auth backend call) and must come from a
 * sign-in at most RECENT_SIGN_IN_SECONDS ago, so a stolen or forgotten session cannot
 * destroy or take a person's data. An admin's token is checked as on /admin/*.
 */
export async function requireRecentUserOrAdmin(
  headers: IncomingHttpHeaders,
  userId: string,
  now = new Date(),
): Promise<VerifiedCaller> {
  const idToken = bearerToken(headers);
  // The Auth emulator checks revocation on every verification: a revoked token is known here already there.
  const caller = await verdictOn(idToken, false);
  if (caller === 'revoked') throw recentSignInRequired();
  if (!caller) throw unauthorized('Invalid or expired ID token');
  if (caller.admin) return verifiedCaller(idToken, true);
  if (caller.uid !== userId) throw forbidden('You may only access your own user');
  const checked = await verdictOn(idToken, true);
  if (!checked || checked === 'revoked' || now.getTime() / 1000 - checked.signedInAt > RECENT_SIGN_IN_SECONDS) {
    throw recentSignInRequired();
  }
  return checked;
}

/** Admin rights end at once: a revoked token or a disabled account is 401 here. */
export async function requireAdmin(headers: IncomingHttpHeaders): Promise<VerifiedCaller> {
  const caller = await verifiedCaller(bearerToken(headers), true);
  if (!caller.admin) throw forbidden('This endpoint requires an admin account');
  return caller;
}
