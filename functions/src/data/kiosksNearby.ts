import { distanceBetween } from 'geofire-common';
import { geohashRanges } from '../domain/geohashCover';
import type { KioskRecord } from '../domain/kiosk';
import type { NearbySearch } from '../domain/nearby';
import { kiosksCollection, usableKiosks } from './kiosks';
import type { KioskStatus } from '../model/vocabulary';

export interface NearbyKiosk {
  kiosk: KioskRecord;
  /** Great-circle distance from the search's centre, unrounded. */
  distanceKm: number;
}

/**
 * The kiosks within the search's radius (and of `status`, when given), nearest first
 * (equal distances by id), at most `limit`. Reads only the kiosks whose stored geohash
 * lies in the ranges covering the circle (domain/geohashCover.ts), one range query
 * each, never the whole fleet. The status is a condition of those queries, so a
 * search for the few kiosks in maintenance does not read the available ones around
 * them (the composite index status + geohash of firestore.indexes.json). A kiosk
 * broken by hand is logged and left out, as in the plain list.
 */
export async function kiosksNear(
  { center, radiusKm, limit }: NearbySearch,
  status: KioskStatus | undefined,
): Promise<NearbyKiosk[]> {
  const kiosks = status ? kiosksCollection().where('status', '==', status) : kiosksCollection();
  const reads = await Promise.all(
    geohashRanges(center, radiusKm).map(([start, end]) =>
      kiosks.where('geohash', '>=', start).where('geohash', '<', end).get(),
    ),
  );
  const origin: [number, number] = [center.latitude, center.longitude];
  return usableKiosks(reads.flatMap((read) => read.docs))
    .map((kiosk) => ({
      kiosk,
      distanceKm: distanceBetween(origin, [kiosk.location.latitude, kiosk.location.longitude]),
    }))
    .filter(({ distanceKm }) => distanceKm <= radiusKm)
    .sort((a, b) => a.distanceKm - b.distanceKm || (a.kiosk.id < b.kiosk.id ? -1 : a.kiosk.id > b.kiosk.id ? 1 : 0))
    .slice(0, limit);
}
