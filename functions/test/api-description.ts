/**
 * The API description as the tests read it: the document built in-process by the code
 * that serves GET /openapi.json (an integration test checks that the served one is
 * equal), its schemas compiled with ajv's JSON Schema 2020-12 (OpenAPI 3.1's dialect),
 * and `responseProblems`, which judges one response of the API against it.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../src/http/apiDescription/openapi';
import { routeSegments } from '../src/http/router';
import { allRoutes } from '../src/http/routes';

const routes = allRoutes();

type Json = Record<string, any>;

export const apiDocument: Json = openApiDocument(routes);

const DOCUMENT_ID = 'openapi.json';
/** The document's own fields, which are no schema keywords: ajv is told to pass over them. */
const DOCUMENT_FIELDS = ['openapi', 'info', 'servers', 'tags', 'paths', 'components', 'security', 'webhooks'];

let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

/** A JSON pointer from its tokens, e.g. pointer('paths', '/kiosks', 'get') is "/paths/~1kiosks/get". */
export const pointer = (...tokens: string[]): string =>
  tokens.map((token) => `/${token.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** The schema at `at` (a JSON pointer into the document), compiled once; its $refs resolve within the document. */
export function validatorAt(at: string): ValidateFunction {
  let validate = validators.get(at);
  if (!validate) {
    if (!ajv) {
      ajv = new Ajv2020({ strict: true, allErrors: true });
      addFormats(ajv);
      ajv.addVocabulary(DOCUMENT_FIELDS);
      ajv.addSchema(apiDocument, DOCUMENT_ID);
    }
    validate = ajv.getSchema(`${DOCUMENT_ID}#${at}`);
    if (!validate) throw new Error(`no schema at ${at}`);
    validators.set(at, validate);
  }
  return validate;
}

/** The errors of `value` against the schema at `at`, one line each; empty when it is valid. */
export function schemaErrors(at: string, value: unknown): string[] {
  const validate = validatorAt(at);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error) =>
      `${error.instancePath || '(body)'} ${error.message} (${error.schemaPath}${error.params ? ` ${JSON.stringify(error.params)}` : ''})`,
  );
}

/** The node at a JSON pointer of the document. */
function nodeAt(at: string): Json {
  return at
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node: Json, token) => node?.[token], apiDocument);
}

/** Follows `$ref`s: the node an object stands for, with its own pointer. */
export function resolved(at: string): { node: Json; at: string } {
  const node = nodeAt(at);
  return typeof node?.$ref === 'string' ? resolved(node.$ref.slice(1)) : { node, at };
}

export interface Operation {
  method: string;
  template: string;
  at: string;
  node: Json;
}

/** Every operation of the document. */
export function operations(): Operation[] {
  return Object.entries(apiDocument.paths as Record<string, Json>).flatMap(([template, item]) =>
    Object.keys(item).map((method) => ({
      method: method.toUpperCase(),
      template,
      at: pointer('paths', template, method),
      node: item[method],
    })),
  );
}

/**
 * The path templates of the document that a concrete path (as sent, still
 * percent-encoded) falls under; under the Hosting prefix `/api` too, as the router reads it.
 */
function templatesMatching(path: string): string[] {
  const segments = routeSegments(path);
  return Object.keys(apiDocument.paths).filter((template) => {
    const pattern = routeSegments(template);
    return (
      pattern.length === segments.length &&
      pattern.every((part, i) => (part.startsWith('{') && part.endsWith('}')) || part === segments[i])
    );
  });
}

export interface ObservedResponse {
  status: number;
  headers: Headers;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
  text: string;
}

/** Response headers whose meaning a client relies on: a response that carries one must describe it. */
const MEANINGFUL_HEADERS = ['Idempotent-Replayed', 'Retry-After', 'Allow'];

const methodSet = (value: string | null): string =>
  (value ?? '')
    .split(',')
    .map((method) => method.trim())
    .filter(Boolean)
    .sort()
    .join(', ');

/** What a response must be, as the response object at `at` (after $refs) describes it. */
function problemsAgainst(at: string, response: ObservedResponse, head: boolean): string[] {
  const { node: described, at: describedAt } = resolved(at);
  const problems: string[] = [];
  const headers = (described.headers ?? {}) as Record<string, Json>;
  for (const name of Object.keys(headers)) {
    const { node: header, at: headerAt } = resolved(`${describedAt}${pointer('headers', name)}`);
    const value = response.headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`header ${name} is required but absent`);
      continue;
    }
    problems.push(...schemaErrors(`${headerAt}/schema`, value).map((error) => `header ${name}: ${error}`));
  }
  for (const name of MEANINGFUL_HEADERS) {
    if (
      response.headers.get(name) !== null &&
      !Object.keys(headers).some((key) => key.toLowerCase() === name.toLowerCase())
    ) {
      problems.push(`header ${name} is sent but not described`);
    }
  }
  const content = described.content as Record<string, Json> | undefined;
  if (!content) {
    if (response.text !== '') problems.push('a body is sent but none is described');
    return problems;
  }
  if (head) return problems;
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (!(mediaType in content)) {
    problems.push(`Content-Type ${mediaType || '(none)'} is not described (${Object.keys(content).join(', ')})`);
  } else if (mediaType === 'application/json') {
    if (response.body === undefined) problems.push('the body is not JSON');
    else problems.push(...schemaErrors(`${describedAt}${pointer('content', mediaType, 'schema')}`, response.body));
  }
  return problems;
}

