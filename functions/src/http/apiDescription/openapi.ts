/**
 * The API described by itself (GET /openapi.json): an OpenAPI 3.1 document built from
 * the routes, so it cannot drift from them. Request bodies are the very schemas
 * validation.ts checks them with (requestBodies.ts), response bodies and query
 * parameters the schemas each route declares beside its handler (routes/*.ts, built
 * here from the shared views of this folder). What every route has in common is added
 * here: the answers of its credential check (by the route's `access`) and the
 * protocol errors of api.ts and router.ts.
 *
 * Loaded on the first request of /openapi.json only, never at cold start
 * (test/unit/cold-start.test.ts).
 */
import { Type } from '@sinclair/typebox';
import type { ErrorCode } from '../../errors';
import { SERVICE_NAME, SERVICE_VERSION } from '../routes/health';
import type { AnyRoute } from '../types';
import { documentPath } from '../router';
import { API_TAGS, type ErrorResponse, type SchemaKit, type SuccessResponse } from './operation';
import { COMPONENT_SCHEMAS, schemaRef, toDocumentSchema, type Json } from './documentSchema';
import * as fields from '../../model/fields';
import * as fleetViews from '../../model/fleetViews';
import * as pointsViews from '../../model/pointsViews';
import * as partnerViews from '../../model/partnerViews';
import * as promotionViews from '../../model/promotionViews';
import {
  CREDENTIAL_ANSWERS,
  HEADERS,
  NO_OPERATION_ANSWERS,
  PATH_ID_RULE,
  PATH_ID_SCHEMA,
  IDEMPOTENCY_KEY_PARAMETERS,
  PATH_PARAMETERS,
  PROTOCOL_ANSWERS,
  SECURITY,
  headerComponentName,
  headerRef,
  successHeadersOf,
  type Contribution,
} from './protocolAnswers';
import { INTRODUCTION, SERVERS, TAG_DESCRIPTIONS } from './prose';
import { bodySchemas, itemSchemas, type BodySchemaName } from '../../model/requestBodies';
import * as views from '../../model/views';
import * as webhookViews from '../../model/webhookViews';
import * as trustViews from '../../model/trustViews';
import { WEBHOOK_EVENT_TYPES } from '../../model/webhookEventTypes';

/** What the routes' schema thunks build their schemas from. */
const kit: SchemaKit = {
  Type,
  ...fields,
  ...views,
  ...fleetViews,
  ...pointsViews,
  ...webhookViews,
  ...partnerViews,
  ...promotionViews,
  ...trustViews,
};

const bodySchemaComponentName = (name: BodySchemaName): string => name[0].toUpperCase() + name.slice(1);

/**
 * A body schema as documented. A list whose items the route checks one by one takes
 * any object (an invalid item is a 400 result of its own): each item is documented
 * as its schema, or any other object.
 */
function documentedBody(name: BodySchemaName): Json {
  const out = toDocumentSchema(bodySchemas[name]);
  const items = itemSchemas[name];
  if (items) {
    const properties = out.properties as Record<string, Json>;
    properties[items.list] = {
      ...properties[items.list],
      items: {
        anyOf: [
          schemaRef(bodySchemaComponentName(items.item)),
          { type: 'object', description: 'Any other object is answered by a 400 result of its own' },
        ],
      },
    };
  }
  return out;
}

/** `{ error, code }` with one of `codes`; with `fields`, a closed object of its own (ErrorBody allows no more). */
function errorSchemaFor(codes: readonly ErrorCode[], extra?: ErrorResponse['fields']): Json {
  const code = { type: 'string', enum: [...codes] };
  if (!extra) return { type: 'object', allOf: [schemaRef('ErrorBody')], properties: { code } };
  const { error } = views.ErrorBody.properties;
  return toDocumentSchema(fields.closedObject({ error, code: Type.Unsafe<string>(code), ...extra(kit) }));
}

function headersOf(names: readonly string[] | undefined): Json | undefined {
  if (!names?.length) return undefined;
  return Object.fromEntries(names.map((header) => [header, headerRef(header)]));
}

function errorResponse(status: number, { description, codes, headers, fields: extra }: Contribution): Json {
  const content: Json = { 'application/json': { schema: errorSchemaFor(codes, extra) } };
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
    fields: contributions.find((contribution) => contribution.fields)?.fields,
  });
}

