/**
 * The examples the API description shows of the shared views, typed by those views'
 * schemas (and checked against the document by test/unit/api-description.test.ts).
 * Plain data: routes import it at load.
 */
import type { AdminKioskView, AlertView } from '../../model/fleetViews';
import type { AdminRewardView, RedemptionView, RewardView } from '../../model/pointsViews';
import type { PartnerView, VoucherView } from '../../model/partnerViews';
import type { KioskView, TransactionView, UserView } from '../../model/views';
import type { NewWebhookView, WebhookDeliveryView, WebhookView } from '../../model/webhookViews';

export const kioskExample: KioskView = {
  id: 'berlin-alexanderplatz',
  name: 'Berlin Alexanderplatz',
  address: 'Alexanderplatz 1, 10178 Berlin, Germany',
  status: 'available',
  plasticCount: 1520,
  metalCount: 845,
  lastUpdated: '2026-11-23T09:30:00.000Z',
  location: { latitude: 52.521918, longitude: 13.413215 },
  openingHours: '24/7',
  timezone: 'Europe/Berlin',
  openNow: true,
  lastSeenAt: '2026-11-23T09:58:00.000Z',
  online: true,
};

export const userExample: UserView = {
  id: 'demo-alice',
  name: 'Alice Demo',
  currentPoints: 1250,
  totalPoints: 1250,
  recycledCount: 60,
  rank: 'Silver',
  hasPushToken: true,
  expiringPoints: { points: 400, expiresAt: '2027-01-01T00:00:00.000Z' },
  heldPoints: 0,
  suspended: false,
};

export const transactionExample: TransactionView = {
  id: '6f1d0c8e3b7a4d2f9e5c1a0b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e',
  userId: 'demo-alice',
  kioskId: 'berlin-alexanderplatz',
  plasticCount: 3,
  metalCount: 2,
  totalItems: 5,
  pointsEarned: 70,
  capped: false,
  newBalance: 1320,
  occurredAt: '2026-11-23T08:12:44.000Z',
  breakdown: [{ source: 'base', points: 70 }],
  status: 'awarded',
  holdReasons: [],
};

/** An anonymous deposit (§18), as its kiosk is told: no user yet, a code to claim it with. */
export const unclaimedTransactionExample: TransactionView = {
  ...transactionExample,
  userId: null,
  newBalance: null,
  status: 'unclaimed',
  claim: { code: '7K3QM9XWD2HT', expiresAt: '2026-12-23T08:12:44.000Z' },
};

export const rewardExample: RewardView = {
  id: 'coffee-voucher',
  name: 'Coffee at Kaffee Alex',
  description: 'One coffee of any size at Kaffee Alex, Alexanderplatz',
  cost: 500,
  kind: 'voucher',
  available: true,
  stock: 42,
};

export const redemptionExample: RedemptionView = {
  id: '3b9e0f7a1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6a7b8c9d0e1f2a3b',
  rewardId: 'coffee-voucher',
  rewardName: 'Coffee at Kaffee Alex',
  kind: 'voucher',
  cost: 500,
  code: '7KQ2M9XH4TZP',
  status: 'issued',
  createdAt: '2026-11-23T10:04:11.392Z',
  expiresAt: '2027-02-21T10:04:11.392Z',
  usedAt: null,
};

export const adminRewardExample: AdminRewardView = {
  ...rewardExample,
  active: true,
  partnerId: 'kaffee-alex',
  validDays: 90,
};

export const partnerExample: PartnerView = { id: 'kaffee-alex', name: 'Kaffee Alex' };

export const voucherExample: VoucherView = {
  code: redemptionExample.code!,
  rewardId: redemptionExample.rewardId,
  rewardName: redemptionExample.rewardName,
  status: 'issued',
  expiresAt: redemptionExample.expiresAt,
  usedAt: null,
};

export const adminKioskExample: AdminKioskView = {
  ...kioskExample,
  fillLevel: { plastic: 93, metal: 41 },
  firmwareVersion: '2.4.1',
  errorCode: null,
  openAlerts: ['bin-full'],
};

export const alertExample: AlertView = {
  id: 'Hq2f8Xk1sW0bZ3pL9aYc',
  kioskId: 'berlin-alexanderplatz',
  kind: 'bin-full',
  openedAt: '2026-11-23T09:41:12.000Z',
  resolvedAt: null,
  detail: 'Bin full: plastic 93% (alert at 90%)',
};

// Webhooks (contract §13).
export const webhookExample: WebhookView = {
  id: 'Wb7Tq2LmX9sK4pZc1aRd',
  url: 'https://crm.example.com/hooks/kiosk-rewards',
  events: ['transaction.awarded', 'redemption.issued'],
  description: 'CRM',
  active: true,
  partnerId: null,
  createdAt: '2026-11-23T08:00:00.000Z',
};

export const newWebhookExample: NewWebhookView = {
  ...webhookExample,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9ZbvBZ6b6Ik=',
};

export const deliveryExample: WebhookDeliveryView = {
  id: 'dlv_5d41402abc4b2a76b9719d911017c592',
  eventId: 'evt_7d793037a0760186574b0282f2f435e7',
  type: 'transaction.awarded',
  status: 'succeeded',
  createdAt: '2026-11-23T09:12:40.118Z',
  attempts: [
    { at: '2026-11-23T09:12:40.301Z', statusCode: 503, durationMs: 212, error: 'answered 503: busy' },
    { at: '2026-11-23T09:12:45.940Z', statusCode: 204, durationMs: 87, error: null },
  ],
};