/**
 * Everything in which a response of the API disagrees with its description; empty
 * when it matches. The operation must exist for the method and concrete path, the
 * status be described, the headers and the body match; and a request the service
 * accepted (2xx) must be one the document allows (`request`, when given). A request that is no
 * operation must be answered as the document's NoSuchEndpoint (unknown path) or
 * MethodNotAllowed (with `Allow` naming exactly the path's methods) says; OPTIONS
 * answers 204 with the path's methods.
 */
export function responseProblems(
  method: string,
  url: string,
  response: ObservedResponse,
  request?: SentRequest,
): string[] {
  const path = url.split('?')[0];
  const templates = templatesMatching(path);
  const head = method === 'HEAD';
  if (templates.length === 0) {
    if (response.status !== 404) return [`no operation has the path ${path}, yet the status is ${response.status}`];
    return problemsAgainst(pointer('components', 'responses', 'NoSuchEndpoint'), response, head);
  }
  const served = [...new Set(templates.flatMap((template) => Object.keys(apiDocument.paths[template])))].map((m) =>
    m.toUpperCase(),
  );
  const withHead = served.includes('GET') ? [...served, 'HEAD'] : served;
  if (method === 'OPTIONS') {
    const problems = response.status === 204 ? [] : [`OPTIONS answered ${response.status}, not 204`];
    const allow = methodSet([...withHead, 'OPTIONS'].join(','));
    if (methodSet(response.headers.get('allow')) !== allow)
      problems.push(`Allow is "${response.headers.get('allow')}", the document says ${allow}`);
    return problems;
  }
  const wanted = (head ? 'GET' : method).toLowerCase();
  const template = templates.find((candidate) => apiDocument.paths[candidate][wanted]);
  if (!template) {
    if (response.status !== 405) return [`${path} has no ${method} operation, yet the status is ${response.status}`];
    const problems = problemsAgainst(pointer('components', 'responses', 'MethodNotAllowed'), response, head);
    const allow = methodSet(withHead.join(','));
    if (methodSet(response.headers.get('allow')) !== allow)
      problems.push(`Allow is "${response.headers.get('allow')}", the document says ${allow}`);
    return problems;
  }
  const operation = apiDocument.paths[template][wanted];
  const at = pointer('paths', template, wanted, 'responses', String(response.status));
  if (!operation.responses[String(response.status)]) {
    return [
      `${operation.operationId} (${wanted.toUpperCase()} ${template}) does not describe the status ${response.status}`,
    ];
  }
  const problems = problemsAgainst(at, response, head);
  if (response.status < 300 && request) problems.push(...acceptedRequestProblems(template, wanted, url, request));
  return problems.map((problem) => `${operation.operationId} ${response.status}: ${problem}`);
}

export interface SentRequest {
  /** The JSON body, when one was sent. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** An `integer` or `number` parameter travels as its decimal text (OpenAPI's `form` style). */
const numericSchema = (schema: Json | undefined): boolean => schema?.type === 'integer' || schema?.type === 'number';

/** A parameter's text as its schema reads it: a number, or an array of comma-separated items (`explode: false`). */
function parameterValue(parameter: Json, text: string): unknown {
  const { schema } = parameter;
  if (numericSchema(schema)) return Number(text);
  if (schema?.type !== 'array' || parameter.explode !== false) return text;
  return text.split(',').map((item) => (numericSchema(schema.items) ? Number(item) : item));
}

/**
 * What the service accepted must be a request the document allows: its query
 * parameters and headers declared and within their schemas, its body valid against
 * the request body schema. Otherwise the document is stricter than the service.
 */
function acceptedRequestProblems(template: string, method: string, url: string, request: SentRequest): string[] {
  const at = pointer('paths', template, method);
  const operation = apiDocument.paths[template][method];
  const parameters = ((operation.parameters ?? []) as Json[]).map((_, i) => resolved(`${at}/parameters/${i}`));
  const problems: string[] = [];
  const check = (where: 'query' | 'header', name: string, value: string) => {
    const declared = parameters.find(({ node }) => node.in === where && node.name.toLowerCase() === name.toLowerCase());
    if (!declared) problems.push(`the accepted request has the ${where} parameter ${name}, which is not described`);
    else {
      const typed = parameterValue(declared.node, value);
      problems.push(...schemaErrors(`${declared.at}/schema`, typed).map((error) => `${where} ${name}: ${error}`));
    }
  };
  for (const [name, value] of new URLSearchParams(url.split('?')[1] ?? '')) check('query', name, value);
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (name.toLowerCase() === 'idempotency-key') check('header', name, value);
  }
  if (request.body !== undefined) {
    if (!operation.requestBody) problems.push('the accepted request has a body, and the operation describes none');
    else {
      const schemaAt = `${resolved(`${at}/requestBody`).at}${pointer('content', 'application/json', 'schema')}`;
      problems.push(...schemaErrors(schemaAt, request.body).map((error) => `accepted request body: ${error}`));
    }
  }
  return problems;
}
