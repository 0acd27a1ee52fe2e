/**
 * The API described by itself (GET /openapi.json): an OpenAPI 3.1 document built from
 * the routes, so it cannot drift from them. Request bodies are the very schemas
 * validation.ts checks them with (schemas.ts), response bodies the schemas each route
 * declares beside its handler (routes/*.ts, shared parts in components.ts). What every
 * route has in common is added here: the answers of its credential check (by the
 * route's `access`) and the protocol errors of api.ts and router.ts.
 *
 * Loaded on the first request of /openapi.json only, never at cold start
 * (test/unit/cold-start.test.ts).
 */
import type { ErrorCode } from '../errors';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../domain/idempotency';
import { MAX_ID_LENGTH } from '../domain/ids';
import { MAX_BODY_BYTES } from './api';
import { componentSchemas } from './components';
import { routes as allRoutes } from './routes';
import { SERVICE_NAME, SERVICE_VERSION } from './routes/health';
import { bodySchemas, type BodySchemaName } from './schemas';
import {
  API_TAGS,
  type Access,
  type AnyRoute,
  type ApiTag,
  type ErrorResponse,
  type JsonSchema,
  type ResponseHeader,
  type SuccessResponse,
} from './types';

type Json = Record<string, unknown>;

/** The base URLs of contract §0: the emulator suite of `npm start`, and a deployed project. */
const SERVERS = [
  {
    url: 'https://{region}-{project}.cloudfunctions.net/api',
    description: 'Deployed to a Firebase project',
    variables: {
      region: { default: 'us-central1', enum: ['us-central1'], description: 'The region the functions run in' },
      project: { default: 'kiosk-rewards-prod', description: 'Your Firebase project id' },
    },
  },
  {
    url: 'http://127.0.0.1:5001/demo-kiosk-rewards/us-central1/api',
    description: 'The local emulator suite (`npm start`)',
  },
];

const TAG_DESCRIPTIONS: Record<ApiTag, string> = {
  Service: 'The service itself: is it up, and this description.',
  'Kiosk devices': 'What a kiosk sends, with its own API key in the `X-API-Key` header.',
  Kiosks: 'Kiosks as anyone sees them, e.g. on the map of the app. No credentials.',
  Users:
    "The app's signed-in user: points, rank and push registration. A Firebase ID token of that user (or of an admin).",
  'Sign-in': 'One-time codes by mail, for an app that signs users in with them.',
  Notifications: 'Pushes sent by operators. An admin ID token.',
  Administration: 'Kiosks and their API keys, the fleet (telemetry, alerts), for operators. An admin ID token.',
};

const INTRODUCTION = `
The backend of recycling kiosks that turn bottles and cans into reward points. Kiosks
report their status and submit transactions; apps read points and show kiosks on a
map; operators manage kiosks and send pushes.

## Credentials

| Caller | Header | Scheme |
|---|---|---|
| Kiosk | \`X-API-Key: <key>\`, a per-kiosk key an operator issues (revocable) | \`kioskApiKey\` |
| App user | \`Authorization: Bearer <Firebase ID token>\`; the user reaches their own data only | \`firebaseIdToken\` |
| Operator | the same, with the custom claim \`admin: true\` (the role \`admin\` below) | \`firebaseIdToken\` |

A missing or invalid credential is **401**; a valid one for something else (another
kiosk's key, another user's token, no admin claim) is **403**. When an ID token cannot
be checked at that moment (Google's keys or the Auth backend out of reach) the answer
is **503** with \`Retry-After\`: it says nothing about the token. An admin token of a
disabled account, or one issued before the account's tokens were revoked, is refused
at once; a user's own data honours such a token until it expires (at most 1 h).

## Errors

Every error is JSON: \`{ "error": "<a sentence for people>", "code": "<for programs>" }\`.
Each response below lists the codes it can carry. Besides each operation's own, every
operation can answer:

| Status | Code | When |
|---|---|---|
| 400 | \`invalid-argument\` | a path id, query parameter, header or body field that is not valid (the message names it), an unknown query parameter or body field, a body on an operation that takes none; JSON the hosting runtime cannot parse is refused by the runtime itself, as an HTML page |
| 413 | \`payload-too-large\` | a body over ${MAX_BODY_BYTES} bytes |
| 415 | \`unsupported-media-type\` | a body that is not \`application/json\` |
| 500 | \`internal\` | an unexpected failure; the body holds no internals |

A path that is no operation is **404** (\`not-found\`); a path that exists with another
method is **405** (\`method-not-allowed\`) with an \`Allow\` header listing the methods
it serves (components \`NoSuchEndpoint\` and \`MethodNotAllowed\`). \`HEAD\` is served
wherever \`GET\` is, and \`OPTIONS\` on every path answers 204 with \`Allow\` (and, for
the browser origins the service is configured with, the CORS headers). Path ids are
1-${MAX_ID_LENGTH} characters, without \`/\`, and not \`.\`, \`..\` or \`__…__\`.
Responses are never cached (\`Cache-Control: no-store\`).

## Retries

\`POST /kiosk/transaction\` takes an \`Idempotency-Key\`: repeat a request with the same
key after a timeout or a lost connection, and it is answered as the first one was,
never awarded twice. A 429 or 503 says in \`Retry-After\` when to try again.

## Versions

\`info.version\` is the API's version: \`1.x\` only ever adds (operations, optional
fields, response fields, error codes), so a client built from any \`1.x\` keeps working.

## Clients

This document is served at \`/openapi.json\`; generate a client from it, e.g.
\`npx openapi-typescript <base URL>/openapi.json -o kiosk-rewards.d.ts\` (TypeScript
types) or \`openapi-generator-cli generate -i <base URL>/openapi.json -g kotlin -o client\`
(any language openapi-generator supports).
`.trim();

