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
import type {
  AdminKioskView,
  AlertView,
  KioskDayRow,
  KioskKeyView,
} from '../../functions/src/http/apiDescription/fleetViews';
import type {
  AdminRewardView,
  LedgerEntryView,
  RedemptionView,
} from '../../functions/src/http/apiDescription/pointsViews';
import type { UserView } from '../../functions/src/http/apiDescription/views';
import type {
  NewWebhookView,
  WebhookDeliveryView,
  WebhookView,
} from '../../functions/src/http/apiDescription/webhookViews';
import type { PartnerView } from '../../functions/src/http/apiDescription/partnerViews';

export type AdminKiosk = AdminKioskView;
export type KioskKey = KioskKeyView;
export type Alert = AlertView;
export type KioskDay = KioskDayRow;
export type AdminReward = AdminRewardView;
export type UserProfile = UserView;
export type LedgerEntry = LedgerEntryView;
export type Redemption = RedemptionView;
export type Partner = PartnerView;

// Webhooks (contract §13): the API's own lists (a module with no import, so the bundle takes it as it is).
export { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from '../../functions/src/domain/webhookEventTypes';
export type Webhook = WebhookView;
export type NewWebhook = NewWebhookView;
export type WebhookDelivery = WebhookDeliveryView;

/** A page of a cursor-paged list. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
