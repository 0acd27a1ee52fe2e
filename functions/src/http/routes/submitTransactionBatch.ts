import { logError, logInfo } from '../../log';
import { ApiError } from '../../errors';
import { settleInOrder, type Settled } from '../../domain/settleInOrder';
import type { AwardOutcome } from '../../services/awardRecord';
import { acceptDeposits } from '../../services/deposits';
import { requireKiosk, type KioskCaller } from '../auth';
import type { TransactionBatchBody, TransactionBatchItem } from '../../model/requestBodies';
import { transactionExample } from '../apiDescription/examples';
import { answerWith } from '../apiDescription/routeAnswers';
import type { BatchResultView } from '../../model/views';
import { errorAnswerOf } from '../errorAnswers';
import type { Route } from '../types';
import { MAX_BODY_DEPTH, validateBody } from '../validation';
import { MAX_BATCH_ITEMS } from '../../model/limits';

/** One item's answer: what POST /kiosk/transaction would have answered it alone. */
export type BatchResult = BatchResultView;

const keyOf = (item: Record<string, unknown>): string | null =>
  typeof item.idempotencyKey === 'string' ? item.idempotencyKey : null;

/** One item's result, exactly as the single endpoint would have answered it: its own 4xx, never an exception. */
function resultOf(item: Record<string, unknown>, settled: Settled<AwardOutcome>, caller: KioskCaller): BatchResult {
  const idempotencyKey = keyOf(item);
  if ('outcome' in settled) {
    const { result, replayed } = settled.outcome;
    return {
      idempotencyKey,
      status: 200,
      transaction: result.transaction,
      pushNotification: result.pushNotification,
      replayed,
    };
  }
  const { error } = settled;
  if (error instanceof ApiError) {
    const { status, message, code } = errorAnswerOf(error);
    return { idempotencyKey, status, error: message, code };
  }
  logError('batch_item_failed', { kioskId: caller.kioskId, error: String(error) });
  return { idempotencyKey, status: 500, error: 'Internal error; send this item again', code: 'internal' };
}

/**
 * The batch answer's Retry-After: the longest wait an item's error asks for (an item
 * given up as overloaded, a kiosk record awaiting repair), which the single endpoint
 * would have sent as its header.
 */
function retryAfterOf(settled: Settled<AwardOutcome>[]): Record<string, string> {
  const waits = settled.flatMap((each) =>
    'error' in each && each.error instanceof ApiError && each.error.details.retryAfterSeconds !== undefined
      ? [each.error.details.retryAfterSeconds]
      : [],
  );
  return waits.length > 0 ? { 'Retry-After': String(Math.max(...waits)) } : {};
}

/**
 * Each item is validated on its own, then the valid ones are accepted together
 * (acceptDeposits: the kiosk and config read once, each user's items in one commit,
 * a key repeated in the batch answered as a retry of its first occurrence).
 */
async function resultsOf(
  items: Record<string, unknown>[],
  caller: KioskCaller,
): Promise<{ results: BatchResult[]; headers: Record<string, string> }> {
  const settled = await settleInOrder(items, {
    prepare: (item) => validateBody<TransactionBatchItem>('transactionBatchItem', item),
    settle: (valid) => acceptDeposits(valid, caller),
  });
  return {
    results: items.map((item, index) => resultOf(item, settled[index], caller)),
    headers: retryAfterOf(settled),
  };
}

/** POST /kiosk/transactions/batch: the deposits a kiosk stored while offline, up to 100 at once. */
export const submitTransactionBatchRoute: Route<TransactionBatchBody, KioskCaller> = {
  method: 'POST',
  path: '/kiosk/transactions/batch',
  authenticate: ({ headers }) => requireKiosk(headers),
  bodySchema: 'transactionBatchBody',
  handler: async ({ body, caller }) => {
    const { results, headers } = await resultsOf(body.transactions, caller);
    logInfo('transaction_batch', {
      kioskId: caller.kioskId,
      items: results.length,
      awarded: results.filter((result) => result.status === 200 && !result.replayed).length,
      replayed: results.filter((result) => result.replayed).length,
      failed: results.filter((result) => result.status !== 200).length,
    });
    return { headers, body: { success: true, results } };
  },
  doc: {
    operationId: 'submitTransactionBatch',
    summary: 'Upload stored transactions in one batch',
    description:
      `Up to ${MAX_BATCH_ITEMS} deposits a kiosk stored while it was offline, each with its own ` +
      '`idempotencyKey` and usually its `occurredAt`. Every item is answered exactly as `POST /kiosk/transaction` ' +
      'would have answered it alone (status 200 for an award or a replay, else its 4xx with `error` and `code`), ' +
      "in the request's order; one item's failure never affects another (an item given up under overload is " +
      "its own 503 `overloaded`: send it again after the answer's `Retry-After`). An item is one transaction forever: " +
      'upload a batch again after a lost answer, or send an item alone, and it is a replay. A key repeated ' +
      'inside one batch is a replay of its first occurrence. A batch malformed as a whole (not a list, empty, ' +
      `over ${MAX_BATCH_ITEMS} items, an item that is not an object, arrays or objects nested deeper than ` +
      `${MAX_BODY_DEPTH} levels anywhere) is a 400 and nothing is awarded.`,
    tag: 'Kiosk devices',
    access: 'kiosk',
    example: {
      transactions: [
        {
          kioskId: 'berlin-alexanderplatz',
          userId: 'demo-alice',
          plasticCount: 3,
          metalCount: 2,
          occurredAt: '2026-11-21T16:04:10+01:00',
          idempotencyKey: 'receipt-000412',
        },
        {
          kioskId: 'berlin-alexanderplatz',
          userId: 'demo-bob',
          plasticCount: 0,
          metalCount: 4,
          occurredAt: '2026-11-22T08:45:00Z',
          idempotencyKey: 'receipt-000413',
        },
      ],
    },
    responses: {
      200: {
        ...answerWith(
          'One result per item, in order; with `Retry-After` when an item is to be sent again later (the longest ' +
            'wait any item asks for)',
          'results',
          ['BatchResult'],
          [
            {
              idempotencyKey: 'receipt-000412',
              status: 200,
              transaction: { ...transactionExample, occurredAt: '2026-11-21T15:04:10.000Z' },
              pushNotification: true,
              replayed: false,
            },
            {
              idempotencyKey: 'receipt-000413',
              status: 404,
              error: 'User demo-bob not found',
              code: 'not-found',
            },
          ],
        ),
        headers: ['Retry-After'],
      },
      400: {
        description: `The batch as a whole is malformed: not a list, empty, over ${MAX_BATCH_ITEMS} items, an item that is not an object, or nested deeper than ${MAX_BODY_DEPTH} levels; nothing was awarded`,
        codes: ['invalid-argument'],
      },
    },
  },
};
