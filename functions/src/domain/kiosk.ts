import { badRequest } from '../errors';
import { isOpenAt } from './openingHours';

export const KIOSK_STATUSES = ['available', 'maintenance', 'offline'] as const;
export type KioskStatus = (typeof KIOSK_STATUSES)[number];

export const isKioskStatus = (value: unknown): value is KioskStatus =>
  typeof value === 'string' && (KIOSK_STATUSES as readonly string[]).includes(value);

export interface GeoPoint {
  latitude: number;
  longitude: number;
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
  location: GeoPoint;
  openingHours: string;
  timezone: string;
}

export interface KioskView extends Omit<KioskRecord, 'lastUpdated'> {
  lastUpdated: string;
  openNow: boolean;
}

export const DEFAULT_OPENING_HOURS = '24/7';
export const DEFAULT_TIMEZONE = 'UTC';

export function toKioskView(kiosk: KioskRecord, now: Date): KioskView {
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
  };
}

export function assertLocation(location: GeoPoint): GeoPoint {
  const { latitude, longitude } = location;
  if (!Number.isFinite(latitude) || latitude < -90 || latitude > 90) {
    throw badRequest('location.latitude must be a number from -90 to 90');
  }
  if (!Number.isFinite(longitude) || longitude < -180 || longitude > 180) {
    throw badRequest('location.longitude must be a number from -180 to 180');
  }
  return { latitude, longitude };
}
