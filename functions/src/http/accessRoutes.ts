/**
 * Routes of one access level, built so that what the API description says of who may
 * call (`doc.access`) and what `authenticate` demands are stated once, together.
 */
import type { VerifiedCaller } from '../adapters/identity';
import { ProfileNotFound } from '../data/users';
import { provisionProfile } from '../services/provisioning';
import {
  answerForUnavailableAuth,
  requireAdmin,
  requirePartner,
  requireRecentUserOrAdmin,
  requireUserOrAdmin,
} from './auth';
import type { PartnerCaller } from '../data/partners';
import type { OperationDescription } from './apiDescription/operation';
import type { ApiRequest, ApiResponse, Route } from './types';

/** A route without what its access level decides. */
export type RouteWithoutAccess<Body> = Omit<Route<Body, VerifiedCaller>, 'authenticate' | 'doc'> & {
  doc: Omit<OperationDescription<Body>, 'access'>;
};

/** Operators only: a valid, unrevoked ID token with the admin claim. */
export const adminRoute = <Body = undefined>(route: RouteWithoutAccess<Body>): Route<Body, VerifiedCaller> => ({
  ...route,
  authenticate: ({ headers }) => requireAdmin(headers),
  doc: { ...route.doc, access: 'admin' },
});

/** Partners (§12): a valid, unrevoked partner key in `X-API-Key`. */
export const partnerRoute = <Body = undefined>(
  route: Omit<Route<Body, PartnerCaller>, 'authenticate' | 'doc'> & { doc: Omit<OperationDescription<Body>, 'access'> },
): Route<Body, PartnerCaller> => ({
  ...route,
  authenticate: ({ headers }) => requirePartner(headers),
  doc: { ...route.doc, access: 'partner' },
});

/**
 * A route under /user/:userId: that user, or an admin. The user's own first request
 * finds no profile: it is provisioned then (services/provisioning.ts) and the request
 * runs again, at no cost to any later request. An admin's request about a user
 * without a profile stays a 404.
 */
export const userRoute = <Body = undefined>(route: RouteWithoutAccess<Body>): Route<Body, VerifiedCaller> => ({
  ...route,
  authenticate: ({ headers, params }) => requireUserOrAdmin(headers, params.userId),
  handler: provisioningOnFirstRequest(route.handler),
  doc: { ...route.doc, access: 'user' },
});

/**
 * A route under /user/:userId that destroys or hands over the person's data (erasure,
 * export): as userRoute, but the user's own token must be unrevoked and from a sign-in
 * of the last 5 minutes (401 `recent-sign-in-required`), auth.ts requireRecentUserOrAdmin.
 */
export const recentSignInUserRoute = <Body = undefined>(
  route: RouteWithoutAccess<Body>,
): Route<Body, VerifiedCaller> => ({
  ...userRoute(route),
  authenticate: ({ headers, params }) => requireRecentUserOrAdmin(headers, params.userId),
});

function provisioningOnFirstRequest<Body>(
  handler: (request: ApiRequest<Body, VerifiedCaller>) => Promise<ApiResponse>,
): (request: ApiRequest<Body, VerifiedCaller>) => Promise<ApiResponse> {
  return async (request) => {
    try {
      return await handler(request);
    } catch (error) {
      const own = request.caller.uid;
      if (!(error instanceof ProfileNotFound) || error.userId !== own) throw error;
      const provisioned = await provisionProfile(own).catch((failure: unknown) => {
        throw answerForUnavailableAuth(failure, { during: 'provisioning' });
      });
      if (!provisioned) throw error;
      return handler(request);
    }
  };
}