function successResponse({ description, schema, example, headers, text }: SuccessResponse): Json {
  const content: Json = { 'application/json': { schema: toDocumentSchema(schema(kit)), example } };
  if (text)
    content[text.mediaType] = { schema: { type: 'string', description: text.description }, example: text.example };
  return { description, ...(headers?.length && { headers: successHeadersOf(headers) }), content };
}

const pathParameterNames = (path: string): string[] =>
  path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));

function parametersOf(route: AnyRoute): Json[] {
  const parameters: Json[] = pathParameterNames(route.path).map((name) => {
    if (!(name in PATH_PARAMETERS)) throw new Error(`${route.path}: path parameter ${name} has no description`);
    return { $ref: `#/components/parameters/${name}` };
  });
  for (const [name, { description, schema, required, explode }] of Object.entries(route.query ?? {})) {
    const style = explode === false && { style: 'form', explode };
    parameters.push({
      name,
      in: 'query',
      required: required === true,
      description,
      ...style,
      schema: toDocumentSchema(schema(kit)),
    });
  }
  if (route.doc.headers?.includes('Idempotency-Key')) {
    const component = route.doc.idempotencyKeyRequired ? 'SpendIdempotencyKey' : 'IdempotencyKey';
    parameters.push({ $ref: `#/components/parameters/${component}` });
  }
  return parameters;
}

function requestBodyOf(route: AnyRoute): Json | undefined {
  if (!route.bodySchema) return undefined;
  if (route.doc.example === undefined)
    throw new Error(`${route.method} ${route.path}: the request body has no example`);
  const { required = [] } = bodySchemas[route.bodySchema] as { required?: string[] };
  return {
    // A body schema without required fields also takes no body at all (api.ts reads it as {}).
    required: required.length > 0,
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

/** The Standard Webhooks headers every event delivery carries. */
const WEBHOOK_HEADERS: Json[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: "The event's id: the same on every attempt of it, to drop a repeat by",
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, in seconds since the epoch (refuse one far from your clock)',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256 of id.timestamp.body>` under the base64-decoded part of the secret after `whsec_`; ' +
      'two, space-separated, for 24 h after a secret is rotated',
    schema: { type: 'string' },
  },
];

/** OpenAPI 3.1 `webhooks`: one per event type, the body as POSTed to a registered webhook. */
function webhookOperations(): Json {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => {
      const body = webhookViews.webhookEventBody(type);
      return [
        type,
        {
          post: {
            operationId: `${type.replace(/\.(\w)/, (_, first: string) => first.toUpperCase())}Event`,
            summary: webhookViews.EVENT_DATA[type].summary,
            description:
              `POSTed to every active webhook that takes \`${type}\` (POST /admin/webhooks), at least once, ` +
              'signed per Standard Webhooks 1.0. Answer 2xx within 10 s; anything else is retried with the ' +
              'back-off of WEBHOOK_RETRY_SECONDS, then the delivery is `failed`.',
            tags: ['Administration'],
            // The receiver's own endpoint: it checks the signature, not credentials of this API.
            security: [],
            parameters: WEBHOOK_HEADERS,
            requestBody: { required: true, content: { 'application/json': { schema: toDocumentSchema(body) } } },
            responses: { '2XX': { description: 'Received; any other answer (or none in 10 s) is retried' } },
          },
        },
      ];
    }),
  );
}

/** The whole document for these routes (the `api` function's: http/routes/index.ts). */
export function openApiDocument(routes: readonly AnyRoute[]): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const path = documentPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationOf(route) };
  }
  const schemas: Json = {};
  for (const schema of COMPONENT_SCHEMAS) schemas[schema.$id!] = toDocumentSchema(schema, schema);
  for (const name of Object.keys(bodySchemas) as BodySchemaName[]) {
    schemas[bodySchemaComponentName(name)] = documentedBody(name);
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
    webhooks: webhookOperations(),
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
              schema: toDocumentSchema(PATH_ID_SCHEMA),
            },
          ]),
        ),
        ...IDEMPOTENCY_KEY_PARAMETERS,
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
        partnerApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description:
            "A partner's key, issued by an operator (POST /admin/partners/{partnerId}/keys) and revocable. A kiosk's " +
            'key is refused here, and a partner key on kiosk routes.',
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
