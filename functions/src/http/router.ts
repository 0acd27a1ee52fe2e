import { ApiError, badRequest, notFound } from '../errors';
import { assertDocumentId } from '../domain/ids';
import type { AnyRoute } from './types';

/** What the router reads of a route. */
type RoutePattern = Pick<AnyRoute, 'method' | 'path'>;

interface CompiledRoute<R> {
  route: R;
  segments: string[];
}

export interface RouteMatch<R = AnyRoute> {
  route: R;
  params: Record<string, string>;
}

const splitPath = (path: string): string[] => {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed === '/' ? [] : trimmed.slice(1).split('/');
};

/**
 * Firebase Hosting rewrites `/api/**` to the `api` function, which sees the path as
 * requested: every route is served under this prefix too (`/api/kiosks` is `/kiosks`,
 * `/api` is `/`). Only a whole segment is a prefix: `/apix` is a path of its own.
 */
export const HOSTING_PREFIX = 'api';

/** A route's path as the API description and the request logs name it: `/partner/vouchers/{code}`. */
export const documentPath = (path: string): string => path.replace(/:([A-Za-z]+)/g, '{$1}');

/** The segments of a requested path that a route's are matched against: without the Hosting prefix. */
export function routeSegments(path: string): string[] {
  const segments = splitPath(path);
  return segments[0] === HOSTING_PREFIX ? segments.slice(1) : segments;
}

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest('The path is not valid URL encoding');
  }
}

/** Matches method + path; unknown paths are 404 and known paths with another method 405 + Allow. */
export class Router<R extends RoutePattern = AnyRoute> {
  private readonly compiled: CompiledRoute<R>[];

  constructor(routes: R[]) {
    this.compiled = routes.map((route) => ({ route, segments: splitPath(route.path) }));
  }

  /** Methods served at this path, HEAD included wherever GET is. */
  allowedMethods(path: string): string[] {
    const methods: string[] = this.candidates(routeSegments(path)).map(({ route }) => route.method);
    return methods.includes('GET') ? [...methods, 'HEAD'] : methods;
  }

  /**
   * The pattern of the route served at this path (`/partner/vouchers/{code}`), what a
   * request log names instead of the path itself, which may carry a voucher or claim
   * code or an e-mail address; undefined where no route is.
   */
  patternOf(path: string): string | undefined {
    const hit = this.candidates(routeSegments(path))[0];
    return hit && documentPath(hit.route.path);
  }

  match(method: string, path: string): RouteMatch<R> {
    const candidates = this.candidates(routeSegments(path));
    if (candidates.length === 0) throw notFound(`No endpoint at ${path}`);
    const wanted = method === 'HEAD' ? 'GET' : method;
    const hit = candidates.find(({ route }) => route.method === wanted);
    if (!hit) {
      throw new ApiError('method-not-allowed', `${method} is not allowed on ${path}`, {
        allowedMethods: this.allowedMethods(path),
      });
    }
    const params: Record<string, string> = {};
    for (const [name, raw] of Object.entries(hit.rawParams)) {
      params[name] = assertDocumentId(decodeSegment(raw), name);
    }
    return { route: hit.route, params };
  }

  private candidates(segments: string[]): { route: R; rawParams: Record<string, string> }[] {
    const found: { route: R; rawParams: Record<string, string> }[] = [];
    for (const { route, segments: pattern } of this.compiled) {
      if (pattern.length !== segments.length) continue;
      const rawParams: Record<string, string> = {};
      const matches = pattern.every((part, i) => {
        if (part.startsWith(':')) {
          rawParams[part.slice(1)] = segments[i];
          return true;
        }
        return part === segments[i];
      });
      if (matches) found.push({ route, rawParams });
    }
    return found;
  }
}
