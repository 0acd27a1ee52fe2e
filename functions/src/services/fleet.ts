import { listKiosks } from '../data/kiosks';
import { allTelemetry } from '../data/kioskTelemetry';
import { toKioskView } from '../domain/kiosk';
import { NO_TELEMETRY } from '../domain/telemetry';
import type { AdminKioskView } from '../model/fleetViews';
import { ALERT_KINDS } from '../model/vocabulary';

/** A kiosk as admins see it: the public view, its telemetry and the kinds of its open alerts. */
export type { AdminKioskView };

/**
 * Every kiosk with its telemetry, by id: two queries (kiosks, kioskTelemetry) joined
 * here. A kiosk broken by hand is left out and logged, as in GET /kiosks.
 */
export async function fleetOverview(now: Date, onlineMinutes: number): Promise<AdminKioskView[]> {
  const [kiosks, telemetry] = await Promise.all([listKiosks(undefined), allTelemetry()]);
  return kiosks
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((kiosk) => {
      const stored = telemetry.get(kiosk.id);
      const { fillLevel, firmwareVersion, errorCode } = stored ?? NO_TELEMETRY;
      return {
        ...toKioskView(kiosk, now, onlineMinutes),
        fillLevel,
        firmwareVersion,
        errorCode,
        openAlerts: ALERT_KINDS.filter((kind) => stored?.openAlerts[kind] !== undefined),
      };
    });
}
