import { badRequest } from '../errors';
import { decodeCursor, type Position } from './cursor';
import { isSilent } from './liveness';
import { MATERIALS, type Telemetry } from './telemetry';
import { ALERT_KINDS, type AlertKind, type KioskStatus } from '../model/vocabulary';

export const isAlertKind = (value: unknown): value is AlertKind =>
  typeof value === 'string' && (ALERT_KINDS as readonly string[]).includes(value);

/** The kinds judged when a status report is handled; `silent` is the sweep's and the kiosk's own requests'. */
export const REPORTED_KINDS = ['bin-full', 'error'] as const satisfies readonly AlertKind[];

/** The alert open now of each kind, by id: at most one per kind. */
export type OpenAlerts = Partial<Record<AlertKind, string>>;

/** The kinds whose condition holds, each with the detail an alert opened now carries. */
export type Conditions = Partial<Record<AlertKind, string>>;

export function telemetryConditions(telemetry: Telemetry, fillAlertPercent: number): Conditions {
  const conditions: Conditions = {};
  const full = MATERIALS.filter((material) => (telemetry.fillLevel[material] ?? 0) >= fillAlertPercent);
  if (full.length > 0) {
    const levels = full.map((material) => `${material} ${telemetry.fillLevel[material]}%`).join(', ');
    conditions['bin-full'] = `Bin full: ${levels} (alert at ${fillAlertPercent}%)`;
  }
  if (telemetry.errorCode !== null) conditions.error = `Error code ${telemetry.errorCode}`;
  return conditions;
}

export function silentConditions(
  kiosk: { status: KioskStatus; lastSeenAt: Date | null },
  now: Date,
  onlineMinutes: number,
): Conditions {
  if (!isSilent(kiosk, now, onlineMinutes)) return {};
  return { silent: `Not seen since ${kiosk.lastSeenAt!.toISOString()} (over ${onlineMinutes} minutes)` };
}

export interface AlertTransitions {
  open: { kind: AlertKind; detail: string }[];
  resolve: { kind: AlertKind; alertId: string }[];
}

/**
 * What to open and what to resolve among the `judged` kinds so that an alert is open
 * exactly while its condition holds; an alert already open stays as it is.
 */
export function alertTransitions(
  open: OpenAlerts,
  holding: Conditions,
  judged: readonly AlertKind[],
): AlertTransitions {
  const transitions: AlertTransitions = { open: [], resolve: [] };
  for (const kind of judged) {
    const detail = holding[kind];
    const alertId = open[kind];
    if (detail !== undefined && alertId === undefined) transitions.open.push({ kind, detail });
    if (detail === undefined && alertId !== undefined) transitions.resolve.push({ kind, alertId });
  }
  return transitions;
}

export const ALERT_STATES = ['open', 'all'] as const;
export type AlertState = (typeof ALERT_STATES)[number];
export const DEFAULT_ALERT_PAGE = 50;
export const MAX_ALERT_PAGE = 100;

/**
 * The page of alerts asked for, as GET /admin/alerts and the CLI's `alerts` take it
 * (text, as a query string carries it): 400 naming the parameter that is not valid.
 */
export function alertPageRequest(given: { state?: string; limit?: string; cursor?: string }): {
  state: AlertState;
  limit: number;
  after: Position | undefined;
} {
  const state = given.state ?? 'open';
  if (!(ALERT_STATES as readonly string[]).includes(state)) {
    throw badRequest(`state must be one of ${ALERT_STATES.join(', ')}`);
  }
  const limit = Number(given.limit ?? DEFAULT_ALERT_PAGE);
  if (!/^[0-9]{1,3}$/.test(given.limit ?? '1') || limit < 1 || limit > MAX_ALERT_PAGE) {
    throw badRequest(`limit must be an integer from 1 to ${MAX_ALERT_PAGE}`);
  }
  const after = given.cursor === undefined ? undefined : decodeCursor(given.cursor);
  if (given.cursor !== undefined && !after) throw badRequest('cursor is not a cursor this service handed out');
  return { state: state as AlertState, limit, after };
}
