import { randomUUID } from 'node:crypto';
import { FieldValue, GeoPoint, Timestamp, type DocumentData, type DocumentSnapshot } from 'firebase-admin/firestore';
import { geohashForLocation } from 'geofire-common';
import { logWarn } from '../log';
import { db, runTransaction, type StagedWrites } from '../adapters/firestore';
import {
  DEFAULT_OPENING_HOURS,
  DEFAULT_TIMEZONE,
  isKioskStatus,
  type KioskDefinition,
  type KioskRecord,
} from '../domain/kiosk';
import { isTimeZone, openingHoursProblem } from '../domain/openingHours';
import { notFound } from '../errors';
import type { Coordinates } from '../model/requestBodies';
import type { KioskStatus } from '../model/vocabulary';

export const kiosksCollection = () => db().collection('kiosks');

/**
 * A kiosks/{id} document as first stored: the operator's definition with its
 * defaults (24/7, UTC, available), no items counted yet, and the geohash the map
 * queries by. The one place a kiosk document is written out.
 */
export function newKiosk(
  definition: Omit<KioskDefinition, 'id'>,
  lastUpdated = Timestamp.now(),
  creationId?: string,
): DocumentData {
  return {
    ...kioskDefinitionFields(definition, lastUpdated),
    plasticCount: 0,
    metalCount: 0,
    createdAt: FieldValue.serverTimestamp(),
    ...(creationId !== undefined && { creationId }),
  };
}

/** The fields an operator's definition sets, defaults filled in. */
function kioskDefinitionFields(definition: Omit<KioskDefinition, 'id'>, lastUpdated: Timestamp): DocumentData {
  const { latitude, longitude } = definition.location;
  return {
    name: definition.name,
    address: definition.address,
    status: definition.status ?? 'available',
    lastUpdated,
    location: storedPlace({ latitude, longitude }),
    geohash: geohashForLocation([latitude, longitude]),
    openingHours: definition.openingHours ?? DEFAULT_OPENING_HOURS,
    timezone: definition.timezone ?? DEFAULT_TIMEZONE,
  };
}

/** A kiosk's fields, each undefined when the document holds no usable value for it. */
type KioskFields = { [Field in keyof Omit<KioskRecord, 'id'>]: KioskRecord[Field] | undefined };

/** A place as stored (a GeoPoint: a kiosk's `location`, a deposit's kiosk place, contract §17); undefined otherwise. */
export const placeFrom = (stored: unknown): { latitude: number; longitude: number } | undefined =>
  stored instanceof GeoPoint ? { latitude: stored.latitude, longitude: stored.longitude } : undefined;
/** A place as it is stored: a GeoPoint. */
export const storedPlace = ({ latitude, longitude }: { latitude: number; longitude: number }): GeoPoint =>
  new GeoPoint(latitude, longitude);
const locationOf = (data: DocumentData) => placeFrom(data.location);
const nameOf = (data: DocumentData): string | undefined => (typeof data.name === 'string' ? data.name : undefined);
const statusOf = (data: DocumentData): KioskStatus | undefined =>
  isKioskStatus(data.status) ? data.status : undefined;
const countOf = (value: unknown): number | undefined =>
  value === undefined ? 0 : Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;

/**
 * Reads a kiosk document field by field, as an operator may have edited it by hand.
 * Counts, opening hours and time zone fall back to their defaults when absent; every
 * other field is required. The schedule is checked with the kiosk's coordinates, as
 * a view evaluates it (and caches the parse).
 */
function readKioskFields(data: DocumentData): KioskFields {
  const location = locationOf(data);
  const openingHours: unknown = data.openingHours ?? DEFAULT_OPENING_HOURS;
  const timezone: unknown = data.timezone ?? DEFAULT_TIMEZONE;
  return {
    name: nameOf(data),
    address: typeof data.address === 'string' ? data.address : undefined,
    status: statusOf(data),
    plasticCount: countOf(data.plasticCount),
    metalCount: countOf(data.metalCount),
    lastUpdated: data.lastUpdated instanceof Timestamp ? data.lastUpdated.toDate() : undefined,
    location,
    openingHours:
      typeof openingHours === 'string' && (!location || openingHoursProblem(openingHours, location) === undefined)
        ? openingHours
        : undefined,
    timezone: typeof timezone === 'string' && isTimeZone(timezone) ? timezone : undefined,
    lastSeenAt:
      data.lastSeenAt == null ? null : data.lastSeenAt instanceof Timestamp ? data.lastSeenAt.toDate() : undefined,
  };
}

const invalidFieldsOf = (fields: KioskFields): string[] =>
  Object.entries(fields)
    .filter(([, value]) => value === undefined)
    .map(([field]) => field);

/** Logs a kiosk document with fields the service cannot use, for the operator to mend. */
export function reportInvalidKiosk(kioskId: string, invalidFields: string[]): void {
  logWarn('kiosk_document_invalid', { kioskId, invalidFields });
}

function kioskFromData(kioskId: string, data: DocumentData): KioskRecord | { invalidFields: string[] } {
  const fields = readKioskFields(data);
  const invalidFields = invalidFieldsOf(fields);
  return invalidFields.length > 0 ? { invalidFields } : ({ id: kioskId, ...fields } as KioskRecord);
}

/** The whole kiosk; a document with a missing or malformed field is logged and thrown (a bare 500). */
function wholeKiosk(kioskId: string, data: DocumentData): KioskRecord {
  const kiosk = kioskFromData(kioskId, data);
  if (!('invalidFields' in kiosk)) return kiosk;
  reportInvalidKiosk(kioskId, kiosk.invalidFields);
  throw new Error(`kiosks/${kioskId} has missing or malformed fields: ${kiosk.invalidFields.join(', ')}`);
}

