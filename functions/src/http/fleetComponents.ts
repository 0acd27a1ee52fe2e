/**
 * The response schemas of the fleet's admin views (kiosks with telemetry, alerts, the
 * daily report), with an example of each; componentSchemas.ts names them.
 */
import type { AlertView } from '../data/alerts';
import { ALERT_KINDS, type AlertKind } from '../domain/alerts';
import type { KioskDayRow } from '../domain/kioskDays';
import type { AdminKioskView } from '../services/fleet';
import { kioskExample, kioskSchema, objectSchemaOf } from './components';
import { count, id } from './schemaFields';

const fillPercent = { type: 'integer', minimum: 0, maximum: 100, nullable: true } as const;
const deviceText = { type: 'string', nullable: true } as const;
const alertKind = { type: 'string', enum: ALERT_KINDS as unknown as AlertKind[] } as const;

export const adminKioskSchema = objectSchemaOf<AdminKioskView>(
  'A kiosk as admins see it (GET /admin/kiosks): the public view, its telemetry and its open alerts.',
  {
    ...kioskSchema.properties,
    fillLevel: {
      type: 'object',
      description: 'Percent full per bin as last reported; null: never reported',
      properties: { plastic: fillPercent, metal: fillPercent },
      required: ['plastic', 'metal'],
      additionalProperties: false,
    },
    firmwareVersion: { ...deviceText, description: 'As last reported; null: never reported' },
    errorCode: { ...deviceText, description: 'The error the kiosk last reported; null: none' },
    openAlerts: {
      type: 'array',
      items: alertKind,
      uniqueItems: true,
      description: 'The kinds of the alerts open for the kiosk now',
    },
  },
);

export const alertSchema = objectSchemaOf<AlertView>(
  'An alert: open while its condition holds (`bin-full`: a bin at or above FILL_ALERT_PERCENT; `error`: an ' +
    'error code reported; `silent`: available but not seen for KIOSK_ONLINE_MINUTES), then resolved.',
  {
    id,
    kioskId: id,
    kind: alertKind,
    openedAt: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC' },
    resolvedAt: {
      type: 'string',
      format: 'date-time',
      nullable: true,
      description: 'ISO 8601 UTC; null while the alert is open',
    },
    detail: { type: 'string', description: 'What was seen when the alert opened, for people' },
  },
);

export const kioskDaySchema = objectSchemaOf<KioskDayRow>(
  "One kiosk's figures of one UTC day (the day the kiosk took the deposits, `occurredAt`).",
  {
    kioskId: id,
    day: { type: 'string', format: 'date', description: 'The UTC day, YYYY-MM-DD' },
    transactions: { ...count, description: 'Transactions recorded for that day' },
    plasticCount: { ...count, description: 'Plastic items of those transactions' },
    metalCount: { ...count, description: 'Metal items of those transactions' },
    points: { ...count, description: 'Points those transactions earned (after the daily cap)' },
  },
);

export const adminKioskExample: AdminKioskView = {
  ...kioskExample,
  fillLevel: { plastic: 93, metal: 41 },
  firmwareVersion: '2.4.1',
  errorCode: null,
  openAlerts: ['bin-full'],
};

export const alertExample: AlertView = {
  id: 'Hq2f8Xk1sW0bZ3pL9aYc',
  kioskId: 'berlin-alexanderplatz',
  kind: 'bin-full',
  openedAt: '2026-11-23T09:41:12.000Z',
  resolvedAt: null,
  detail: 'Bin full: plastic 93% (alert at 90%)',
};
