// The answers several routes share in their OpenAPI `doc`: one kiosk, one user, a push provider's refusals.
import type { UserView } from '../data/users';
import type { KioskView } from '../domain/kiosk';
import { kioskExample, kioskSchema, successBody, userExample, userSchema } from './components';
import type { ErrorResponse, SuccessResponse } from './types';

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

/** What the push provider refuses in a message (the 400 of the push routes, after their own rules). */
export const pushMessageRules =
  'a data key the push provider reserves, title, body and data over 4 KiB together (`invalid-argument`), or a ' +
  'message the push provider rejected (`push-message-rejected`)';

export const pushProviderUnavailable: ErrorResponse = {
  description: 'The push provider could not be reached; nothing was stored. Try again later',
  codes: ['push-provider-unavailable'],
};