/** What a credential check of each kind can answer, besides letting the caller in. */
const SECURITY: Record<Exclude<Access, 'public'>, { requirement: Json; note: string }> = {
  kiosk: { requirement: { kioskApiKey: [] }, note: "The kiosk's own API key (`X-API-Key`)." },
  user: {
    requirement: { firebaseIdToken: [] },
    note: 'A Firebase ID token of that user, or of an admin (`Authorization: Bearer`).',
  },
  admin: { requirement: { firebaseIdToken: ['admin'] }, note: 'A Firebase ID token with the `admin` claim.' },
};

/** One answer that a status of an operation stands for; several are merged into one response. */
interface Contribution extends Omit<ErrorResponse, 'headers'> {
  /** Shared answers are components.responses: referenced when they stand alone. */
  name?: string;
  headers?: readonly (ResponseHeader | 'Allow')[];
}

const idTokenUnavailable: Contribution = {
  name: 'SignInUnavailable',
  description:
    "The ID token could not be checked right now (Google's keys or the Auth backend out of reach); try again " +
    'after `Retry-After` seconds',
  codes: ['auth-unavailable'],
  headers: ['Retry-After'],
};

const CREDENTIAL_ANSWERS: Record<Exclude<Access, 'public'>, Partial<Record<number, Contribution>>> = {
  kiosk: {
    401: {
      name: 'KioskKeyMissing',
      description: 'No `X-API-Key`, or a key that is unknown or revoked',
      codes: ['unauthenticated'],
    },
    403: {
      name: 'KioskKeyOfOtherKiosk',
      description: 'The key belongs to another kiosk',
      codes: ['permission-denied'],
    },
  },
  user: {
    401: {
      name: 'IdTokenMissing',
      description: 'No `Authorization: Bearer` ID token, or one that is invalid or expired',
      codes: ['unauthenticated'],
    },
    403: {
      name: 'OtherUser',
      description: "Another user's data, without the admin claim",
      codes: ['permission-denied'],
    },
    503: idTokenUnavailable,
  },
  admin: {
    401: {
      name: 'AdminTokenMissing',
      description:
        'No `Authorization: Bearer` ID token, or one that is invalid, expired, of a disabled account, or issued ' +
        "before the account's tokens were revoked",
      codes: ['unauthenticated'],
    },
    403: { name: 'NotAdmin', description: 'The ID token has no `admin` claim', codes: ['permission-denied'] },
    503: idTokenUnavailable,
  },
};

/** Every operation can answer these (api.ts, router.ts). */
const PROTOCOL_ANSWERS: Record<number, Contribution> = {
  400: {
    name: 'BadRequest',
    description:
      'A path id, query parameter, header or body field that is not valid (the message names it), text that is ' +
      'not valid Unicode, an unknown query parameter or body field, or a body on an operation that takes none. ' +
      'JSON that cannot be parsed is refused by the hosting runtime itself, as an HTML page',
    codes: ['invalid-argument'],
  },
  413: {
    name: 'PayloadTooLarge',
    description: `The body is over ${MAX_BODY_BYTES} bytes`,
    codes: ['payload-too-large'],
  },
  415: {
    name: 'UnsupportedMediaType',
    description: 'The body is not `application/json`',
    codes: ['unsupported-media-type'],
  },
  500: {
    name: 'InternalError',
    description: 'An unexpected failure; the body holds no internals',
    codes: ['internal'],
  },
};

/** Answers to a request that is no operation: described once, as components.responses. */
const NO_OPERATION_ANSWERS: Record<number, Contribution> = {
  404: { name: 'NoSuchEndpoint', description: 'No operation has this path', codes: ['not-found'] },
  405: {
    name: 'MethodNotAllowed',
    description: 'The path exists, with other methods (listed in `Allow`)',
    codes: ['method-not-allowed'],
    headers: ['Allow'],
  },
};

