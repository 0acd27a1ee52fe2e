/**
 * A TypeBox schema as the API description states it: plain JSON Schema 2020-12,
 * without TypeBox's symbol keys or the `$id` that names a component, with ajv's
 * `nullable` written as a type union (ajv then refuses null only where an `enum`
 * lacks it, so such a type stays as is), and every component as a reference.
 */
import type { TSchema } from '@sinclair/typebox';
import { AdminKiosk, Alert, KioskDay, KioskKey } from '../../model/fleetViews';
import { AdminReward, RedeemedFrom, Redemption, Reward } from '../../model/pointsViews';
import { Webhook, WebhookDelivery } from '../../model/webhookViews';
import { ErrorBody, Kiosk, NearbyKiosk, PushResponse, Transaction, User } from '../../model/views';
import { Partner, PartnerKey, Voucher } from '../../model/partnerViews';
import { AdminPromotion, BreakdownEntry, PublicPromotion } from '../../model/promotionViews';
import { Hold } from '../../model/trustViews';

export type Json = Record<string, unknown>;

/** The document's components.schemas, in its order; each is named by its `$id`. */
export const COMPONENT_SCHEMAS: readonly TSchema[] = [
  ErrorBody,
  Kiosk,
  NearbyKiosk,
  User,
  Transaction,
  PushResponse,
  KioskDay,
  AdminKiosk,
  KioskKey,
  Alert,
  Reward,
  AdminReward,
  Redemption,
  RedeemedFrom,
  // Webhooks (contract §13).
  Webhook,
  WebhookDelivery,
  // Partners and vouchers (§12)
  Partner,
  PartnerKey,
  Voucher,
  // Promotions (contract §16).
  BreakdownEntry,
  PublicPromotion,
  AdminPromotion,
  // Trust (contract §17).
  Hold,
];
const componentNames = new Set(COMPONENT_SCHEMAS.map((schema) => schema.$id));

export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Keywords whose value is a schema, and those whose value is a list of schemas. */
const SUBSCHEMA = ['items', 'additionalProperties', 'propertyNames', 'not'];
const SUBSCHEMAS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords written first and last, in this order, the others between them as declared. */
const FIRST = ['type', 'prefixItems', 'items'];
const LAST = ['properties', 'required', 'additionalProperties'];

/** `schema` as the document states it; `self` is the component being stated (not a reference to itself). */
export function toDocumentSchema(schema: TSchema, self?: TSchema): Json {
  const { $id, nullable, ...keywords } = schema as Json;
  if (typeof $id === 'string' && schema !== self) {
    if (!componentNames.has($id)) throw new Error(`${$id} is no component of the API description`);
    return schemaRef($id);
  }
  const middle = Object.keys(keywords).filter((keyword) => !FIRST.includes(keyword) && !LAST.includes(keyword));
  const out: Json = {};
  for (const keyword of [...FIRST, ...middle, ...LAST].filter((name) => Object.hasOwn(keywords, name))) {
    const value = keywords[keyword];
    if (keyword === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, TSchema>).map(([property, sub]) => [property, toDocumentSchema(sub)]),
      );
    } else if (SUBSCHEMA.includes(keyword) && typeof value === 'object') {
      out[keyword] = toDocumentSchema(value as TSchema);
    } else if (SUBSCHEMAS.includes(keyword)) {
      out[keyword] = (value as TSchema[]).map((sub) => toDocumentSchema(sub));
    } else {
      out[keyword] = structuredClone(value);
    }
  }
  const enumRefusesNull = Array.isArray(out.enum) && !out.enum.includes(null);
  if (nullable === true && typeof out.type === 'string' && !enumRefusesNull) out.type = [out.type, 'null'];
  return out;
}
