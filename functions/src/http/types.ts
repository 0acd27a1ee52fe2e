import type { IncomingHttpHeaders } from 'node:http';
import type { TSchema, Type } from '@sinclair/typebox';
import type { ErrorCode } from '../errors';
import type { BodySchemaName } from './apiDescription/requestBodies';

/** What a route handler sees: the parsed request, free of express. */
export interface ApiRequest<Body = unknown, Caller = undefined> {
  method: string;
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: Body;
  /** Who is calling, as established by the route's `authenticate`. */
  caller: Caller;
  /** The client address as the hosting front end reports it. */
  clientIp: string;
}

export interface ApiResponse {
  status?: number;
  headers?: Record<string, string>;
  body: Record<string, unknown>;
  /** Sent instead of `body` (then `{}`): text of its own Content-Type, e.g. a report as CSV. */
  text?: { contentType: string; content: string };
}

/** TypeBox and the schemas the API's answers are built from (http/apiDescription/), as the document builder hands them over. */
export type SchemaKit = { Type: typeof Type } & typeof import('./apiDescription/fields') &
  typeof import('./apiDescription/views') &
  typeof import('./apiDescription/fleetViews') &
  typeof import('./apiDescription/pointsViews');

/**
 * A schema a route declares beside its handler, built from the kit when the API
 * description is: a route module loads no TypeBox (never at cold start).
 */
export type SchemaOf = (kit: SchemaKit) => TSchema;

/** The kit's schemas by name, e.g. 'Redemption'. */
export type SchemaName = { [name in keyof SchemaKit]: SchemaKit[name] extends TSchema ? name : never }[keyof SchemaKit];

/** Who may call a route: what its `authenticate` demands (unit-tested against it). */
export type Access = 'public' | 'kiosk' | 'user' | 'admin';

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

export interface Route<Body = unknown, Caller = undefined> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Segments starting with ":" are path ids, e.g. "/kiosk/:kioskId/status". */
  path: string;
  /** Runs before the body is read, so a caller without credentials learns nothing about the body rules. */
  authenticate?: (request: { headers: IncomingHttpHeaders; params: Record<string, string> }) => Promise<Caller>;
  /** Name of the body schema (see apiDescription/requestBodies.ts); routes without one take no body. */
  bodySchema?: BodySchemaName;
  /** Query parameters the route understands; any other is a 400. */
  query?: Readonly<Record<string, QueryParameter>>;
  handler: (request: ApiRequest<Body, Caller>) => Promise<ApiResponse>;
  doc: OperationDescription<Body>;
}

// A route of any body and caller: the router holds them side by side, and each
// route's own handler is typed by its Route<Body, Caller>.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- variance: Route<X> is not assignable to Route<unknown>
export type AnyRoute = Route<any, any>;
