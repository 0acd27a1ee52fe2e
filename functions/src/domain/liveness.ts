import type { KioskStatus } from '../model/vocabulary';

/** lastSeenAt is written at most this often per kiosk. */
export const LIVENESS_WRITE_INTERVAL_MS = 60_000;

/**
 * Whether a request at `now` writes lastSeenAt, given the value stored (or the value
 * this instance last knew to be stored): when none is, or it is a minute old.
 */
export const livenessWriteDue = (stored: Date | null, now: Date): boolean =>
  stored === null || now.getTime() - stored.getTime() >= LIVENESS_WRITE_INTERVAL_MS;

/** Seen within the last `onlineMinutes`; a kiosk never seen is not online. */
export const isOnline = (lastSeenAt: Date | null, now: Date, onlineMinutes: number): boolean =>
  lastSeenAt !== null && now.getTime() - lastSeenAt.getTime() <= onlineMinutes * 60_000;

/** Available, seen once, and not since `onlineMinutes`: a kiosk never seen is not silent. */
export const isSilent = (
  kiosk: { status: KioskStatus; lastSeenAt: Date | null },
  now: Date,
  onlineMinutes: number,
): boolean =>
  kiosk.status === 'available' && kiosk.lastSeenAt !== null && !isOnline(kiosk.lastSeenAt, now, onlineMinutes);
