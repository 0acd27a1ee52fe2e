/**
 * Routes of one access level, built so that what the API description says of who may
 * call (`doc.access`) and what `authenticate` demands are stated once, together.
 */
import type { VerifiedCaller } from '../adapters/identity';
import { requireAdmin, requireUserOrAdmin } from './auth';
import type { OperationDescription, Route } from './types';

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

/** A route under /user/:userId: that user, or an admin. */
export const userRoute = <Body = undefined>(route: RouteWithoutAccess<Body>): Route<Body, VerifiedCaller> => ({
  ...route,
  authenticate: ({ headers, params }) => requireUserOrAdmin(headers, params.userId),
  doc: { ...route.doc, access: 'user' },
});
