import type { PushTransport } from '../adapters/push';
import { voucherUsesCollection } from '../data/voucherUses';
import { voucherUsedNotification } from '../domain/messages';
import { tellOnce, type Claim } from './notifyOnce';

/** The notification of a use: not the redemption's own id, which its issue's notification has. */
export const voucherUsedNotificationId = (redemptionId: string) => `${redemptionId}-used`;

/**
 * What a user is told when a partner used their voucher: the in-app notification
 * (`type: "voucher-used"`) and a push when they have a device token, exactly once
 * however often the trigger (or the sweep) runs: claim-then-act on the use's
 * `effects` (services/notifyOnce.ts).
 */
export async function applyVoucherUseEffects(redemptionId: string, push: PushTransport): Promise<Claim['state']> {
  return tellOnce(
    voucherUsesCollection().doc(redemptionId),
    'voucherUse',
    (use) => ({
      notificationId: voucherUsedNotificationId(redemptionId),
      type: 'voucher-used',
      content: voucherUsedNotification({ redemptionId, rewardName: use.rewardName, usedAt: use.usedAt.toDate() }),
    }),
    push,
  );
}
