import { applyTransactionEffects } from '../services/transactionEffects';
import { claimThenActTrigger } from './claimThenAct';

/** onDocumentCreated("transactions/{transactionId}"): kiosk counters and daily figures, in-app notification, push. */
export const onTransactionCreated = claimThenActTrigger(
  'transactionId',
  'transaction_effects',
  applyTransactionEffects,
);
