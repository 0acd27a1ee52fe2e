import type { AnyRoute, LazyRoute, RouteEntry } from '../types';
import { openApiRoute } from './openApi';

/**
 * A route's entry in the table: what the router matches (method and path), and the route's module, required the first
 * time the route is called. An instance thus loads at cold start none of the ~40 route modules and the services and
 * data modules behind them (~20 ms), and later only those of the routes it serves (docs/performance.md, "Cold start").
 * The route's own method and path must be these (test/unit/api-description.test.ts).
 */
function lazy(method: LazyRoute['method'], path: string, load: () => AnyRoute): LazyRoute {
  let route: AnyRoute | undefined;
  return { method, path, load: () => (route ??= load()) };
}

/** A table entry's route, its module loaded if it was not. */
export const loadRoute = (entry: RouteEntry): AnyRoute => ('load' in entry ? entry.load() : entry);

/** Every route, each module loaded: what the API description is built from. */
export const allRoutes = (): AnyRoute[] => routeTable.map(loadRoute);

/**
 * Every endpoint of the `api` function, one entry each. A route imported above and listed as it is also works; it is
 * then loaded at cold start.
 */
export const routeTable: RouteEntry[] = [
  lazy('GET', '/', () => (require('./health') as typeof import('./health')).healthRoute),
  openApiRoute(allRoutes),
  lazy(
    'POST',
    '/kiosk/transaction',
    () => (require('./submitTransaction') as typeof import('./submitTransaction')).submitTransactionRoute,
  ),
  lazy(
    'POST',
    '/kiosk/transactions/batch',
    () =>
      (require('./submitTransactionBatch') as typeof import('./submitTransactionBatch')).submitTransactionBatchRoute,
  ),
  lazy(
    'POST',
    '/kiosk/:kioskId/status',
    () => (require('./updateKioskStatus') as typeof import('./updateKioskStatus')).updateKioskStatusRoute,
  ),
  lazy('GET', '/kiosk/:kioskId', () => (require('./getKiosk') as typeof import('./getKiosk')).getKioskRoute),
  lazy('GET', '/kiosks', () => (require('./listKiosks') as typeof import('./listKiosks')).listKiosksRoute),
  lazy('GET', '/user/:userId', () => (require('./getUser') as typeof import('./getUser')).getUserRoute),
  lazy(
    'GET',
    '/user/:userId/history',
    () => (require('./userHistory') as typeof import('./userHistory')).userHistoryRoute,
  ),
  lazy(
    'PUT',
    '/user/:userId/push-token',
    () => (require('./putPushToken') as typeof import('./putPushToken')).putPushTokenRoute,
  ),
  lazy(
    'DELETE',
    '/user/:userId/push-token',
    () => (require('./deletePushToken') as typeof import('./deletePushToken')).deletePushTokenRoute,
  ),
  lazy('POST', '/notify/topic', () => (require('./notifyTopic') as typeof import('./notifyTopic')).notifyTopicRoute),
  lazy('POST', '/notify/user', () => (require('./notifyUser') as typeof import('./notifyUser')).notifyUserRoute),
  lazy(
    'POST',
    '/send-otp-email',
    () => (require('./sendOtpEmail') as typeof import('./sendOtpEmail')).sendOtpEmailRoute,
  ),
  lazy('POST', '/admin/kiosks', () => (require('./upsertKiosk') as typeof import('./upsertKiosk')).upsertKioskRoute),
  lazy(
    'POST',
    '/admin/kiosks/:kioskId/keys',
    () => (require('./apiKeyRoutes') as typeof import('./apiKeyRoutes')).createKioskKeyRoute,
  ),
  lazy(
    'GET',
    '/admin/kiosks/:kioskId/keys',
    () => (require('./listKioskKeys') as typeof import('./listKioskKeys')).listKioskKeysRoute,
  ),
  lazy(
    'DELETE',
    '/admin/kiosks/:kioskId/keys/:keyId',
    () => (require('./apiKeyRoutes') as typeof import('./apiKeyRoutes')).revokeKioskKeyRoute,
  ),
  lazy(
    'GET',
    '/admin/reports/kiosk-days',
    () => (require('./kioskDaysReport') as typeof import('./kioskDaysReport')).kioskDaysReportRoute,
  ),
  lazy('GET', '/admin/kiosks', () => (require('./listFleet') as typeof import('./listFleet')).listFleetRoute),
  lazy('GET', '/admin/alerts', () => (require('./listAlerts') as typeof import('./listAlerts')).listAlertsRoute),
  lazy('GET', '/admin/users', () => (require('./findUsers') as typeof import('./findUsers')).findUsersRoute),
  lazy(
    'POST',
    '/admin/users/:userId/adjustments',
    () => (require('./adjustUser') as typeof import('./adjustUser')).adjustUserRoute,
  ),
  lazy('GET', '/rewards', () => (require('./listRewards') as typeof import('./listRewards')).listRewardsRoute),
  lazy(
    'POST',
    '/user/:userId/redemptions',
    () => (require('./redeemReward') as typeof import('./redeemReward')).redeemRewardRoute,
  ),
  lazy(
    'GET',
    '/user/:userId/redemptions',
    () => (require('./userRedemptions') as typeof import('./userRedemptions')).userRedemptionsRoute,
  ),
  lazy(
    'POST',
    '/admin/rewards',
    () => (require('./upsertReward') as typeof import('./upsertReward')).upsertRewardRoute,
  ),
  lazy(
    'GET',
    '/admin/rewards',
    () => (require('./listAdminRewards') as typeof import('./listAdminRewards')).listAdminRewardsRoute,
  ),
  lazy(
    'POST',
    '/admin/redemptions/:redemptionId/cancel',
    () => (require('./cancelRedemption') as typeof import('./cancelRedemption')).cancelRedemptionRoute,
  ),
  // Webhooks (contract §13).
  lazy(
    'POST',
    '/admin/webhooks',
    () => (require('./createWebhook') as typeof import('./createWebhook')).createWebhookRoute,
  ),
  lazy(
    'GET',
    '/admin/webhooks',
    () => (require('./listWebhooks') as typeof import('./listWebhooks')).listWebhooksRoute,
  ),
  lazy(
    'DELETE',
    '/admin/webhooks/:webhookId',
    () => (require('./deleteWebhook') as typeof import('./deleteWebhook')).deleteWebhookRoute,
  ),
  lazy(
    'POST',
    '/admin/webhooks/:webhookId/rotate-secret',
    () => (require('./rotateWebhookSecret') as typeof import('./rotateWebhookSecret')).rotateWebhookSecretRoute,
  ),
  lazy(
    'GET',
    '/admin/webhooks/:webhookId/deliveries',
    () => (require('./listWebhookDeliveries') as typeof import('./listWebhookDeliveries')).listWebhookDeliveriesRoute,
  ),
  lazy(
    'POST',
    '/admin/webhooks/:webhookId/deliveries/:deliveryId/retry',
    () => (require('./retryWebhookDelivery') as typeof import('./retryWebhookDelivery')).retryWebhookDeliveryRoute,
  ),
  // Partners and vouchers (§12)
  lazy(
    'POST',
    '/admin/partners',
    () => (require('./upsertPartner') as typeof import('./upsertPartner')).upsertPartnerRoute,
  ),
  lazy(
    'GET',
    '/admin/partners',
    () => (require('./listPartners') as typeof import('./listPartners')).listPartnersRoute,
  ),
  lazy(
    'POST',
    '/admin/partners/:partnerId/keys',
    () => (require('./apiKeyRoutes') as typeof import('./apiKeyRoutes')).createPartnerKeyRoute,
  ),
  lazy(
    'GET',
    '/admin/partners/:partnerId/keys',
    () => (require('./listPartnerKeys') as typeof import('./listPartnerKeys')).listPartnerKeysRoute,
  ),
  lazy(
    'DELETE',
    '/admin/partners/:partnerId/keys/:keyId',
    () => (require('./apiKeyRoutes') as typeof import('./apiKeyRoutes')).revokePartnerKeyRoute,
  ),
  lazy(
    'GET',
    '/partner/vouchers/:code',
    () => (require('./checkVoucher') as typeof import('./checkVoucher')).checkVoucherRoute,
  ),
  lazy(
    'POST',
    '/partner/vouchers/:code/use',
    () => (require('./useVoucher') as typeof import('./useVoucher')).useVoucherRoute,
  ),
  // A person's data (contract §15).
  lazy('GET', '/user/:userId/export', () => (require('./exportUser') as typeof import('./exportUser')).exportUserRoute),
  lazy('DELETE', '/user/:userId', () => (require('./eraseUser') as typeof import('./eraseUser')).eraseUserRoute),
  // Promotions (contract §16).
  lazy(
    'POST',
    '/admin/promotions',
    () => (require('./upsertPromotion') as typeof import('./upsertPromotion')).upsertPromotionRoute,
  ),
  lazy(
    'GET',
    '/admin/promotions',
    () => (require('./listPromotions') as typeof import('./listPromotions')).listPromotionsRoute,
  ),
  lazy(
    'POST',
    '/admin/promotions/simulate',
    () => (require('./simulatePromotions') as typeof import('./simulatePromotions')).simulatePromotionsRoute,
  ),
  lazy(
    'GET',
    '/promotions',
    () => (require('./listPublicPromotions') as typeof import('./listPublicPromotions')).listPublicPromotionsRoute,
  ),
  // Trust (contract §17).
  lazy('GET', '/admin/holds', () => (require('./holdRoutes') as typeof import('./holdRoutes')).listHoldsRoute),
  lazy(
    'POST',
    '/admin/holds/:transactionId/release',
    () => (require('./holdRoutes') as typeof import('./holdRoutes')).releaseHoldRoute,
  ),
  lazy(
    'POST',
    '/admin/holds/:transactionId/reject',
    () => (require('./holdRoutes') as typeof import('./holdRoutes')).rejectHoldRoute,
  ),
  lazy(
    'POST',
    '/admin/users/:userId/suspend',
    () => (require('./suspensionRoutes') as typeof import('./suspensionRoutes')).suspendUserRoute,
  ),
  lazy(
    'POST',
    '/admin/users/:userId/unsuspend',
    () => (require('./suspensionRoutes') as typeof import('./suspensionRoutes')).unsuspendUserRoute,
  ),
  lazy(
    'POST',
    '/admin/alerts/:alertId/resolve',
    () => (require('./resolveAlert') as typeof import('./resolveAlert')).resolveAlertRoute,
  ),
  // Claim codes (contract §18).
  lazy(
    'POST',
    '/user/:userId/claims',
    () => (require('./claimDeposit') as typeof import('./claimDeposit')).claimDepositRoute,
  ),
  lazy(
    'GET',
    '/admin/kiosks/:kioskId/unclaimed',
    () => (require('./kioskUnclaimed') as typeof import('./kioskUnclaimed')).kioskUnclaimedRoute,
  ),
];
