import { parseIdempotencyKey } from '../../domain/idempotency';
import { acceptDeposit } from '../../services/deposits';
import { requireKiosk, type KioskCaller } from '../auth';
import type { TransactionBody } from '../../model/requestBodies';
import { transactionExample } from '../apiDescription/examples';
import type { Route } from '../types';

/** POST /kiosk/transaction: items deposited by a user, turned into points. */
export const submitTransactionRoute: Route<TransactionBody, KioskCaller> = {
  method: 'POST',
  path: '/kiosk/transaction',
  authenticate: ({ headers }) => requireKiosk(headers),
  bodySchema: 'transactionBody',
  handler: async ({ headers, body, caller }) => {
    const idempotencyKey = parseIdempotencyKey(headers['idempotency-key']);
    const { result, replayed } = await acceptDeposit({ ...body, idempotencyKey }, caller);
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
      'queued).\n\nSend an `Idempotency-Key` (e.g. the receipt number) and retry freely: the same key from the ' +
      'same kiosk is answered with the original response (same transaction id and figures, ' +
      '`Idempotent-Replayed: true`) for as long as the transaction exists, also while the first request is ' +
      'still in flight, and before any other check (a moved offline window, a kiosk status changed since); ' +
      'nothing is ever awarded twice. Without a key, a retry after an answer that never arrived may award again.\n\nA kiosk that was offline sends `occurredAt`, when the ' +
      'deposit was made. The daily points cap counts by the UTC day of `occurredAt`; a deposit past the cap is ' +
      'still recorded and its items counted, for the points left under the cap (`capped: true`). It is never ' +
      'refused for the cap.',
    tag: 'Kiosk devices',
    access: 'kiosk',
    headers: ['Idempotency-Key'],
    example: {
      kioskId: 'berlin-alexanderplatz',
      userId: 'demo-alice',
      plasticCount: 3,
      metalCount: 2,
      occurredAt: '2026-11-23T09:12:44+01:00',
    },
    responses: {
      200: {
        description: 'Recorded and awarded, or the stored answer to an earlier request with this Idempotency-Key',
        schema: ({ successBody, depositAnswerFields }) => successBody(depositAnswerFields),
        headers: ['Idempotent-Replayed'],
        example: {
          success: true,
          transaction: transactionExample,
          pushNotification: true,
        },
      },
      400: {
        description:
          'A count outside 0-1000 or no item at all, an invalid id, an `occurredAt` that is not RFC 3339 or out of ' +
          'its bounds, or an Idempotency-Key that is not 1-255 visible ASCII characters or sent twice',
        codes: ['invalid-argument'],
      },
      403: { description: '`kioskId` is not the kiosk of this key', codes: ['permission-denied'] },
      404: { description: 'Unknown user or kiosk (the message says which)', codes: ['not-found'] },
      409: { description: 'The kiosk is not `available`; nothing was awarded', codes: ['kiosk-unavailable'] },
      422: {
        description: 'This Idempotency-Key was already used by this kiosk with a different body',
        codes: ['idempotency-key-reused'],
      },
      503: {
        description:
          "The kiosk's stored record is damaged and must be repaired by an operator (`kiosk-misconfigured`), or " +
          "the service is overloaded: this user's awards were contended for too long (`overloaded`). Nothing was " +
          'awarded; keep the deposit and send it again, with its key, after `Retry-After` seconds',
        codes: ['kiosk-misconfigured', 'overloaded'],
        headers: ['Retry-After'],
      },
    },
  },
};
