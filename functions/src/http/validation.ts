import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { IDEMPOTENCY_KEY_RULE } from '../domain/idempotency';
import { badRequest } from '../errors';
import type { BodySchemaName } from '../model/requestBodies';

/*
 * ajv, TypeBox and each schema are loaded and compiled on first use: a request that
 * carries no body (most reads) never pays for them at cold start.
 */
let ajv: Ajv | undefined;
const validators = new Map<BodySchemaName, ValidateFunction>();
const requestBodies = () => require('../model/requestBodies') as typeof import('../model/requestBodies');

function createAjv(): Ajv {
  const AjvClass = (require('ajv') as typeof import('ajv')).default;
  const addFormats = (require('ajv-formats') as typeof import('ajv-formats')).default;
  const instance = new AjvClass({ allErrors: false, strict: true, coerceTypes: false });
  addFormats(instance, ['email', 'date-time']);
  return instance;
}

function compile(schema: object): ValidateFunction {
  ajv ??= createAjv();
  return ajv.compile(schema);
}

function validatorFor(name: BodySchemaName): ValidateFunction {
  let validate = validators.get(name);
  if (!validate) {
    validate = compile(requestBodies().bodySchemas[name]);
    validators.set(name, validate);
  }
  return validate;
}

let emailValidator: ValidateFunction | undefined;

/**
 * A query value that must be an e-mail address, by the same rule as a body's (e.g.
 * `POST /send-otp-email`); a 400 naming `name` when it is missing, blank or not one.
 */
export function assertEmailAddress(value: string | undefined, name: string): string {
  if (value === undefined || value.trim() === '') throw badRequest(`${name} is required`);
  const { emailAddress, MAX_EMAIL_LENGTH } = require('../model/fields') as typeof import('../model/fields');
  emailValidator ??= compile(emailAddress);
  if (!emailValidator(value)) {
    throw badRequest(`${name} must be a valid e-mail address of at most ${MAX_EMAIL_LENGTH} characters`);
  }
  return value;
}

const FCM_TOKEN_RULE = 'must be printable ASCII characters without spaces (an FCM registration token)';
const PATTERN_MESSAGES: Record<string, string> = {
  otp: 'otp must be 4-10 digits',
  token: `token ${FCM_TOKEN_RULE}`,
  pushToken: `pushToken ${FCM_TOKEN_RULE}`,
  firmwareVersion: 'firmwareVersion must be printable ASCII characters',
  errorCode: 'errorCode must be printable ASCII characters',
  reason: 'reason must contain a character other than white space',
  idempotencyKey: `idempotencyKey must be ${IDEMPOTENCY_KEY_RULE}`,
};
/** The values a `not` keyword refuses, in words. */
const NOT_MESSAGES: Record<string, string> = {
  points: 'points must not be 0',
};

/**
 * No body of this API nests containers deeper than 4 (a batch: body, list, item,
 * fillLevel-like object); past this, the body is refused before anything walks it,
 * so no recursion here or later (the Unicode check, canonicalJson) can overflow the stack.
 */
export const MAX_BODY_DEPTH = 8;

/** Whether arrays and objects nest deeper than `limit`, found without recursion. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth === limit) return true;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 });
  }
  return false;
}

/**
 * JSON may carry lone UTF-16 surrogates ("\ud800"), which Firestore cannot store:
 * every string and key must be well-formed Unicode. Returns the first offending path.
 */
function findMalformedText(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.isWellFormed() ? undefined : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findMalformedText(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const child = path ? `${path}.${key}` : key;
      if (!key.isWellFormed()) return path || 'request body';
      const found = findMalformedText(item, child);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

const fieldName = (instancePath: string): string => instancePath.slice(1).replace(/\//g, '.');

/** One sentence that names the offending field, e.g. "plasticCount must be <= 1000". */
export function describeError(error: ErrorObject): string {
  const field = fieldName(error.instancePath);
  const inField = (name: string) => (field ? `${field}.${name}` : name);
  if (error.propertyName !== undefined) {
    return `${field} has an invalid key "${error.propertyName}": ${requestBodies().DATA_KEY_RULE}`;
  }
  switch (error.keyword) {
    case 'required':
      return `${inField(String(error.params.missingProperty))} is required`;
    case 'additionalProperties':
      return `${inField(String(error.params.additionalProperty))} is not a known field`;
    case 'enum':
      return `${field} must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    case 'format':
      return error.params.format === 'date-time'
        ? `${field} must be an RFC 3339 date-time with an offset, e.g. 2026-11-23T09:30:00Z`
        : `${field} must be a valid ${String(error.params.format)}`;
    case 'pattern':
      return PATTERN_MESSAGES[field] ?? `${field} has an invalid format`;
    case 'not':
      return NOT_MESSAGES[field] ?? `${field} has a value it must not have`;
    default:
      return field ? `${field} ${error.message}` : `request body ${error.message}`;
  }
}

export function validateBody<T>(name: BodySchemaName, body: unknown): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('request body must be a JSON object');
  }
  if (nestsDeeperThan(body, MAX_BODY_DEPTH)) {
    throw badRequest(`request body nests arrays or objects deeper than ${MAX_BODY_DEPTH} levels`);
  }
  const validate = validatorFor(name);
  if (!validate(body)) throw badRequest(describeError(validate.errors![0]));
  const malformed = findMalformedText(body);
  if (malformed !== undefined) throw badRequest(`${malformed} must be valid Unicode text`);
  return body as T;
}
