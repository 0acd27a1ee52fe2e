/** The schemas the API description (openapi.ts) names as components. */
import {
  errorSchema,
  kioskSchema,
  nearbyKioskSchema,
  pushResponseSchema,
  transactionSchema,
  userSchema,
} from './components';
import { adminKioskSchema, alertSchema, kioskDaySchema } from './fleetComponents';
import { adminRewardSchema, redeemedFromSchema, redemptionSchema, rewardSchema } from './rewardComponents';
import type { JsonSchema } from './types';

/** By the name the API description gives them. */
export const componentSchemas: Readonly<Record<string, JsonSchema>> = {
  // Not "Error" or "ApiError": client generators keep those names for their own types.
  ErrorBody: errorSchema,
  Kiosk: kioskSchema,
  NearbyKiosk: nearbyKioskSchema,
  User: userSchema,
  Transaction: transactionSchema,
  PushResponse: pushResponseSchema,
  KioskDay: kioskDaySchema,
  AdminKiosk: adminKioskSchema,
  Alert: alertSchema,
  Reward: rewardSchema,
  AdminReward: adminRewardSchema,
  Redemption: redemptionSchema,
  RedeemedFrom: redeemedFromSchema,
};