/**
 * What a deposit needs of a kiosk: that it exists, its status (may it take one?) and
 * its name (for the notification) and its place (for the travel limit, contract §17),
 * each undefined when not usable. Read on their own so that a kiosk whose display
 * fields were broken by hand still takes deposits.
 */
export function depositKioskFromSnapshot(snapshot: DocumentSnapshot):
  | {
      status: KioskStatus | undefined;
      name: string | undefined;
      location: { latitude: number; longitude: number } | undefined;
    }
  | undefined {
  const data = snapshot.data();
  return data && { status: statusOf(data), name: nameOf(data), location: locationOf(data) };
}

/**
 * Where and in which time zone a kiosk's promotions judge their `hours` (§16): a
 * field broken by hand falls back to UTC and (0, 0), never failing the deposit.
 */
export function kioskClockFromSnapshot(snapshot: DocumentSnapshot): { timezone: string; location: Coordinates } {
  const { timezone, location } = snapshot.data() ?? {};
  return {
    timezone: typeof timezone === 'string' && isTimeZone(timezone) ? timezone : DEFAULT_TIMEZONE,
    location:
      location instanceof GeoPoint
        ? { latitude: location.latitude, longitude: location.longitude }
        : { latitude: 0, longitude: 0 },
  };
}

/** 404 unless the kiosk exists; its fields are not read, so a kiosk broken by hand still gets keys. */
export async function assertKioskExists(kioskId: string): Promise<void> {
  if (!(await kiosksCollection().doc(kioskId).get()).exists) throw notFound(`Kiosk ${kioskId} not found`);
}

export async function getKiosk(kioskId: string): Promise<KioskRecord> {
  const data = (await kiosksCollection().doc(kioskId).get()).data();
  if (!data) throw notFound(`Kiosk ${kioskId} not found`);
  return wholeKiosk(kioskId, data);
}

/** The kiosks of documents read by a query; one broken by hand is logged and left out, never failing the list. */
export function usableKiosks(docs: readonly { id: string; data(): DocumentData }[]): KioskRecord[] {
  return docs.flatMap((doc) => {
    const kiosk = kioskFromData(doc.id, doc.data());
    if (!('invalidFields' in kiosk)) return [kiosk];
    reportInvalidKiosk(doc.id, kiosk.invalidFields);
    return [];
  });
}

/** Every kiosk (or those with one status); one broken by hand is logged and left out, never failing the list. */
export async function listKiosks(status: KioskStatus | undefined): Promise<KioskRecord[]> {
  const query = status ? kiosksCollection().where('status', '==', status) : kiosksCollection();
  return usableKiosks((await query.get()).docs);
}

/**
 * Stages the status and a fresh lastUpdated on the kiosk `snapshot` was read from;
 * returns the kiosk as it will be stored.
 */
export function stageKioskStatus(writes: StagedWrites, snapshot: DocumentSnapshot, status: KioskStatus): KioskRecord {
  const current = snapshot.data();
  if (!current) throw notFound(`Kiosk ${snapshot.id} not found`);
  const lastUpdated = Timestamp.now();
  // Checked as it will be stored: a report mends a kiosk whose only broken fields
  // were these two, and writes nothing to one it cannot show afterwards.
  const kiosk = wholeKiosk(snapshot.id, { ...current, status, lastUpdated });
  writes.update(snapshot.ref, { status, lastUpdated });
  return kiosk;
}

/** What liveness and the silent sweep read of a kiosk; a lastSeenAt that cannot be read counts as never. */
export function kioskPresence(
  snapshot: DocumentSnapshot,
): { status: KioskStatus | undefined; lastSeenAt: Date | null } | undefined {
  const data = snapshot.data();
  if (!data) return undefined;
  return { status: statusOf(data), lastSeenAt: data.lastSeenAt instanceof Timestamp ? data.lastSeenAt.toDate() : null };
}

/** The kiosks whose status is available and that were last seen before `cutoff` (never seen: not listed). */
export async function availableKiosksUnseenSince(cutoff: Date): Promise<string[]> {
  const snapshot = await kiosksCollection()
    .where('status', '==', 'available')
    .where('lastSeenAt', '<', Timestamp.fromDate(cutoff))
    .select()
    .get();
  return snapshot.docs.map((doc) => doc.id);
}

/**
 * Creates the kiosk with defaults, or updates the given fields of an existing one
 * while keeping its counters and whatever was omitted. Every field but the counters
 * is written, so an update mends a kiosk broken by hand: a value it cannot keep falls
 * back to the default, a malformed counter restarts at 0, and a malformed lastSeenAt
 * is dropped (never seen). A create is answered as one also when its commit's answer
 * was lost and the transaction ran again (it then finds its own `creationId`).
 */
export async function upsertKiosk(definition: KioskDefinition): Promise<{ kiosk: KioskRecord; created: boolean }> {
  const ref = kiosksCollection().doc(definition.id);
  // Stored with a create: the body run again after its commit's answer was lost finds its own create.
  const creationId = randomUUID();
  return runTransaction(async (tx) => {
    const stored = (await tx.get(ref)).data();
    const existing = stored && readKioskFields(stored);
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
      lastSeenAt: existing?.lastSeenAt ?? null,
    };
    if (existing) {
      const malformed = {
        ...(existing.plasticCount === undefined && { plasticCount: 0 }),
        ...(existing.metalCount === undefined && { metalCount: 0 }),
        ...(existing.lastSeenAt === undefined && { lastSeenAt: FieldValue.delete() }),
      };
      tx.update(ref, { ...kioskDefinitionFields(kiosk, lastUpdated), ...malformed });
    } else tx.create(ref, newKiosk(kiosk, lastUpdated, creationId));
    return { kiosk, created: !existing || stored.creationId === creationId };
  });
}
