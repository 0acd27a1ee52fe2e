/**
 * The response schemas of partners (§12): a partner, its keys, and a voucher as a
 * partner sees it (nothing about the user).
 */
import { Type, type Static } from '@sinclair/typebox';
import { closedObject, id, nullable, stringEnum } from './fields';
import { KioskKey } from './fleetViews';
import type { VoucherStatus } from './vocabulary';
import { VOUCHER_CODE_LENGTH } from './limits';

export const Partner = closedObject(
  { id, name: Type.String({ description: 'What the partner is called, e.g. "Kaffee Alex"' }) },
  { $id: 'Partner', description: 'A partner who honours vouchers (a café, a cinema).' },
);
export type PartnerView = Static<typeof Partner>;

export const PartnerKey = closedObject(KioskKey.properties, {
  $id: 'PartnerKey',
  description: 'An API key of a partner, as operators see it: never the key itself.',
});

export const VOUCHER_STATUSES = ['issued', 'used', 'cancelled', 'expired'] as const satisfies readonly VoucherStatus[];

export const voucherStatus = stringEnum<VoucherStatus>(VOUCHER_STATUSES, {
  description:
    '`issued`: valid until `expiresAt`; `used`: a partner took it (`usedAt`); `cancelled`: an operator cancelled ' +
    'it and the points went back; `expired`: issued and past `expiresAt`',
});

export const voucherCode = Type.String({
  minLength: VOUCHER_CODE_LENGTH,
  pattern: '^[0-9A-HJKMNP-TV-Z]+$',
  description: "A voucher's code (Crockford base32: no I, L, O, U)",
});

export const expiresAt = nullable(
  Type.String({
    format: 'date-time',
    description:
      'When the voucher stops being honoured, ISO 8601 UTC; null: never (a donation, or a voucher issued before vouchers expired)',
  }),
);
export const usedAt = nullable(
  Type.String({ format: 'date-time', description: 'When a partner used the voucher, ISO 8601 UTC; null: not used' }),
);

export const Voucher = closedObject(
  {
    code: voucherCode,
    rewardId: id,
    rewardName: Type.String({ description: 'The name of the reward when it was redeemed' }),
    status: voucherStatus,
    expiresAt,
    usedAt,
  },
  { $id: 'Voucher', description: 'A voucher as a partner sees it: what it is for and whether it may be used.' },
);
export type VoucherView = Static<typeof Voucher>;
