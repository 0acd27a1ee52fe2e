// The lists themselves, with no import: the console's bundle takes them from here too.

/** Every event a webhook may take (contract §13), in the order the API lists them. */
export const WEBHOOK_EVENT_TYPES = [
  'transaction.awarded',
  'redemption.issued',
  'redemption.used',
  'redemption.cancelled',
  'points.adjusted',
  'points.expired',
  'alert.opened',
  'alert.resolved',
  // Trust (contract §17).
  'points.held',
  'points.released',
  'points.rejected',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What a partner's webhook may take: the uses and cancels of that partner's vouchers. */
export const PARTNER_WEBHOOK_EVENT_TYPES = ['redemption.used', 'redemption.cancelled'] as const;

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
