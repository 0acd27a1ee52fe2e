import { FieldValue, GeoPoint, Timestamp, type DocumentSnapshot } from 'firebase-admin/firestore';
import { geohashForLocation } from 'geofire-common';
import { db, runTransaction } from '../adapters/firestore';
import {
  DEFAULT_OPENING_HOURS,
  DEFAULT_TIMEZONE,
  type KioskDefinition,
  type KioskRecord,
  type KioskStatus,
} from '../domain/kiosk';
import { notFound } from '../errors';

export const kiosksCollection = () => db().collection('kiosks');

export function kioskFromSnapshot(snapshot: DocumentSnapshot): KioskRecord | undefined {
  const data = snapshot.data();
  if (!data) return undefined;
  const location = data.location as GeoPoint;
  return {
    id: snapshot.id,
    name: data.name,
    address: data.address,
    status: data.status,
    plasticCount: data.plasticCount ?? 0,
    metalCount: data.metalCount ?? 0,
    lastUpdated: (data.lastUpdated as Timestamp).toDate(),
    location: { latitude: location.latitude, longitude: location.longitude },
    openingHours: data.openingHours ?? DEFAULT_OPENING_HOURS,
    timezone: data.timezone ?? DEFAULT_TIMEZONE,
  };
}

export async function getKiosk(kioskId: string): Promise<KioskRecord> {
  const kiosk = kioskFromSnapshot(await kiosksCollection().doc(kioskId).get());
  if (!kiosk) throw notFound(`Kiosk ${kioskId} not found`);
  return kiosk;
}

export async function listKiosks(status: KioskStatus | undefined): Promise<KioskRecord[]> {
  const query = status ? kiosksCollection().where('status', '==', status) : kiosksCollection();
  const snapshot = await query.get();
  return snapshot.docs.map((doc) => kioskFromSnapshot(doc)!);
}

/** Sets the status and refreshes lastUpdated; returns the kiosk as now stored. */
export async function setKioskStatus(kioskId: string, status: KioskStatus): Promise<KioskRecord> {
  const ref = kiosksCollection().doc(kioskId);
  return runTransaction(async (tx) => {
    const current = kioskFromSnapshot(await tx.get(ref));
    if (!current) throw notFound(`Kiosk ${kioskId} not found`);
    const lastUpdated = Timestamp.now();
    tx.update(ref, { status, lastUpdated });
    return { ...current, status, lastUpdated: lastUpdated.toDate() };
  });
}

/**
 * Creates the kiosk with defaults, or updates the given fields of an existing one
 * while keeping its counters and whatever was omitted.
 */
export async function upsertKiosk(definition: KioskDefinition): Promise<{ kiosk: KioskRecord; created: boolean }> {
  const ref = kiosksCollection().doc(definition.id);
  return runTransaction(async (tx) => {
    const existing = kioskFromSnapshot(await tx.get(ref));
    const lastUpdated = Timestamp.now();
    const { latitude, longitude } = definition.location;
    const kiosk: KioskRecord = {
      id: definition.id,
      name: definition.name,
      address: definition.address,
      status: definition.status ?? existing?.status ?? 'available',
      plasticCount: existing?.plasticCount ?? 0,
      metalCount: existing?.metalCount ?? 0,
      lastUpdated: lastUpdated.toDate(),
      location: { latitude, longitude },
      openingHours: definition.openingHours ?? existing?.openingHours ?? DEFAULT_OPENING_HOURS,
      timezone: definition.timezone ?? existing?.timezone ?? DEFAULT_TIMEZONE,
    };
    const fields = {
      name: kiosk.name,
      address: kiosk.address,
      status: kiosk.status,
      lastUpdated,
      location: new GeoPoint(latitude, longitude),
      geohash: geohashForLocation([latitude, longitude]),
      openingHours: kiosk.openingHours,
      timezone: kiosk.timezone,
    };
    if (existing) tx.update(ref, fields);
    else tx.create(ref, { ...fields, plasticCount: 0, metalCount: 0, createdAt: FieldValue.serverTimestamp() });
    return { kiosk, created: !existing };
  });
}
