import { applyRedemptionEffects } from '../services/redemptionEffects';
import { claimThenActTrigger } from './claimThenAct';

/** onDocumentCreated("redemptions/{redemptionId}"): the in-app notification and the push, once. */
export const onRedemptionCreated = claimThenActTrigger('redemptionId', 'redemption_effects', applyRedemptionEffects);
