/**
 * The prose of the API description (GET /openapi.json): where the service runs, what
 * each group of operations is for, and the introduction a reader meets first.
 */
import type { ApiTag } from './operation';
import { MAX_BODY_BYTES, MAX_ID_LENGTH } from '../../model/limits';

/**
 * The base URLs of contract §0 (a deployed project, the emulator suite of `npm start`),
 * then the same through Firebase Hosting (§11: its `/api/**` rewrite).
 */
export const SERVERS = [
  {
    url: 'https://{region}-{project}.cloudfunctions.net/api',
    description: 'Deployed to a Firebase project',
    variables: {
      region: { default: 'us-central1', enum: ['us-central1'], description: 'The region the functions run in' },
      project: { default: 'kiosk-rewards-prod', description: 'Your Firebase project id' },
    },
  },
  {
    url: 'http://127.0.0.1:5001/demo-kiosk-rewards/us-central1/api',
    description: 'The local emulator suite (`npm start`)',
  },
  {
    url: 'https://{project}.web.app/api',
    description:
      "Through the project's Firebase Hosting site, which rewrites `/api/**` to the function (the operator " +
      'console calls the API so, from its own origin): every path under `/api` is the same operation',
    variables: { project: { default: 'kiosk-rewards-prod', description: 'Your Firebase project id' } },
  },
  {
    url: 'http://127.0.0.1:5000/api',
    description: 'The same through the Hosting emulator of the local suite (`npm start`)',
  },
];

export const TAG_DESCRIPTIONS: Record<ApiTag, string> = {
  Service: 'The service itself: is it up, and this description.',
  'Kiosk devices': 'What a kiosk sends, with its own API key in the `X-API-Key` header.',
  Kiosks: 'Kiosks as anyone sees them, e.g. on the map of the app. No credentials.',
  Users:
    "The app's signed-in user: points, rank and push registration. A Firebase ID token of that user (or of an admin).",
  'Sign-in': 'One-time codes by mail, for an app that signs users in with them.',
  Notifications: 'Pushes sent by operators. An admin ID token.',
  Rewards:
    'The catalog of rewards points buy (anyone may read it), redeeming one (the user, with an ' +
    '`Idempotency-Key`), and the catalog and cancellations for operators (an admin ID token).',
  Administration:
    'Kiosks and their API keys, the fleet (telemetry, alerts) and the daily reports, for operators. An admin ID ' +
    'token.',
  Partners:
    'Partners who honour vouchers: operators register them and issue their keys (an admin ID token); a partner ' +
    'checks and uses a voucher code with its own key (`X-API-Key`), and learns nothing about the user.',
  Promotions:
    'What a deposit is worth beyond its base: operators define promotions (multipliers, bonuses, budgets) and try ' +
    'them (an admin ID token); anyone may list the promotions on offer.',
};

export const INTRODUCTION = `
The backend of recycling kiosks that turn bottles and cans into reward points. Kiosks
report their status and submit transactions; apps read points and show kiosks on a
map; operators manage kiosks and send pushes.

## Credentials

| Caller | Header | Scheme |
|---|---|---|
| Kiosk | \`X-API-Key: <key>\`, a per-kiosk key an operator issues (revocable) | \`kioskApiKey\` |
| App user | \`Authorization: Bearer <Firebase ID token>\`; the user reaches their own data only | \`firebaseIdToken\` |
| Operator | the same, with the custom claim \`admin: true\` (the role \`admin\` below) | \`firebaseIdToken\` |

A missing or invalid credential is **401**; a valid one for something else (another
kiosk's key, another user's token, no admin claim) is **403**. When an ID token cannot
be checked at that moment (Google's keys or the Auth backend out of reach) the answer
is **503** with \`Retry-After\`: it says nothing about the token. An admin token of a
disabled account, or one issued before the account's tokens were revoked, is refused
at once; a user's own data honours such a token until it expires (at most 1 h).

## Errors

Every error is JSON: \`{ "error": "<a sentence for people>", "code": "<for programs>" }\`.
Each response below lists the codes it can carry. Besides each operation's own, every
operation can answer:

| Status | Code | When |
|---|---|---|
| 400 | \`invalid-argument\` | a path id, query parameter, header or body field that is not valid (the message names it), an unknown query parameter or body field, a body on an operation that takes none; JSON the hosting runtime cannot parse is refused by the runtime itself, as an HTML page |
| 413 | \`payload-too-large\` | a body over ${MAX_BODY_BYTES} bytes |
| 415 | \`unsupported-media-type\` | a body that is not \`application/json\` |
| 500 | \`internal\` | an unexpected failure; the body holds no internals |

A path that is no operation is **404** (\`not-found\`); a path that exists with another
method is **405** (\`method-not-allowed\`) with an \`Allow\` header listing the methods
it serves (components \`NoSuchEndpoint\` and \`MethodNotAllowed\`). \`HEAD\` is served
wherever \`GET\` is, and \`OPTIONS\` on every path answers 204 with \`Allow\` (and, for
the browser origins the service is configured with, the CORS headers). Path ids are
1-${MAX_ID_LENGTH} characters, without \`/\`, and not \`.\`, \`..\` or \`__…__\`.
Responses are never cached (\`Cache-Control: no-store\`).

## Retries

\`POST /kiosk/transaction\` takes an \`Idempotency-Key\` (each item of
\`POST /kiosk/transactions/batch\` carries its \`idempotencyKey\`): repeat a request
with the same key after a timeout or a lost connection, at any later time, and it is
answered as the first one was, never awarded twice. \`POST /user/{userId}/redemptions\`
requires one (keys are the user's): a spend is never made twice. A 429 or 503 says in
\`Retry-After\` when to try again.

## Versions

\`info.version\` is the API's version: \`1.x\` only ever adds (operations, optional
fields, response fields, error codes), so a client built from any \`1.x\` keeps working.

## Clients

This document is served at \`/openapi.json\`; generate a client from it, e.g.
\`npx openapi-typescript <base URL>/openapi.json -o kiosk-rewards.d.ts\` (TypeScript
types) or \`openapi-generator-cli generate -i <base URL>/openapi.json -g kotlin -o client\`
(any language openapi-generator supports).
`.trim();
