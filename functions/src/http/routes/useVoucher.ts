import { parseIdempotencyKey } from '../../domain/idempotency';
import { useVoucher } from '../../services/vouchers';
import { partnerRoute } from '../accessRoutes';
import { voucherExample } from '../apiDescription/examples';
import { overloadedAnswer } from '../apiDescription/routeAnswers';
import { guessing, voucherAnswer, voucherNotFound } from './voucherAnswers';

const usedExample = { ...voucherExample, status: 'used' as const, usedAt: '2026-11-24T15:02:09.114Z' };

/** POST /partner/vouchers/{code}/use: the voucher used, exactly once. */
export const useVoucherRoute = partnerRoute({
  method: 'POST',
  path: '/partner/vouchers/:code/use',
  handler: async ({ headers, params, caller }) => {
    const idempotencyKey = parseIdempotencyKey(headers['idempotency-key']);
    const { voucher, replayed } = await useVoucher(caller, params.code, idempotencyKey);
    const body = { success: true, voucher };
    return replayed ? { headers: { 'Idempotent-Replayed': 'true' }, body } : { body };
  },
  doc: {
    operationId: 'useVoucher',
    summary: 'Use a voucher',
    description:
      'Marks the voucher used, exactly once however many uses arrive at once: one is answered 200, every other ' +
      '409 `voucher-used` with the voucher (when it was used). The user is told (an in-app notification and a ' +
      'push). Codes are matched as by the check.\n\nSend an `Idempotency-Key` (e.g. the receipt number) and retry ' +
      'freely: the same key from this partner is answered with the same 200 and `Idempotent-Replayed: true`. ' +
      'Without one, a retry after an answer that never arrived is 409 `voucher-used`.',
    tag: 'Partners',
    headers: ['Idempotency-Key'],
    responses: {
      200: {
        ...voucherAnswer('Used now, or the replay of a use with this Idempotency-Key', usedExample),
        headers: ['Idempotent-Replayed'],
      },
      400: {
        description: 'An Idempotency-Key that is not 1-255 visible ASCII characters',
        codes: ['invalid-argument'],
      },
      404: voucherNotFound,
      409: {
        description:
          'Not used now: it was used before (`voucher-used`; `voucher.usedAt` says when), it has expired, or an ' +
          'operator cancelled it. The body carries the voucher as it is',
        codes: ['voucher-used', 'voucher-expired', 'voucher-cancelled'],
        fields: ({ Voucher }) => ({ voucher: Voucher }),
      },
      429: guessing,
      503: overloadedAnswer,
    },
  },
});
