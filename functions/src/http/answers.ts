// The success answers several routes share in their OpenAPI `doc`: one kiosk, or one user.
import type { UserView } from '../data/users';
import type { KioskView } from '../domain/kiosk';
import { kioskExample, kioskSchema, successBody, userExample, userSchema } from './components';
import type { SuccessResponse } from './types';

/** `{ success, kiosk }`, with `kiosk` as its example (the shared one unless given). */
export const kioskAnswer = (description: string, kiosk: KioskView = kioskExample): SuccessResponse => ({
  description,
  schema: successBody({ kiosk: kioskSchema }),
  example: { success: true, kiosk },
});

/** `{ success, user }`, with `user` as its example (the shared one unless given). */
export const userAnswer = (description: string, user: UserView = userExample): SuccessResponse => ({
  description,
  schema: successBody({ user: userSchema }),
  example: { success: true, user },
});