const HEADERS: Record<ResponseHeader | 'Allow', Json> = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  Allow: {
    description: 'The methods the path serves, e.g. `GET, HEAD`',
    required: true,
    schema: { type: 'string' },
  },
};
const headerComponentName = (header: string): string => header.replace(/-/g, '');

/** Path ids follow Firestore's document id rules (domain/ids.ts). */
const PATH_ID_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_ID_LENGTH,
  pattern: '^(?!\\.\\.?$)(?!__[\\s\\S]*__$)[^/]+$',
};
const PATH_ID_RULE = `1-${MAX_ID_LENGTH} characters, without "/", and not ".", ".." or "__…__" (a Firestore document id)`;
const PATH_PARAMETERS: Record<string, string> = {
  kioskId: "The kiosk's id",
  userId: "The user's id: their Firebase Auth uid",
  keyId: 'The key id (SHA-256 of the key, hex) that was returned when the key was issued',
};

const componentNames = new Map<unknown, string>(
  Object.entries(componentSchemas).map(([name, schema]) => [schema, name]),
);
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const bodySchemaComponentName = (name: BodySchemaName): string => name[0].toUpperCase() + name.slice(1);

/**
 * A schema as the document states it: a copy in JSON Schema 2020-12, with ajv's
 * `nullable` written as a type union (ajv then refuses null only where an `enum`
 * lacks it, so such a type stays as is) and every shared schema as a reference.
 */
export function toDocumentSchema(schema: JsonSchema, self?: JsonSchema): Json {
  const name = componentNames.get(schema);
  if (name !== undefined && schema !== self) return schemaRef(name);
  const { nullable, ...keywords } = schema as Json;
  const out: Json = {};
  for (const [keyword, value] of Object.entries(keywords)) {
    if (keyword === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([property, sub]) => [property, toDocumentSchema(sub)]),
      );
    } else if (
      ['items', 'additionalProperties', 'propertyNames', 'not'].includes(keyword) &&
      typeof value === 'object'
    ) {
      out[keyword] = toDocumentSchema(value as JsonSchema);
    } else if (['allOf', 'anyOf', 'oneOf'].includes(keyword)) {
      out[keyword] = (value as JsonSchema[]).map((sub) => toDocumentSchema(sub));
    } else {
      out[keyword] = structuredClone(value);
    }
  }
  const enumRefusesNull = Array.isArray(out.enum) && !out.enum.includes(null);
  if (nullable === true && typeof out.type === 'string' && !enumRefusesNull) out.type = [out.type, 'null'];
  return out;
}

const errorSchemaFor = (codes: readonly ErrorCode[]): Json => ({
  type: 'object',
  allOf: [schemaRef('ErrorBody')],
  properties: { code: { type: 'string', enum: [...codes] } },
});

function headersOf(names: readonly string[] | undefined): Json | undefined {
  if (!names?.length) return undefined;
  return Object.fromEntries(
    names.map((header) => [header, { $ref: `#/components/headers/${headerComponentName(header)}` }]),
  );
}

function errorResponse(status: number, { description, codes, headers }: Contribution): Json {
  const content: Json = { 'application/json': { schema: errorSchemaFor(codes) } };
  if (status === 400) {
    content['text/html'] = {
      schema: { type: 'string', description: 'Malformed JSON, refused by the hosting runtime before the service runs' },
    };
  }
  return { description, ...(headers?.length && { headers: headersOf(headers) }), content };
}

/** The contributions of one status merged: descriptions listed, codes and headers united. */
function mergedResponse(status: number, contributions: Contribution[]): Json {
  if (contributions.length === 1 && contributions[0].name) {
    return { $ref: `#/components/responses/${contributions[0].name}` };
  }
  const unite = <T>(lists: (readonly T[] | undefined)[]): T[] => [...new Set(lists.flatMap((list) => list ?? []))];
  return errorResponse(status, {
    description:
      contributions.length === 1
        ? contributions[0].description
        : contributions.map((contribution) => `- ${contribution.description}`).join('\n'),
    codes: unite(contributions.map((contribution) => contribution.codes)),
    headers: unite(contributions.map((contribution) => contribution.headers)),
  });
}

function successResponse({ description, schema, example, headers }: SuccessResponse): Json {
  return {
    description,
    ...(headers?.length && { headers: headersOf(headers) }),
    content: { 'application/json': { schema: toDocumentSchema(schema), example } },
  };
}

const pathParameterNames = (path: string): string[] =>
  path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));

export const documentPath = (path: string): string => path.replace(/:([A-Za-z]+)/g, '{$1}');

