/**
 * Webhooks (contract §13) in TypeBox: a webhook and its deliveries as operators see
 * them, and the body of each event type (`{ type, timestamp, data }`, `data` being the
 * API's own view of the thing, with the user's id where that view lacks it). The API
 * description states the bodies as its OpenAPI 3.1 `webhooks`, one per event type.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { closedObject, id, nullable, stringEnum } from './fields';
import { Alert } from './fleetViews';
import { Adjustment, LedgerEntry, Redemption } from './pointsViews';
import { Transaction } from './views';
import { Hold } from './trustViews';
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhookEventTypes';

export const webhookEventType = stringEnum(WEBHOOK_EVENT_TYPES);

const webhookFields = {
  id,
  url: Type.String({ format: 'uri', description: 'Where the events are POSTed (https)' }),
  events: Type.Array(webhookEventType, { minItems: 1, description: 'The event types it takes' }),
  description: Type.String(),
  active: Type.Boolean({ description: 'Events are delivered to it' }),
  partnerId: nullable({
    ...id,
    description:
      "A partner's webhook: it takes only `redemption.used` and `redemption.cancelled` of that partner's " +
      "rewards, without the user's id; null: the operator's, every event it names",
  }),
  createdAt: Type.String({ format: 'date-time', description: 'ISO 8601 UTC' }),
};

export const Webhook = closedObject(webhookFields, {
  $id: 'Webhook',
  description: 'A registered webhook, as listed: never its secret.',
});
export type WebhookView = Static<typeof Webhook>;

export const webhookSecret = Type.String({
  pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
  description:
    '`whsec_` + base64 of 32 random bytes: the Standard Webhooks signing key. Shown only when the webhook is ' +
    'registered and when the secret is rotated; store it now',
});

/** The webhook with its secret: what registering it answers. */
export const NewWebhook = closedObject({ ...webhookFields, secret: webhookSecret });
export type NewWebhookView = Static<typeof NewWebhook>;

export const DeliveryAttempt = closedObject({
  at: Type.String({ format: 'date-time', description: 'When the attempt started, ISO 8601 UTC' }),
  statusCode: nullable(Type.Integer({ description: "The receiver's HTTP status; null: no answer" })),
  durationMs: Type.Integer({ minimum: 0 }),
  error: nullable(
    Type.String({
      description: 'Why it failed (a network error, the timeout, a refused address, a status); null: 2xx',
    }),
  ),
});

export const WebhookDelivery = closedObject(
  {
    id,
    eventId: Type.String({ description: "The event's id: the `webhook-id` header of every attempt" }),
    type: webhookEventType,
    status: stringEnum(DELIVERY_STATUSES, {
      description:
        '`pending`: being tried (retries follow WEBHOOK_RETRY_SECONDS); `succeeded`: a 2xx; `failed`: given up',
    }),
    createdAt: Type.String({ format: 'date-time', description: 'ISO 8601 UTC' }),
    attempts: Type.Array(DeliveryAttempt, { description: 'Every attempt, oldest first' }),
  },
  { $id: 'WebhookDelivery', description: 'One event sent to one webhook, with its attempts.' },
);
export type WebhookDeliveryView = Static<typeof WebhookDelivery>;

const userId = { ...id, description: "The user's id" };

/** A redemption's properties but its voucher code: an event never carries a code. */
const { code: _code, ...redemptionWithoutCode } = Redemption.properties;

/** A redemption as its events carry it: the API's view without the code, and whose it is. */
export const RedemptionEventData = closedObject(
  {
    ...redemptionWithoutCode,
    userId: Type.Optional({ ...userId, description: "The user's id; absent in a partner's webhook" }),
  },
  {
    description:
      "The redemption as the API shows it, never with its voucher code, with the id of its user (not to a partner's webhook)",
  },
);
export type RedemptionEventDataView = Static<typeof RedemptionEventData>;

export const AdjustmentEventData = closedObject(
  { ...Adjustment.properties, userId },
  { description: 'The adjustment as the API answers it, with the id of its user' },
);
export type AdjustmentEventDataView = Static<typeof AdjustmentEventData>;

export const LedgerEntryEventData = closedObject(
  { ...LedgerEntry.properties, userId },
  { description: 'The history entry as the API shows it, with the id of its user' },
);
export type LedgerEntryEventDataView = Static<typeof LedgerEntryEventData>;

/** The `data` of each event type, and what happened, for the API description. */
export const EVENT_DATA: Record<WebhookEventType, { data: TSchema; summary: string }> = {
  'transaction.awarded': { data: Transaction, summary: 'A deposit was recorded and its points awarded' },
  'redemption.issued': { data: RedemptionEventData, summary: 'A user redeemed a reward' },
  'redemption.used': { data: RedemptionEventData, summary: "A partner used a redemption's voucher" },
  'redemption.cancelled': {
    data: RedemptionEventData,
    summary: 'An operator cancelled a redemption (points refunded)',
  },
  'points.adjusted': { data: AdjustmentEventData, summary: "An operator adjusted a user's points" },
  'points.expired': { data: LedgerEntryEventData, summary: "Some of a user's points expired (its `expire` entry)" },
  'alert.opened': { data: Alert, summary: 'An alert opened on a kiosk' },
  'alert.resolved': { data: Alert, summary: "A kiosk's alert was resolved" },
  // Trust (contract §17).
  'points.held': { data: Hold, summary: "A deposit was recorded and its points held for an operator's review" },
  'points.released': { data: Hold, summary: "An operator released a deposit's held points: they are credited" },
  'points.rejected': { data: Hold, summary: "An operator rejected a deposit's held points: they are never credited" },
};

/** The body POSTed for an event of `type`. */
export const webhookEventBody = (type: WebhookEventType) =>
  closedObject(
    {
      type: Type.Literal(type),
      timestamp: Type.String({ format: 'date-time', description: 'When it happened, ISO 8601 UTC' }),
      data: EVENT_DATA[type].data,
    },
    { description: EVENT_DATA[type].summary },
  );
