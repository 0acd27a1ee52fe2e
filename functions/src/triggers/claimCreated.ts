import { applyTransactionEffects } from '../services/transactionEffects';
import { claimThenActTrigger } from './claimThenAct';

/**
 * onDocumentCreated("claims/{transactionId}"): a claimed anonymous deposit (§18) is
 * told to its claimer, the notification and the push, as any deposit's (the kiosk
 * counted it when it was recorded).
 */
export const onClaimCreated = claimThenActTrigger('transactionId', 'claim_effects', applyTransactionEffects);
