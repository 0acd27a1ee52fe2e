import type { IncomingHttpHeaders } from 'node:http';
import type { OperationDescription, QueryParameter } from './apiDescription/operation';
import type { BodySchemaName } from '../model/requestBodies';

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
  /** Sent instead of `body` (then `{}`): text of its own Content-Type, e.g. a report as CSV (or as UTF-8 bytes). */
  text?: { contentType: string; content: string | Buffer };
  /**
   * Sent instead of `body` (then `{}`), chunk by chunk as it is read, so that a long
   * answer (a user's export) never sits whole in memory. Anything that can refuse the
   * request is checked before: once the first chunk is out, the status is sent.
   */
  stream?: { contentType: string; chunks: AsyncIterable<string> };
}

export interface Route<Body = unknown, Caller = undefined> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Segments starting with ":" are path ids, e.g. "/kiosk/:kioskId/status". */
  path: string;
  /** Runs before the body is read, so a caller without credentials learns nothing about the body rules. */
  authenticate?: (request: { headers: IncomingHttpHeaders; params: Record<string, string> }) => Promise<Caller>;
  /** Name of the body schema (see model/requestBodies.ts); routes without one take no body. */
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

/** A route the router matches by method and path alone, its module loaded on the first call (http/routes/index.ts). */
export interface LazyRoute extends Pick<AnyRoute, 'method' | 'path'> {
  load: () => AnyRoute;
}

/** What the route table holds: a route, or a route loaded on first use. */
export type RouteEntry = AnyRoute | LazyRoute;
