import { rankFor, utcDay, type Award, type RewardsConfig } from './rewards';
import type { HoldReason } from '../model/trustVocabulary';

/**
 * Trust (contract §17): the limits past which a deposit's points are held for an
 * operator's review instead of credited. Every limit is off (null) until an operator
 * sets it in `config/risk`; the deposit itself is always recorded and its items counted.
 */
export interface RiskConfig {
  /** A kiosk's items in the 10 minutes up to a deposit above 10 × this: `kiosk-throughput`. */
  kioskItemsPerMinute: number | null;
  /** A user's items on the UTC day of a deposit above this: `user-daily-items`. */
  userItemsPerDay: number | null;
  /** Faster than this between the user's previous deposit's kiosk and this one's: `impossible-travel`. */
  travelKmh: number | null;
}

export const RISK_LIMITS = ['kioskItemsPerMinute', 'userItemsPerDay', 'travelKmh'] as const;
export type RiskLimit = (typeof RISK_LIMITS)[number];

export const NO_LIMITS: RiskConfig = { kioskItemsPerMinute: null, userItemsPerDay: null, travelKmh: null };

/** The largest value a limit takes: far above anything a kiosk can do, small enough to stay exact in sums. */
export const MAX_RISK_LIMIT = 1_000_000;

/** The minutes a kiosk's throughput is judged over. */
export const WINDOW_MINUTES = 10;

const isLimit = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_RISK_LIMIT;

/**
 * Reads `config/risk` field by field: a field that is not a limit (a positive whole
 * number) is off. Off is the safe failure here: a typo must never hold every deposit.
 */
export function parseRiskConfig(raw: Record<string, unknown> | undefined): { config: RiskConfig; invalid: string[] } {
  const config: RiskConfig = { ...NO_LIMITS };
  const invalid: string[] = [];
  for (const limit of RISK_LIMITS) {
    const value = raw?.[limit];
    if (isLimit(value)) config[limit] = value;
    else if (value !== undefined && value !== null) invalid.push(limit);
  }
  return { config, invalid };
}

/** `n` or `off`, as risk:set takes a limit: the number, null for off, undefined when it is neither. */
export function parseLimitArgument(text: string): number | null | undefined {
  if (text === 'off') return null;
  const value = Number(text);
  return /^\d+$/.test(text) && isLimit(value) ? value : undefined;
}

/** Items per minute of occurredAt (minutes since the epoch, as text): a kiosk's throughput window. */
export type MinuteBuckets = Readonly<Record<string, number>>;

export const minuteOf = (instant: Date): number => Math.floor(instant.getTime() / 60_000);

/** The items in the window that ends with `minute`: it and the 9 minutes before it. */
export function itemsInWindow(buckets: MinuteBuckets, minute: number): number {
  let items = 0;
  for (let m = minute - WINDOW_MINUTES + 1; m <= minute; m++) items += buckets[String(m)] ?? 0;
  return items;
}

/**
 * The buckets with `items` added at `minute`, those before `keepFrom` dropped: no
 * deposit older than the offline window can arrive, so none can look at them.
 */
export function addToBuckets(buckets: MinuteBuckets, minute: number, items: number, keepFrom: number): MinuteBuckets {
  const kept: Record<string, number> = {};
  for (const [key, count] of Object.entries(buckets)) if (Number(key) >= keepFrom) kept[key] = count;
  kept[String(minute)] = (kept[String(minute)] ?? 0) + items;
  return kept;
}

/** A place on the globe, in degrees. */
export interface Place {
  latitude: number;
  longitude: number;
}

const EARTH_RADIUS_KM = 6371.0088;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** The great-circle distance between two places (haversine), in km. */
export function distanceKm(a: Place, b: Place): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLng = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A deposit as the travel rule sees it: where and when. */
export interface Visit {
  kioskId: string;
  place: Place | undefined;
  at: Date;
}

/**
 * Getting from `previous` to `next` was faster than `kmh` allows. Two visits to one
 * kiosk, or a kiosk without a place, never are.
 */
export function impossibleTravel(previous: Visit, next: Visit, kmh: number): boolean {
  if (previous.kioskId === next.kioskId || !previous.place || !next.place) return false;
  const hours = Math.abs(next.at.getTime() - previous.at.getTime()) / 3_600_000;
  return distanceKm(previous.place, next.place) > kmh * hours;
}

/** What the rules judge one deposit on: each figure as it stands before the deposit, or undefined when not read. */
export interface RiskFacts {
  items: number;
  suspended: boolean;
  /** The kiosk's items in the deposit's window, before it. */
  kioskWindowItems: number | undefined;
  /** The user's items on the deposit's UTC day, before it. */
  userDayItems: number;
  /** The user's latest deposit before this one (by occurredAt), and this one. */
  travel: { previous: Visit; next: Visit } | undefined;
}

/** Every rule the deposit trips, in the order of model/trustVocabulary.ts HOLD_REASONS; none: its points are awarded. */
export function holdReasons(limits: RiskConfig, facts: RiskFacts): HoldReason[] {
  const reasons: HoldReason[] = [];
  const { kioskItemsPerMinute, userItemsPerDay, travelKmh } = limits;
  if (
    kioskItemsPerMinute !== null &&
    facts.kioskWindowItems !== undefined &&
    facts.kioskWindowItems + facts.items > WINDOW_MINUTES * kioskItemsPerMinute
  ) {
    reasons.push('kiosk-throughput');
  }
  if (userItemsPerDay !== null && facts.userDayItems + facts.items > userItemsPerDay) reasons.push('user-daily-items');
  if (travelKmh !== null && facts.travel && impossibleTravel(facts.travel.previous, facts.travel.next, travelKmh)) {
    reasons.push('impossible-travel');
  }
  if (facts.suspended) reasons.push('user-suspended');
  return reasons;
}

/** Items per UTC day (`YYYY-MM-DD`), kept on the user like `earnedByDay` for the days a deposit may still arrive for. */
export type ItemsByDay = Readonly<Record<string, number>>;

export function addItemsOnDay(byDay: ItemsByDay, occurredAt: Date, items: number, oldestDay: string): ItemsByDay {
  const kept: Record<string, number> = {};
  for (const [day, count] of Object.entries(byDay)) if (day >= oldestDay) kept[day] = count;
  const day = utcDay(occurredAt);
  kept[day] = (kept[day] ?? 0) + items;
  return kept;
}

/**
 * A held deposit's award: its points (promotions and the cap applied) are kept for a
 * release and count against the day's cap (`earnedByDay`), its items count, but the
 * balances and the rank stay as they were.
 */
export const heldAward = (config: RewardsConfig, award: Award, totalPointsBefore: number): Award => ({
  ...award,
  currentPoints: award.balanceBefore,
  totalPoints: totalPointsBefore,
  rank: rankFor(config, totalPointsBefore),
});
