/** The API's views the console shows (functions/src/http/apiDescription/ is the reference). */

export type KioskStatus = 'available' | 'maintenance' | 'offline';
export const KIOSK_STATUSES: KioskStatus[] = ['available', 'maintenance', 'offline'];
export type AlertKind = 'bin-full' | 'error' | 'silent';
export const ALERT_KINDS: AlertKind[] = ['bin-full', 'error', 'silent'];
export type RewardKind = 'voucher' | 'donation';
export const REWARD_KINDS: RewardKind[] = ['voucher', 'donation'];
/** GET /admin/reports/kiosk-days refuses a longer range. */
export const MAX_REPORT_DAYS = 92;

/*
 * The views themselves are the API's own declarations (TypeBox, the source of the
 * OpenAPI document), imported as types only: nothing of functions/ reaches the bundle.
 */
export type {
  AdminKioskView as AdminKiosk,
  AlertView as Alert,
  KioskDayRow as KioskDay,
  KioskKeyView as KioskKey,
} from '../../functions/src/model/fleetViews';
export type {
  AdminRewardView as AdminReward,
  LedgerEntryView as LedgerEntry,
  RedemptionView as Redemption,
} from '../../functions/src/model/pointsViews';
export type { TransactionView as Transaction, UserView as UserProfile } from '../../functions/src/model/views';
export type { PartnerView as Partner } from '../../functions/src/model/partnerViews';
// Promotions (contract §16).
export type { AdminPromotionView as AdminPromotion } from '../../functions/src/model/promotionViews';
// Trust (contract §17).
export type { HoldView as Hold } from '../../functions/src/model/trustViews';

// Webhooks (contract §13): the API's own lists (a module with no import, so the bundle takes it as it is).
export { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from '../../functions/src/model/webhookEventTypes';
export type {
  NewWebhookView as NewWebhook,
  WebhookDeliveryView as WebhookDelivery,
  WebhookView as Webhook,
} from '../../functions/src/model/webhookViews';

/** A page of a cursor-paged list. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
