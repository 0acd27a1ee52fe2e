import { applyVoucherUseEffects } from '../services/voucherUseEffects';
import { claimThenActTrigger } from './claimThenAct';

/** onDocumentCreated("voucherUses/{redemptionId}"): the user's notification and push of a use, once. */
export const onVoucherUsed = claimThenActTrigger('redemptionId', 'voucher_use_effects', applyVoucherUseEffects);
