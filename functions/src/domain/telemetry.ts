import type { KioskStatusBody } from '../model/requestBodies';

/** What a kiosk reports about itself beyond its status (POST /kiosk/{id}/status), shown to admins only. */
export const MATERIALS = ['plastic', 'metal'] as const;
export type Material = (typeof MATERIALS)[number];

/** Percent full per bin; null until the kiosk first reports it. */
export type FillLevel = Record<Material, number | null>;

export interface Telemetry {
  fillLevel: FillLevel;
  firmwareVersion: string | null;
  errorCode: string | null;
}

/** A report as received, once its schema passed: null is omitted, except that `errorCode: null` clears it. */
export type TelemetryReport = Omit<KioskStatusBody, 'status'>;

export const NO_TELEMETRY: Telemetry = {
  fillLevel: { plastic: null, metal: null },
  firmwareVersion: null,
  errorCode: null,
};

/** Whether the report changes anything of the telemetry (else it is a plain status report). */
export const reportsTelemetry = (report: TelemetryReport): boolean =>
  report.fillLevel != null || report.firmwareVersion != null || report.errorCode !== undefined;

/** The telemetry after a report: what it names replaces what was stored, per bin; the rest keeps its last value. */
export function mergeTelemetry(stored: Telemetry, report: TelemetryReport): Telemetry {
  const fillLevel = { ...stored.fillLevel };
  for (const material of MATERIALS) {
    const level = report.fillLevel?.[material];
    if (level != null) fillLevel[material] = level;
  }
  return {
    fillLevel,
    firmwareVersion: report.firmwareVersion ?? stored.firmwareVersion,
    errorCode: report.errorCode === undefined ? stored.errorCode : report.errorCode,
  };
}
