import { badRequest, forbidden } from '../errors';
import { assertDocumentId } from './ids';
import { isOnline } from './liveness';
import { assertOpeningHours, assertTimeZone, isOpenAt } from './openingHours';
import type { Coordinates } from '../model/requestBodies';
import type { KioskView } from '../model/views';
import { KIOSK_STATUSES, type KioskStatus } from '../model/vocabulary';

export const isKioskStatus = (value: unknown): value is KioskStatus =>
  typeof value === 'string' && (KIOSK_STATUSES as readonly string[]).includes(value);

/** Who calls with a kiosk key: the key's kiosk, and the key's id (its SHA-256, recorded on what it writes). */
export interface KioskCaller {
  kioskId: string;
  keyId: string;
}

/** A kiosk key speaks for its own kiosk only. */
export function assertKioskMatches(caller: KioskCaller, kioskId: string): void {
  if (caller.kioskId !== kioskId) throw forbidden(`This API key is not valid for kiosk ${kioskId}`);
}

/** A kiosk as stored, with Firestore types already turned into plain ones. */
export interface KioskRecord {
  id: string;
  name: string;
  address: string;
  status: KioskStatus;
  plasticCount: number;
  metalCount: number;
  lastUpdated: Date;
  location: Coordinates;
  openingHours: string;
  timezone: string;
  /** When a request with one of its keys last reached the service (written at most once a minute); null: never. */
  lastSeenAt: Date | null;
}

/** What an operator sets on a kiosk; omitted optional fields keep their value or default. */
export type KioskDefinition = Pick<KioskRecord, 'id' | 'name' | 'address' | 'location'> &
  Partial<Pick<KioskRecord, 'openingHours' | 'timezone' | 'status'>>;

/** A kiosk definition as received, once its request schema passed; null means not given. */
export type KioskDefinitionInput = Pick<KioskDefinition, 'id' | 'name' | 'address' | 'location'> & {
  [field in 'openingHours' | 'timezone' | 'status']?: KioskDefinition[field] | null;
};

/** A kiosk as anyone may see it: its schema is the source (model/views.ts). */
export type { KioskView };

export const DEFAULT_OPENING_HOURS = '24/7';
export const DEFAULT_TIMEZONE = 'UTC';

/** The kiosk as anyone may see it at `now`; online means seen within the last `onlineMinutes`. */
export function toKioskView(kiosk: KioskRecord, now: Date, onlineMinutes: number): KioskView {
  return {
    id: kiosk.id,
    name: kiosk.name,
    address: kiosk.address,
    status: kiosk.status,
    plasticCount: kiosk.plasticCount,
    metalCount: kiosk.metalCount,
    lastUpdated: kiosk.lastUpdated.toISOString(),
    location: { latitude: kiosk.location.latitude, longitude: kiosk.location.longitude },
    openingHours: kiosk.openingHours,
    timezone: kiosk.timezone,
    openNow: isOpenAt(kiosk.openingHours, kiosk.timezone, kiosk.location, now),
    lastSeenAt: kiosk.lastSeenAt?.toISOString() ?? null,
    online: isOnline(kiosk.lastSeenAt, now, onlineMinutes),
  };
}

export function assertLocation(location: Coordinates): Coordinates {
  const { latitude, longitude } = location;
  if (!Number.isFinite(latitude) || latitude < -90 || latitude > 90) {
    throw badRequest('location.latitude must be a number from -90 to 90');
  }
  if (!Number.isFinite(longitude) || longitude < -180 || longitude > 180) {
    throw badRequest('location.longitude must be a number from -180 to 180');
  }
  return { latitude, longitude };
}

/**
 * The rules a kiosk definition meets beyond its request schema, one version for
 * POST /admin/kiosks and the operator CLI's kiosk:upsert: a usable document id, a
 * place on the globe, a known time zone and opening hours the evaluator reads.
 */
export function assertKioskDefinition(input: KioskDefinitionInput): KioskDefinition {
  const id = assertDocumentId(input.id, 'id');
  const location = assertLocation(input.location);
  return {
    id,
    name: input.name,
    address: input.address,
    location,
    timezone: input.timezone == null ? undefined : assertTimeZone(input.timezone),
    openingHours: input.openingHours == null ? undefined : assertOpeningHours(input.openingHours, location),
    status: input.status ?? undefined,
  };
}
