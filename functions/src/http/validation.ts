import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { badRequest } from '../errors';
import { bodySchemas, type BodySchemaName } from './schemas';

/*
 * ajv and each schema are compiled on first use: a request that carries no body
 * (most reads) never pays for them at cold start.
 */
let ajv: Ajv | undefined;
const validators = new Map<BodySchemaName, ValidateFunction>();

function createAjv(): Ajv {
  const AjvClass = (require('ajv') as typeof import('ajv')).default;
  const addFormats = (require('ajv-formats') as typeof import('ajv-formats')).default;
  const instance = new AjvClass({ allErrors: false, strict: true, coerceTypes: false });
  addFormats(instance, ['email']);
  return instance;
}

function validatorFor(name: BodySchemaName): ValidateFunction {
  let validate = validators.get(name);
  if (!validate) {
    ajv ??= createAjv();
    validate = ajv.compile(bodySchemas[name]);
    validators.set(name, validate);
  }
  return validate;
}

const fieldName = (instancePath: string): string => instancePath.slice(1).replace(/\//g, '.');

/** One sentence that names the offending field, e.g. "plasticCount must be <= 1000". */
export function describeError(error: ErrorObject): string {
  const field = fieldName(error.instancePath);
  const inField = (name: string) => (field ? `${field}.${name}` : name);
  if (error.propertyName !== undefined) return `${field} has an invalid key "${error.propertyName}"`;
  switch (error.keyword) {
    case 'required':
      return `${inField(String(error.params.missingProperty))} is required`;
    case 'additionalProperties':
      return `${inField(String(error.params.additionalProperty))} is not a known field`;
    case 'enum':
      return `${field} must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    case 'format':
      return `${field} must be a valid ${String(error.params.format)}`;
    case 'pattern':
      return field === 'otp' ? 'otp must be 4-10 digits' : `${field} has an invalid format`;
    default:
      return field ? `${field} ${error.message}` : `request body ${error.message}`;
  }
}

export function validateBody<T>(name: BodySchemaName, body: unknown): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('request body must be a JSON object');
  }
  const validate = validatorFor(name);
  if (!validate(body)) throw badRequest(describeError(validate.errors![0]));
  return body as T;
}
