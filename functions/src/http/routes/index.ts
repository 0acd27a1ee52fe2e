import type { AnyRoute } from '../types';
import { adjustUserRoute } from './adjustUser';
import { createKioskKeyRoute, createPartnerKeyRoute, revokeKioskKeyRoute, revokePartnerKeyRoute } from './apiKeyRoutes';
import { listAlertsRoute } from './listAlerts';
import { listFleetRoute } from './listFleet';
import { getKioskRoute } from './getKiosk';
import { getUserRoute } from './getUser';
import { userHistoryRoute } from './userHistory';
import { healthRoute } from './health';
import { kioskDaysReportRoute } from './kioskDaysReport';
import { listKiosksRoute } from './listKiosks';
import { notifyTopicRoute } from './notifyTopic';
import { notifyUserRoute } from './notifyUser';
import { openApiRoute } from './openApi';
import { deletePushTokenRoute } from './deletePushToken';
import { putPushTokenRoute } from './putPushToken';
import { sendOtpEmailRoute } from './sendOtpEmail';
import { submitTransactionRoute } from './submitTransaction';
import { submitTransactionBatchRoute } from './submitTransactionBatch';
import { updateKioskStatusRoute } from './updateKioskStatus';
import { upsertKioskRoute } from './upsertKiosk';
import { listRewardsRoute } from './listRewards';
import { upsertRewardRoute } from './upsertReward';
import { redeemRewardRoute } from './redeemReward';
import { userRedemptionsRoute } from './userRedemptions';
import { cancelRedemptionRoute } from './cancelRedemption';
import { findUsersRoute } from './findUsers';
import { listAdminRewardsRoute } from './listAdminRewards';
import { listKioskKeysRoute } from './listKioskKeys';
// Webhooks (contract §13).
import { createWebhookRoute } from './createWebhook';
import { deleteWebhookRoute } from './deleteWebhook';
import { listWebhookDeliveriesRoute } from './listWebhookDeliveries';
import { listWebhooksRoute } from './listWebhooks';
import { retryWebhookDeliveryRoute } from './retryWebhookDelivery';
import { rotateWebhookSecretRoute } from './rotateWebhookSecret';
// Partners and vouchers (§12)
import { upsertPartnerRoute } from './upsertPartner';
import { listPartnersRoute } from './listPartners';
import { listPartnerKeysRoute } from './listPartnerKeys';
import { checkVoucherRoute } from './checkVoucher';
import { useVoucherRoute } from './useVoucher';
// A person's data (contract §15).
import { exportUserRoute } from './exportUser';
import { eraseUserRoute } from './eraseUser';
// Promotions (contract §16).
import { upsertPromotionRoute } from './upsertPromotion';
import { listPromotionsRoute } from './listPromotions';
import { simulatePromotionsRoute } from './simulatePromotions';
import { listPublicPromotionsRoute } from './listPublicPromotions';
// Claim codes (contract §18).
import { claimDepositRoute } from './claimDeposit';
import { kioskUnclaimedRoute } from './kioskUnclaimed';

/** Every endpoint of the `api` function. */
export const routes: AnyRoute[] = [
  healthRoute,
  openApiRoute(() => routes),
  submitTransactionRoute,
  submitTransactionBatchRoute,
  updateKioskStatusRoute,
  getKioskRoute,
  listKiosksRoute,
  getUserRoute,
  userHistoryRoute,
  putPushTokenRoute,
  deletePushTokenRoute,
  notifyTopicRoute,
  notifyUserRoute,
  sendOtpEmailRoute,
  upsertKioskRoute,
  createKioskKeyRoute,
  listKioskKeysRoute,
  revokeKioskKeyRoute,
  kioskDaysReportRoute,
  listFleetRoute,
  listAlertsRoute,
  findUsersRoute,
  adjustUserRoute,
  listRewardsRoute,
  redeemRewardRoute,
  userRedemptionsRoute,
  upsertRewardRoute,
  listAdminRewardsRoute,
  cancelRedemptionRoute,
  // Webhooks (contract §13).
  createWebhookRoute,
  listWebhooksRoute,
  deleteWebhookRoute,
  rotateWebhookSecretRoute,
  listWebhookDeliveriesRoute,
  retryWebhookDeliveryRoute,
  // Partners and vouchers (§12)
  upsertPartnerRoute,
  listPartnersRoute,
  createPartnerKeyRoute,
  listPartnerKeysRoute,
  revokePartnerKeyRoute,
  checkVoucherRoute,
  useVoucherRoute,
  // A person's data (contract §15).
  exportUserRoute,
  eraseUserRoute,
  // Promotions (contract §16).
  upsertPromotionRoute,
  listPromotionsRoute,
  simulatePromotionsRoute,
  listPublicPromotionsRoute,
  // Claim codes (contract §18).
  claimDepositRoute,
  kioskUnclaimedRoute,
];
