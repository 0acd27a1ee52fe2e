// What the two voucher routes of partners share in their OpenAPI `doc`.
import type { ErrorResponse, SuccessResponse } from '../apiDescription/operation';
import { voucherExample } from '../apiDescription/examples';

export const voucherNotFound: ErrorResponse = {
  description:
    "No voucher has this code for this partner: an unknown code and a voucher of another partner's reward alike. " +
    'Counted as a guess',
  codes: ['voucher-not-found'],
};

export const guessing: ErrorResponse = {
  description:
    'This key sent more than 20 unknown codes in 10 minutes: every voucher request of it is refused until ' +
    '`Retry-After` seconds have passed',
  codes: ['rate-limited'],
  headers: ['Retry-After'],
};

export const voucherAnswer = (description: string, voucher = voucherExample): SuccessResponse => ({
  description,
  schema: ({ successBody, Voucher }) => successBody({ voucher: Voucher }),
  example: { success: true, voucher },
});
