import { applyHoldDecisionEffects } from '../services/holds';
import { claimThenActTrigger } from './claimThenAct';

/** onDocumentCreated("holdDecisions/{transactionId}"): the user's notification and push of a release or rejection, once. */
export const onHoldDecided = claimThenActTrigger('transactionId', 'hold_decision_effects', applyHoldDecisionEffects);
