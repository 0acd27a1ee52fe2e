// The answers routes share in their OpenAPI `doc`: a view or a list of views, overload, a push provider's refusals.
import type { ErrorResponse, SchemaName, SuccessResponse } from './operation';
import { kioskExample, userExample } from './examples';
import type { KioskView, UserView } from '../../model/views';

/**
 * `{ success, [field]: one of the API's views }`, e.g. `{ success, partner: Partner }`, or a list of them when
 * the view is in brackets (`['Partner']`: `{ success, partners: Partner[] }`), with `example` as its example.
 */
export const answerWith = (
  description: string,
  field: string,
  view: SchemaName | [SchemaName],
  example: unknown,
): SuccessResponse => ({
  description,
  schema: (kit) => kit.successBody({ [field]: typeof view === 'string' ? kit[view] : kit.Type.Array(kit[view[0]]) }),
  example: { success: true, [field]: example },
});

/** `{ success, kiosk }`, with `kiosk` as its example (the shared one unless given). */
export const kioskAnswer = (description: string, kiosk: KioskView = kioskExample): SuccessResponse =>
  answerWith(description, 'kiosk', 'Kiosk', kiosk);

/** `{ success, user }`, with `user` as its example (the shared one unless given). */
export const userAnswer = (description: string, user: UserView = userExample): SuccessResponse =>
  answerWith(description, 'user', 'User', user);

/** `{ success: true }` alone: the answer of a route that did what it was asked and has nothing to tell. */
export const doneAnswer = (description: string): SuccessResponse => ({
  description,
  schema: ({ successBody }) => successBody({}),
  example: { success: true },
});

/**
 * What a route that writes answers when contention on what it writes (a burst on one
 * user, one reward, one kiosk) did not clear in time: errors.ts' `overloaded`.
 */
export const overloadedAnswer: ErrorResponse = {
  description:
    'The service is overloaded: what this request writes was contended for too long. Nothing was written; send ' +
    'the request again as it is after `Retry-After` seconds',
  codes: ['overloaded'],
  headers: ['Retry-After'],
};

/** The 401 of the routes that destroy or hand out a person's data (DELETE /user/{id}, its export). */
export const recentSignInAnswer: ErrorResponse = {
  description:
    "The user's own token is revoked, or its sign-in is more than 5 minutes old: sign in again " +
    "(`recent-sign-in-required`; an admin's token needs no recent sign-in)",
  codes: ['recent-sign-in-required'],
};

/** What the push provider refuses in a message (the 400 of the push routes, after their own rules). */
export const pushMessageRules =
  'a data key the push provider reserves, title, body and data over 4 KiB together (`invalid-argument`), or a ' +
  'message the push provider rejected (`push-message-rejected`)';

export const pushProviderUnavailable: ErrorResponse = {
  description: 'The push provider could not be reached; nothing was stored. Try again later',
  codes: ['push-provider-unavailable'],
};
