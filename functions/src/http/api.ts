import { once } from 'node:events';
import { withCallTiming } from '../adapters/callTiming';
import { logError } from '../log';
import type { Request, Response } from 'firebase-functions/https';
import { allowedCorsOrigins } from '../config';
import { ApiError, badRequest, notFound } from '../errors';
import { errorAnswerOf } from './errorAnswers';
import { clientIpOf } from './clientIp';
import { Router } from './router';
import { loadRoute, routeTable } from './routes';
import type { AnyRoute, ApiRequest, ApiResponse } from './types';
import { validateBody } from './validation';
import { MAX_BODY_BYTES } from '../model/limits';

const router = new Router(routeTable);

const CORS_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-API-Key';

/** The longest value any query parameter takes (a page cursor); bounded before any route parses it. */
export const MAX_QUERY_VALUE_LENGTH = 1000;

function parseQuery(req: Request, route: AnyRoute): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.query)) {
    if (!route.query || !Object.hasOwn(route.query, name)) throw badRequest(`Unknown query parameter ${name}`);
    if (typeof value !== 'string') throw badRequest(`Query parameter ${name} must be given once`);
    if (value.length > MAX_QUERY_VALUE_LENGTH) {
      throw badRequest(`Query parameter ${name} must be at most ${MAX_QUERY_VALUE_LENGTH} characters`);
    }
    query[name] = value;
  }
  return query;
}

/**
 * A body is refused the same way on every route: 415 when it is not JSON, 400 when it
 * is not what the route takes, and a route without a body schema takes none, not even
 * `{}`. An empty body is no body, whatever its headers say. The runtime keeps no
 * `rawBody` for a body sent without a Content-Type, so its declared length counts too.
 */
function parseBody(req: Request, route: AnyRoute): unknown {
  const hasBody = (req.rawBody?.length ?? 0) > 0 || Number(req.headers['content-length'] ?? 0) > 0;
  if (!route.bodySchema && !hasBody) return undefined;
  const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json' && (hasBody || contentType !== '')) {
    throw new ApiError('unsupported-media-type', 'Content-Type must be application/json');
  }
  if (!route.bodySchema) throw badRequest(`${req.method} ${req.path} takes no request body`);
  return validateBody(route.bodySchema, hasBody ? req.body : {});
}

function applyCors(req: Request, res: Response): boolean {
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || !allowedCorsOrigins().includes(origin)) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Vary', 'Origin');
  return true;
}

async function dispatch(req: Request, res: Response): Promise<ApiResponse> {
  const declaredLength = Number(req.headers['content-length'] ?? 0);
  if ((req.rawBody?.length ?? 0) > MAX_BODY_BYTES || declaredLength > MAX_BODY_BYTES) {
    throw new ApiError('payload-too-large', `Request body must be at most ${MAX_BODY_BYTES} bytes`);
  }
  const corsAllowed = applyCors(req, res);
  if (req.method === 'OPTIONS') {
    const methods = router.allowedMethods(req.path);
    if (methods.length === 0) throw notFound(`No endpoint at ${req.path}`);
    const headers: Record<string, string> = { Allow: [...methods, 'OPTIONS'].join(', ') };
    if (corsAllowed) {
      headers['Access-Control-Allow-Methods'] = headers.Allow;
      headers['Access-Control-Allow-Headers'] = CORS_HEADERS;
      headers['Access-Control-Max-Age'] = '3600';
    }
    return { status: 204, headers, body: {} };
  }
  const match = router.match(req.method, req.path);
  const [route, params] = [loadRoute(match.route), match.params];
  const caller = await route.authenticate?.({ headers: req.headers, params });
  const request: ApiRequest<unknown, unknown> = {
    method: req.method,
    path: req.path,
    params,
    query: parseQuery(req, route),
    headers: req.headers,
    body: parseBody(req, route),
    caller,
    clientIp: clientIpOf(req),
  };
  return route.handler(request);
}

/**
 * What a request log says of the request: its method and the route's pattern, never
 * the path itself (a voucher or claim code, an e-mail address may be in it).
 */
function requestLogFields(req: Request): { method: string; route: string } {
  return { method: req.method, route: router.patternOf(req.path) ?? 'no route' };
}

function toErrorResponse(error: unknown, req: Request): ApiResponse {
  if (error instanceof ApiError) {
    const { status, headers, code, message, fields } = errorAnswerOf(error);
    return { status, headers, body: { error: message, code, ...fields } };
  }
  logError('request_failed', {
    ...requestLogFields(req),
    errorName: error instanceof Error ? error.name : typeof error,
    errorMessage: error instanceof Error ? error.message : String(error),
    // For whoever reads the logs; the caller gets a bare 500.
    stack: error instanceof Error ? error.stack : undefined,
  });
  return { status: 500, body: { error: 'Internal server error', code: 'internal' } };
}

/** The `api` HTTPS function: every endpoint of the service behind one router. */
export async function handleApiRequest(req: Request, res: Response): Promise<void> {
  let response: ApiResponse;
  try {
    response = await withCallTiming(res, () => dispatch(req, res));
  } catch (error) {
    response = toErrorResponse(error, req);
  }
  res.status(response.status ?? 200);
  res.setHeader('Cache-Control', 'no-store');
  for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value);
  if (response.status === 204) res.end();
  else if (response.text) res.type(response.text.contentType).send(response.text.content);
  else if (response.stream) await streamOut(response.stream, req, res);
  else res.json(response.body);
}

/**
 * Writes a streamed answer, waiting whenever the client reads slower than it is
 * read (so memory holds a page, not the answer). A failure after the status was
 * sent can only cut the answer short: the connection is dropped, so the client sees
 * an incomplete answer, never a complete-looking one; the failure is logged.
 */
async function streamOut(stream: NonNullable<ApiResponse['stream']>, req: Request, res: Response): Promise<void> {
  res.type(stream.contentType);
  try {
    for await (const chunk of stream.chunks) {
      if (!res.write(chunk)) await once(res, 'drain');
    }
    res.end();
  } catch (error) {
    logError('response_cut_short', {
      ...requestLogFields(req),
      errorMessage: error instanceof Error ? error.message : String(error),
    });
    res.destroy();
  }
}
