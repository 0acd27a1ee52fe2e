import { badRequest } from '../errors';
import type { Coordinates } from '../model/requestBodies';

/** What "kiosks near me" searches: around `center`, within `radiusKm`, at most `limit` kiosks. */
export interface NearbySearch {
  center: Coordinates;
  radiusKm: number;
  limit: number;
}

export const RADIUS_KM = { min: 0.1, max: 50, default: 5 } as const;
export const NEARBY_LIMIT = { min: 1, max: 100, default: 50 } as const;

/**
 * Decimal notation as people and number formatters write it: `52.52`, `-0.5`, `.5`,
 * `1e-7`; no hex, no blanks. No two quantifiers can share a digit (the integer part
 * ends where the fraction's `.` begins), so a failing match is linear in its input.
 */
export const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
/** Longer than any coordinate or radius a formatter writes (`-179.12345678901234567` is 22). */
export const MAX_DECIMAL_LENGTH = 32;
const INTEGER = /^[0-9]{1,3}$/;
const NEAR_FORM = 'near must be latitude,longitude in decimal degrees, e.g. near=52.5219,13.4132';

const decimal = (text: string): number | undefined =>
  text.length <= MAX_DECIMAL_LENGTH && DECIMAL.test(text) ? Number(text) : undefined;

function parseNear(text: string): Coordinates {
  if (text.length > 2 * MAX_DECIMAL_LENGTH + 1) throw badRequest(NEAR_FORM);
  const parts = text.split(',');
  const [latitude, longitude] = parts.map(decimal);
  if (parts.length !== 2 || latitude === undefined || longitude === undefined) throw badRequest(NEAR_FORM);
  if (latitude < -90 || latitude > 90) throw badRequest('near: the latitude must be from -90 to 90');
  if (longitude < -180 || longitude > 180) throw badRequest('near: the longitude must be from -180 to 180');
  return { latitude, longitude };
}

function parseRadius(text: string | undefined): number {
  if (text === undefined) return RADIUS_KM.default;
  const radius = decimal(text);
  if (radius === undefined || radius < RADIUS_KM.min || radius > RADIUS_KM.max) {
    throw badRequest(`radiusKm must be a number of kilometres from ${RADIUS_KM.min} to ${RADIUS_KM.max}`);
  }
  return radius;
}

function parseLimit(text: string | undefined): number {
  if (text === undefined) return NEARBY_LIMIT.default;
  const limit = INTEGER.test(text) ? Number(text) : undefined;
  if (limit === undefined || limit < NEARBY_LIMIT.min || limit > NEARBY_LIMIT.max) {
    throw badRequest(`limit must be an integer from ${NEARBY_LIMIT.min} to ${NEARBY_LIMIT.max}`);
  }
  return limit;
}

/**
 * The search a GET /kiosks query asks for; undefined when it names no `near` (the
 * plain list). `radiusKm` and `limit` belong to a search: without `near` they are a
 * 400 rather than silently ignored (the plain list has neither a radius nor pages).
 */
export function nearbySearchOf(query: Readonly<Record<string, string | undefined>>): NearbySearch | undefined {
  const { near, radiusKm, limit } = query;
  if (near === undefined) {
    const stray = radiusKm !== undefined ? 'radiusKm' : limit !== undefined ? 'limit' : undefined;
    if (stray)
      throw badRequest(`${stray} needs near=<latitude>,<longitude>: it only applies to a search around a point`);
    return undefined;
  }
  return { center: parseNear(near), radiusKm: parseRadius(radiusKm), limit: parseLimit(limit) };
}

/** A distance as answered: kilometres to 2 decimals. */
export const roundKm = (km: number): number => Math.round(km * 100) / 100;
