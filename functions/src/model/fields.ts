/**
 * The TypeBox building blocks the API's schemas share. TypeBox is loaded only where a
 * schema is used (validation.ts on the first body, the document builder on the first
 * GET /openapi.json), never at cold start: routes reach these modules through type
 * imports and schema thunks only (test/unit/cold-start.test.ts).
 */
import { Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox';
import { MAX_ID_LENGTH } from './limits';

export const id = Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH });
export const title = Type.String({ minLength: 1, maxLength: 200 });
export const count = Type.Integer({ minimum: 0 });

/** An e-mail address: at most 254 characters (RFC 5321's limit on a path), in ajv's `email` format. */
export const MAX_EMAIL_LENGTH = 254;
export const emailAddress = Type.String({ maxLength: MAX_EMAIL_LENGTH, format: 'email' });

/**
 * `schema`, or null: ajv's `nullable` keyword, which the API description writes as a
 * type union. (ajv still refuses null where an `enum` lacks it.)
 */
export const nullable = <T extends TSchema>(schema: T) => Type.Unsafe<Static<T> | null>({ ...schema, nullable: true });

/** One of `values`, as a JSON Schema `enum` of strings (TypeBox's own unions would be `anyOf`s of constants). */
export const stringEnum = <T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });

/**
 * An object with exactly these properties (those not wrapped in `Type.Optional` required), and no other.
 * `$id` makes it a component of the API description: referenced there by that name wherever it is used.
 */
export const closedObject = <T extends TProperties>(
  properties: T,
  options: { $id?: string; description?: string } = {},
) => Type.Object(properties, { ...options, additionalProperties: false });

/** `{ success: true, ... }`, the body of every success of the contract's endpoints. */
export const successBody = <T extends TProperties>(properties: T) =>
  closedObject({ success: Type.Literal(true), ...properties });
