import { ApiError, badRequest } from '../errors';
import { sha256Hex } from './hash';
import { MAX_IDEMPOTENCY_KEY_LENGTH, IDEMPOTENCY_KEY_PATTERN } from '../model/limits';

export const IDEMPOTENCY_KEY_RULE = `1-${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters (0x21-0x7E)`;
const idempotencyKeyText = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** JSON with object keys sorted at every level, so key order never changes a fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

export function requestFingerprint(body: unknown): string {
  return sha256Hex(canonicalJson(body));
}

/**
 * The id of the transaction a kiosk's Idempotency-Key names, forever: the document is
 * created under it, so a second submission of the key can never record a second
 * transaction, however late it comes. Keys are scoped per kiosk (two kiosks may pick
 * the same key), and the pair is encoded as a JSON array, which no two pairs share
 * (a separator such as ":" is ambiguous when ids contain it).
 */
export function keyedTransactionId(kioskId: string, key: string): string {
  return sha256Hex(JSON.stringify([kioskId, key]));
}

/**
 * The id of the ledger entry an admin's Idempotency-Key names for one user's
 * adjustment, forever, as keyedTransactionId does for a kiosk's transaction. Keys are
 * scoped per user; the leading "adjust" keeps these ids apart from transactions' (whose
 * `earn` entries share the ledger's id space) whatever the ids and keys.
 */
export function keyedAdjustmentId(userId: string, key: string): string {
  return sha256Hex(JSON.stringify(['adjust', userId, key]));
}

/** The answer to a key sent again with another body: nothing is applied. */
export const keyReused = (): ApiError =>
  new ApiError('idempotency-key-reused', 'This Idempotency-Key was already used with a different request body');

/** `undefined` when the header is absent; a 400 when it is present but unusable. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) throw badRequest('Idempotency-Key must be sent once');
  if (header.length === 0 || header.length > MAX_IDEMPOTENCY_KEY_LENGTH || !idempotencyKeyText.test(header)) {
    throw badRequest(`Idempotency-Key must be ${IDEMPOTENCY_KEY_RULE}`);
  }
  return header;
}
