import type { DocumentSnapshot, WriteBatch } from 'firebase-admin/firestore';
import { db } from '../adapters/firestore';
import { isPoints } from './users';
import type { MinuteBuckets } from '../domain/risk';

/**
 * kioskWindows/{kioskId}: a kiosk's items by minute of `occurredAt` (the throughput
 * limit's window, contract §17) and its open `suspicious` alert. Written only in the
 * award's commit, under a precondition on the version read, so concurrent awards at
 * one kiosk each count every deposit recorded before them, once. No client reads it.
 */
export const kioskWindowsCollection = () => db().collection('kioskWindows');

export interface KioskWindow {
  minutes: MinuteBuckets;
  /** The kiosk's open `suspicious` alert: at most one at a time. */
  suspiciousAlertId: string | null;
}

export function kioskWindowFromSnapshot(snapshot: DocumentSnapshot): KioskWindow {
  const minutes: Record<string, number> = {};
  const stored: unknown = snapshot.get('minutes');
  if (stored !== null && typeof stored === 'object') {
    for (const [minute, items] of Object.entries(stored)) if (isPoints(items)) minutes[minute] = items;
  }
  const alertId: unknown = snapshot.get('suspiciousAlertId');
  return { minutes, suspiciousAlertId: typeof alertId === 'string' ? alertId : null };
}

/** Stages the window as it is after this commit's deposits, guarded by the version that was read. */
export function stageKioskWindow(batch: WriteBatch, snapshot: DocumentSnapshot, window: KioskWindow): void {
  const data = { minutes: { ...window.minutes }, suspiciousAlertId: window.suspiciousAlertId };
  // An update replaces the `minutes` map whole: minutes past the offline window are gone with it.
  if (snapshot.exists) batch.update(snapshot.ref, data, { lastUpdateTime: snapshot.updateTime! });
  else batch.create(snapshot.ref, data);
}
