import { parseIdempotencyKey } from '../../domain/idempotency';
import { assertDocumentId } from '../../domain/ids';
import { badRequest } from '../../errors';
import { awardTransaction } from '../../services/awardTransaction';
import { assertKioskMatches, requireKiosk, type KioskCaller } from '../auth';
import { successBody, transactionSchema } from '../components';
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
  doc: {
    operationId: 'submitTransaction',
    summary: 'Submit a recycling transaction',
    description:
      'Items a user deposited at this kiosk, turned into points: the transaction is recorded and the user ' +
      'credited in one atomic commit, so concurrent submissions never lose an award. The kiosk counters, the ' +
      'in-app notification and the push follow shortly after (`pushNotification` says whether a push was ' +
      'queued).\n\nSend an `Idempotency-Key` (e.g. the receipt number) and retry freely: within 24 hours the ' +
      'same key from the same kiosk is answered with the stored response (same transaction id, ' +
      '`Idempotent-Replayed: true`) and nothing is awarded twice, also while the first request is still in flight.',
    tag: 'Kiosk devices',
    access: 'kiosk',
    headers: ['Idempotency-Key'],
    example: { kioskId: 'berlin-alexanderplatz', userId: 'demo-alice', plasticCount: 3, metalCount: 2 },
    responses: {
      200: {
        description: 'Recorded and awarded, or the stored answer to an earlier request with this Idempotency-Key',
        schema: successBody({
          transaction: transactionSchema,
          pushNotification: {
            type: 'boolean',
            description: 'A push to the user was queued (they have a device token)',
          },
        }),
        headers: ['Idempotent-Replayed'],
        example: {
          success: true,
          transaction: {
            id: 'Qm3x0cWkP1a9DfJtR2vZ',
            userId: 'demo-alice',
            kioskId: 'berlin-alexanderplatz',
            plasticCount: 3,
            metalCount: 2,
            totalItems: 5,
            pointsEarned: 70,
            newBalance: 1320,
          },
          pushNotification: true,
        },
      },
      400: {
        description:
          'A count outside 0-1000 or no item at all, an invalid id, or an Idempotency-Key that is empty, over 255 ' +
          'characters or sent twice',
        codes: ['invalid-argument'],
      },
      403: { description: '`kioskId` is not the kiosk of this key', codes: ['permission-denied'] },
      404: { description: 'Unknown user or kiosk (the message says which)', codes: ['not-found'] },
      409: {
        description:
          'The kiosk is not `available` (`kiosk-unavailable`), or the award would take the user past the daily ' +
          'points cap (`daily-cap-reached`); nothing was awarded',
        codes: ['kiosk-unavailable', 'daily-cap-reached'],
      },
      422: {
        description: 'This Idempotency-Key was already used by this kiosk with a different body',
        codes: ['idempotency-key-reused'],
      },
      503: {
        description:
          "The kiosk's stored record is damaged and must be repaired by an operator; nothing was awarded. Keep " +
          'the deposit and send it again after `Retry-After` seconds',
        codes: ['kiosk-misconfigured'],
        headers: ['Retry-After'],
      },
    },
  },
};