function parametersOf(route: AnyRoute): Json[] {
  const parameters: Json[] = pathParameterNames(route.path).map((name) => {
    if (!(name in PATH_PARAMETERS)) throw new Error(`${route.path}: path parameter ${name} has no description`);
    return { $ref: `#/components/parameters/${name}` };
  });
  for (const [name, { description, schema }] of Object.entries(route.query ?? {})) {
    parameters.push({ name, in: 'query', required: false, description, schema: toDocumentSchema(schema) });
  }
  if (route.doc.headers?.includes('Idempotency-Key'))
    parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  return parameters;
}

function requestBodyOf(route: AnyRoute): Json | undefined {
  if (!route.bodySchema) return undefined;
  if (route.doc.example === undefined)
    throw new Error(`${route.method} ${route.path}: the request body has no example`);
  const schema = bodySchemas[route.bodySchema] as JsonSchema;
  return {
    // A body schema without required fields also takes no body at all (api.ts reads it as {}).
    required: ((schema.required as string[] | undefined) ?? []).length > 0,
    content: {
      'application/json': { schema: schemaRef(bodySchemaComponentName(route.bodySchema)), example: route.doc.example },
    },
  };
}

function responsesOf(route: AnyRoute): Json {
  const { responses, access } = route.doc;
  const out: Json = {};
  const byStatus = new Map<number, Contribution[]>();
  const add = (status: number, contribution: Contribution | undefined) => {
    if (contribution) byStatus.set(status, [...(byStatus.get(status) ?? []), contribution]);
  };
  for (const [status, response] of Object.entries(responses)) {
    if (Number(status) < 300) out[status] = successResponse(response as SuccessResponse);
    else add(Number(status), response as ErrorResponse);
  }
  if (access !== 'public') {
    for (const [status, contribution] of Object.entries(CREDENTIAL_ANSWERS[access])) add(Number(status), contribution);
  }
  for (const [status, contribution] of Object.entries(PROTOCOL_ANSWERS)) add(Number(status), contribution);
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    out[String(status)] = mergedResponse(status, byStatus.get(status)!);
  }
  return out;
}

function operationOf(route: AnyRoute): Json {
  const { operationId, summary, description, tag, access } = route.doc;
  const parameters = parametersOf(route);
  const requestBody = requestBodyOf(route);
  return {
    operationId,
    summary,
    description: access === 'public' ? description : `${description}\n\n**Credentials:** ${SECURITY[access].note}`,
    tags: [tag],
    security: access === 'public' ? [] : [SECURITY[access].requirement],
    ...(parameters.length > 0 && { parameters }),
    ...(requestBody && { requestBody }),
    responses: responsesOf(route),
  };
}

function componentResponses(): Json {
  const out: Json = {};
  for (const answers of [PROTOCOL_ANSWERS, ...Object.values(CREDENTIAL_ANSWERS), NO_OPERATION_ANSWERS]) {
    for (const [status, contribution] of Object.entries(answers)) {
      out[contribution!.name!] = errorResponse(Number(status), contribution!);
    }
  }
  return out;
}

/** The whole document for these routes (by default every route of the api). */
export function openApiDocument(routes: readonly AnyRoute[] = allRoutes): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const path = documentPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route) };
  }
  const schemas: Json = {};
  for (const [name, schema] of Object.entries(componentSchemas)) schemas[name] = toDocumentSchema(schema, schema);
  for (const [name, schema] of Object.entries(bodySchemas)) {
    schemas[bodySchemaComponentName(name as BodySchemaName)] = toDocumentSchema(schema as JsonSchema);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: SERVICE_NAME,
      version: SERVICE_VERSION,
      summary: 'Recycling kiosks that turn bottles and cans into reward points',
      description: INTRODUCTION,
    },
    servers: SERVERS,
    tags: API_TAGS.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    paths,
    components: {
      schemas,
      parameters: {
        ...Object.fromEntries(
          Object.entries(PATH_PARAMETERS).map(([name, description]) => [
            name,
            {
              name,
              in: 'path',
              required: true,
              description: `${description}. ${PATH_ID_RULE}`,
              schema: PATH_ID_SCHEMA,
            },
          ]),
        ),
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes retries safe: a repeat with the same key from the same kiosk within 24 hours is answered with ' +
            'the stored response and awards nothing again; the same key with another body is 422',
          schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
        },
      },
      headers: Object.fromEntries(Object.entries(HEADERS).map(([name, header]) => [headerComponentName(name), header])),
      responses: componentResponses(),
      securitySchemes: {
        kioskApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'A per-kiosk key, issued by an operator (POST /admin/kiosks/{kioskId}/keys) and revocable.',
        },
        firebaseIdToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A Firebase Auth ID token of the signed-in user (`getIdToken()` of the Firebase SDKs). The role `admin` ' +
            'is the custom claim `admin: true`, granted by an operator.',
        },
      },
    },
  };
}
