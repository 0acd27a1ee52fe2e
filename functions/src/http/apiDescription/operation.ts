/**
 * What a route says of itself for the API description (its `doc`, its query
 * parameters' and answers' schemas), and the kit those schemas are built from. Types
 * only, but for the tags' order: route modules load nothing of TypeBox through it.
 */
import type { TProperties, TSchema, Type } from '@sinclair/typebox';
import type { ErrorCode } from '../../errors';

/** TypeBox and the schemas the API's answers are built from (this folder), as the document builder hands them over. */
export type SchemaKit = { Type: typeof Type } & typeof import('../../model/fields') &
  typeof import('../../model/views') &
  typeof import('../../model/fleetViews') &
  typeof import('../../model/pointsViews') &
  typeof import('../../model/webhookViews') &
  typeof import('../../model/partnerViews') &
  typeof import('../../model/promotionViews') &
  typeof import('../../model/trustViews');

/**
 * A schema a route declares beside its handler, built from the kit when the API
 * description is: a route module loads no TypeBox (never at cold start).
 */
export type SchemaOf = (kit: SchemaKit) => TSchema;

/** The kit's schemas by name, e.g. 'Redemption'. */
export type SchemaName = { [name in keyof SchemaKit]: SchemaKit[name] extends TSchema ? name : never }[keyof SchemaKit];

/** Who may call a route: what its `authenticate` demands (unit-tested against it). */
export type Access = 'public' | 'kiosk' | 'user' | 'admin' | 'partner';

/** The groups of the API description, in the order a reader meets them. */
export const API_TAGS = [
  'Service',
  'Kiosk devices',
  'Kiosks',
  'Users',
  'Sign-in',
  'Notifications',
  'Rewards',
  'Administration',
  'Partners',
  'Promotions',
] as const;
export type ApiTag = (typeof API_TAGS)[number];

/** Response headers that carry meaning (the API description's components.headers). */
export type ResponseHeader = 'Idempotent-Replayed' | 'Retry-After';

export interface SuccessResponse {
  description: string;
  /** The body; shared parts are the views of http/apiDescription/. */
  schema: SchemaOf;
  example: Record<string, unknown>;
  headers?: readonly ResponseHeader[];
  /** The same answer as text, for a request that asks for it (e.g. `format=csv`). */
  text?: { mediaType: 'text/csv'; description: string; example: string };
}

/** An error answer: always `{ error, code }`, with one of these codes. */
export interface ErrorResponse {
  description: string;
  codes: readonly ErrorCode[];
  headers?: readonly ResponseHeader[];
  /** Properties the body has beside `error` and `code` (errors.ts' `details.fields`). */
  fields?: (kit: SchemaKit) => TProperties;
}

export type SuccessStatus = 200 | 201;
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 502 | 503;

/**
 * What the API description (GET /openapi.json) says of a route. The answers every
 * route shares (credentials, protocol errors) are added by http/apiDescription/openapi.ts; a route
 * states its own.
 */
export interface OperationDescription<Body> {
  operationId: string;
  summary: string;
  description: string;
  tag: ApiTag;
  access: Access;
  /** Request headers the route reads, besides credentials. */
  headers?: readonly 'Idempotency-Key'[];
  /** The route refuses a request without `Idempotency-Key` (400): a spend must be safe to retry. */
  idempotencyKeyRequired?: true;
  /** A body the route accepts; every route with a body schema has one (unit-tested). */
  example?: Body;
  responses: { [status in SuccessStatus]?: SuccessResponse } & { [status in ErrorStatus]?: ErrorResponse };
}

export interface QueryParameter {
  description: string;
  schema: SchemaOf;
  required?: true;
  /** An array sent as one comma-separated value, e.g. `near=52.52,13.41` (OpenAPI's `form` style, not exploded). */
  explode?: false;
}
