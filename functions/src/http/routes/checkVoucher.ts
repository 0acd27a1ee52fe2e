import { checkVoucher } from '../../services/vouchers';
import { partnerRoute } from '../accessRoutes';
import { guessing, voucherAnswer, voucherNotFound } from './voucherAnswers';

/** GET /partner/vouchers/{code}: what a voucher is for and whether it may be used. */
export const checkVoucherRoute = partnerRoute({
  method: 'GET',
  path: '/partner/vouchers/:code',
  handler: async ({ params, caller }) => ({
    body: { success: true, voucher: await checkVoucher(caller, params.code) },
  }),
  doc: {
    operationId: 'checkVoucher',
    summary: 'Check a voucher',
    description:
      'The voucher with this code, if this partner honours it (its reward names this partner, or none): what it is ' +
      'for, its status and until when it is valid. Codes are matched ignoring case, spaces and hyphens ' +
      '(`7kq2-m9xh-4tzp` is `7KQ2M9XH4TZP`). Nothing about the user is shown.',
    tag: 'Partners',
    responses: {
      200: voucherAnswer('The voucher'),
      404: voucherNotFound,
      429: guessing,
    },
  },
});
