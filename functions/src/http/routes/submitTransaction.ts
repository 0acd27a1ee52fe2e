import { parseIdempotencyKey } from '../../domain/idempotency';
import { assertDocumentId } from '../../domain/ids';
import { badRequest } from '../../errors';
import { awardTransaction } from '../../services/awardTransaction';
import { assertKioskMatches, requireKiosk, type KioskCaller } from '../auth';
import type { TransactionBody } from '../schemas';
import type { Route } from '../types';

/** POST /kiosk/transaction: items deposited by a user, turned into points. */
export const submitTransactionRoute: Route<TransactionBody, KioskCaller> = {
  method: 'POST',
  path: '/kiosk/transaction',
  authenticate: ({ headers }) => requireKiosk(headers),
  bodySchema: 'transactionBody',
  handler: async ({ headers, body, caller }) => {
    const idempotencyKey = parseIdempotencyKey(headers['idempotency-key']);
    assertDocumentId(body.kioskId, 'kioskId');
    assertDocumentId(body.userId, 'userId');
    if (body.plasticCount + body.metalCount === 0) {
      throw badRequest('plasticCount and metalCount: a transaction needs at least one item');
    }
    assertKioskMatches(caller, body.kioskId);
    const { result, replayed } = await awardTransaction(body, { apiKeyId: caller.keyId, idempotencyKey });
    const responseHeaders: Record<string, string> = replayed ? { 'Idempotent-Replayed': 'true' } : {};
    return { headers: responseHeaders, body: { ...result } };
  },
};
