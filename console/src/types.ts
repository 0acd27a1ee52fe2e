/** The API's views the console shows (functions/src/http/apiDescription/ is the reference). */

export type KioskStatus = 'available' | 'maintenance' | 'offline';
export const KIOSK_STATUSES: KioskStatus[] = ['available', 'maintenance', 'offline'];
export type AlertKind = 'bin-full' | 'error' | 'silent';
export const ALERT_KINDS: AlertKind[] = ['bin-full', 'error', 'silent'];
export type RewardKind = 'voucher' | 'donation';
export const REWARD_KINDS: RewardKind[] = ['voucher', 'donation'];
/** GET /admin/reports/kiosk-days refuses a longer range. */
export const MAX_REPORT_DAYS = 92;

export interface AdminKiosk {
  id: string;
  name: string;
  address: string;
  status: KioskStatus;
  plasticCount: number;
  metalCount: number;
  lastUpdated: string;
  location: { latitude: number; longitude: number };
  openingHours: string;
  timezone: string;
  openNow: boolean;
  lastSeenAt: string | null;
  online: boolean;
  fillLevel: { plastic: number | null; metal: number | null };
  firmwareVersion: string | null;
  errorCode: string | null;
  openAlerts: AlertKind[];
}

export interface KioskKey {
  keyId: string;
  label: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface Alert {
  id: string;
  kioskId: string;
  kind: AlertKind;
  openedAt: string;
  resolvedAt: string | null;
  detail: string;
}

export interface KioskDay {
  kioskId: string;
  day: string;
  transactions: number;
  plasticCount: number;
  metalCount: number;
  points: number;
}

export interface AdminReward {
  id: string;
  name: string;
  description: string;
  cost: number;
  kind: RewardKind;
  available: boolean;
  stock: number | null;
  active: boolean;
}

export interface UserProfile {
  id: string;
  name: string;
  /** Only where the API's profile carries it. */
  email?: string;
  currentPoints: number;
  totalPoints: number;
  recycledCount: number;
  rank: string;
  hasPushToken: boolean;
}

export interface LedgerEntry {
  id: string;
  kind: 'earn' | 'redeem' | 'refund' | 'adjust';
  points: number;
  balanceAfter: number;
  createdAt: string;
  transaction?: { id: string; kioskId: string; plasticCount: number; metalCount: number; occurredAt: string };
  redemption?: { id: string; rewardId: string; rewardName: string };
  reason?: string;
}

export interface Redemption {
  id: string;
  rewardId: string;
  rewardName: string;
  kind: RewardKind;
  cost: number;
  code: string | null;
  status: string;
  createdAt: string;
  cancelledAt?: string;
  cancelReason?: string;
}

/** A page of a cursor-paged list. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
