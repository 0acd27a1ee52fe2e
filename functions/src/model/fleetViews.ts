/**
 * The response schemas of the fleet's admin views (kiosks with telemetry, their API
 * keys, alerts, the daily report), in TypeBox; the views' types are derived from them.
 */
import { Type, type Static } from '@sinclair/typebox';
import { closedObject, count, id, nullable, stringEnum } from './fields';
import { Kiosk } from './views';
import { ALERT_KINDS } from './vocabulary';

const fillPercent = nullable(Type.Integer({ minimum: 0, maximum: 100 }));
const deviceText = nullable(Type.String());
const alertKind = stringEnum(ALERT_KINDS);

export const AdminKiosk = closedObject(
  {
    ...Kiosk.properties,
    fillLevel: closedObject(
      { plastic: fillPercent, metal: fillPercent },
      { description: 'Percent full per bin as last reported; null: never reported' },
    ),
    firmwareVersion: { ...deviceText, description: 'As last reported; null: never reported' },
    errorCode: { ...deviceText, description: 'The error the kiosk last reported; null: none' },
    openAlerts: Type.Array(alertKind, {
      uniqueItems: true,
      description: 'The kinds of the alerts open for the kiosk now',
    }),
  },
  {
    $id: 'AdminKiosk',
    description: 'A kiosk as admins see it (GET /admin/kiosks): the public view, its telemetry and its open alerts.',
  },
);
export type AdminKioskView = Static<typeof AdminKiosk>;

/** An API key's id (kiosk or partner): the SHA-256 the service keeps instead of the key. */
export const apiKeyId = Type.String({
  pattern: '^[0-9a-f]{64}$',
  description: 'SHA-256 of the key, hex; revoke by it',
});

export const KioskKey = closedObject(
  {
    keyId: apiKeyId,
    label: Type.String({ description: 'What the operator called it when it was issued ("" if nothing)' }),
    createdAt: Type.String({ format: 'date-time', description: 'When it was issued, ISO 8601 UTC' }),
    revokedAt: nullable(Type.String({ format: 'date-time', description: 'When it was revoked; null: it works' })),
  },
  { $id: 'KioskKey', description: 'An API key of a kiosk, as operators see it: never the key itself.' },
);
export type KioskKeyView = Static<typeof KioskKey>;

export const Alert = closedObject(
  {
    id,
    kioskId: id,
    kind: alertKind,
    openedAt: Type.String({ format: 'date-time', description: 'ISO 8601 UTC' }),
    resolvedAt: nullable(
      Type.String({ format: 'date-time', description: 'ISO 8601 UTC; null while the alert is open' }),
    ),
    detail: Type.String({ description: 'What was seen when the alert opened, for people' }),
  },
  {
    $id: 'Alert',
    description:
      'An alert: open while its condition holds (`bin-full`: a bin at or above FILL_ALERT_PERCENT; `error`: an ' +
      'error code reported; `silent`: available but not seen for KIOSK_ONLINE_MINUTES), then resolved.',
  },
);
export type AlertView = Static<typeof Alert>;

export const KioskDay = closedObject(
  {
    kioskId: id,
    day: Type.String({ format: 'date', description: 'The UTC day, YYYY-MM-DD' }),
    transactions: { ...count, description: 'Transactions recorded for that day' },
    plasticCount: { ...count, description: 'Plastic items of those transactions' },
    metalCount: { ...count, description: 'Metal items of those transactions' },
    points: { ...count, description: 'Points those transactions earned (after the daily cap)' },
  },
  {
    $id: 'KioskDay',
    description: "One kiosk's figures of one UTC day (the day the kiosk took the deposits, `occurredAt`).",
  },
);
export type KioskDayRow = Static<typeof KioskDay>;
