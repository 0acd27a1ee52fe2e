import { FieldValue } from 'firebase-admin/firestore';
import type { PushTransport } from '../adapters/push';
import { effectsSettled } from '../data/pendingEffects';
import { redemptionsCollection } from '../data/redemptions';
import { redemptionNotification } from '../domain/messages';
import { tellOnce, type Claim } from './notifyOnce';

/**
 * What a user is told of a redemption: the in-app notification (its id is the
 * redemption's) and a push when they have a device token, exactly once however often
 * the trigger runs: claim-then-act on the redemption's `effects` (services/notifyOnce.ts).
 * A redemption cancelled before anything was told is not announced at all: its
 * `effects` record that (`untold: "cancelled"`) as their final state.
 */
export async function applyRedemptionEffects(redemptionId: string, push: PushTransport): Promise<Claim['state']> {
  const redemptionRef = redemptionsCollection().doc(redemptionId);
  return tellOnce(
    redemptionRef,
    'redemption',
    (redemption, tx) => {
      if (
        redemption.status === 'cancelled' &&
        redemption.effects?.notificationId === undefined &&
        redemption.effects?.push === undefined
      ) {
        tx.update(redemptionRef, {
          'effects.untold': 'cancelled',
          'effects.completedAt': FieldValue.serverTimestamp(),
          ...effectsSettled(),
        });
        return { state: 'completed-now' };
      }
      return {
        notificationId: redemptionId,
        type: 'redemption',
        content: redemptionNotification({
          id: redemptionId,
          rewardName: redemption.rewardName,
          cost: redemption.cost,
          code: redemption.code ?? null,
          newBalance: redemption.balanceAfter,
        }),
      };
    },
    push,
  );
}
