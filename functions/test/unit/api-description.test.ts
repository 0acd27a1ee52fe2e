/**
 * The API description (GET /openapi.json) against the routes it is built from: every
 * route has an operation and every operation a route, the credentials stated are the
 * ones demanded, the request schemas accept and refuse what the service's own
 * validation does, and every example is valid. Also the response check that every
 * integration test's `call()` goes through.
 */
import { openApiDocument } from '../../src/http/apiDescription/openapi';
import { Router, documentPath } from '../../src/http/router';
import { allRoutes, loadRoute, routeTable } from '../../src/http/routes';
import { bodySchemas, itemSchemas, type BodySchemaName } from '../../src/model/requestBodies';
import type { AnyRoute } from '../../src/http/types';
import { validateBody } from '../../src/http/validation';
import { ApiError } from '../../src/errors';
import { errorAnswerOf } from '../../src/http/errorAnswers';
import { apiDocument, operations, pointer, resolved, responseProblems, schemaErrors } from '../api-description';

const routes = allRoutes();

const concretePath = (template: string) => template.replace(/\{[A-Za-z]+\}/g, 'some-id');
const routeKey = (route: AnyRoute) => `${route.method} ${documentPath(route.path)}`;

describe('operations and routes', () => {
  // The table names each route's method and path, and loads its module only when it is called.
  it("each entry of the route table is matched by its route's own method and path", () => {
    const key = ({ method, path }: { method: string; path: string }) => `${method} ${path}`;
    expect(routeTable.map(key)).toEqual(routes.map(key));
  });

  it('every route the router serves has an operation, and every operation a route', () => {
    expect(
      operations()
        .map(({ method, template }) => `${method} ${template}`)
        .sort(),
    ).toEqual(routes.map(routeKey).sort());
  });

  it('the router serves each operation at its path (no other route shadows it)', () => {
    const router = new Router(routeTable);
    for (const { method, template, node } of operations()) {
      expect([method, template, loadRoute(router.match(method, concretePath(template)).route).doc.operationId]).toEqual(
        [method, template, node.operationId],
      );
    }
  });

  it('operation ids are unique', () => {
    const ids = operations().map(({ node }) => node.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is OpenAPI 3.1 of version 1.x, with the deployed and the emulator base URL, each also through Hosting', () => {
    expect(apiDocument.openapi).toBe('3.1.0');
    expect(apiDocument.info.version).toMatch(/^1\./);
    expect(apiDocument.servers.map((server: { url: string }) => server.url)).toEqual([
      'https://{region}-{project}.cloudfunctions.net/api',
      'http://127.0.0.1:5001/demo-kiosk-rewards/us-central1/api',
      'https://{project}.web.app/api',
      'http://127.0.0.1:5000/api',
    ]);
  });

  it('is the document as last reviewed: a change of the API shows here as a diff (accept it with jest -u)', () => {
    expect(JSON.stringify(apiDocument, null, 2)).toMatchSnapshot();
  });

  it('is the same document every time it is built', () => {
    expect(openApiDocument(routes)).toEqual(apiDocument);
  });
});

/** What `authenticate` answers a request without any credential: which header it asked for. */
async function demandedCredential(route: AnyRoute): Promise<string> {
  if (!route.authenticate) return 'none';
  const params = Object.fromEntries(
    route.path
      .split('/')
      .filter((s) => s.startsWith(':'))
      .map((s) => [s.slice(1), 'some-id']),
  );
  const error = await route.authenticate({ headers: {}, params }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect(errorAnswerOf(error as ApiError).status).toBe(401);
  return (error as ApiError).message.startsWith('X-API-Key') ? 'X-API-Key' : 'Authorization';
}

describe('credentials', () => {
  const expected = {
    public: 'none',
    kiosk: 'X-API-Key',
    user: 'Authorization',
    admin: 'Authorization',
    partner: 'X-API-Key',
  } as const;

  it.each(routes.map((route) => [routeKey(route), route] as const))(
    '%s states the credential its authenticate demands',
    async (_key, route) => {
      expect(await demandedCredential(route)).toBe(expected[route.doc.access]);
      const operation = operations().find(({ node }) => node.operationId === route.doc.operationId)!;
      const schemes = operation.node.security.flatMap((requirement: object) => Object.keys(requirement));
      expect(schemes).toEqual(
        {
          public: [],
          kiosk: ['kioskApiKey'],
          user: ['firebaseIdToken'],
          admin: ['firebaseIdToken'],
          partner: ['partnerApiKey'],
        }[route.doc.access],
      );
    },
  );
});

describe('examples', () => {
  const withBody = routes.filter((route) => route.bodySchema);

  it.each(withBody.map((route) => [routeKey(route), route] as const))(
    '%s: the request example is valid against the document and accepted by the service',
    (_key, route) => {
      const content = resolved(`${operationAt(route)}/requestBody`).node.content['application/json'];
      expect(content.example).toBeDefined();
      expect(
        schemaErrors(
          `${operationAt(route)}${pointer('requestBody', 'content', 'application/json', 'schema')}`,
          content.example,
        ),
      ).toEqual([]);
      expect(() => validateBody(route.bodySchema!, content.example)).not.toThrow();
    },
  );

  it.each(
    operations().flatMap(({ at, node }) =>
      Object.entries(node.responses as Record<string, { content?: Record<string, { example?: unknown }> }>)
        .filter(([, response]) => response.content?.['application/json']?.example !== undefined)
        .map(
          ([status, response]) =>
            [`${node.operationId} ${status}`, at, status, response.content!['application/json'].example] as const,
        ),
    ),
  )('%s: the response example is valid', (_name, at, status, example) => {
    expect(
      schemaErrors(`${at}${pointer('responses', status, 'content', 'application/json', 'schema')}`, example),
    ).toEqual([]);
  });

  it('every success response has an example', () => {
    const missing = operations().flatMap(({ node }) =>
      Object.entries(node.responses as Record<string, { content?: Record<string, { example?: unknown }> }>)
        .filter(
          ([status, response]) => Number(status) < 300 && response.content?.['application/json']?.example === undefined,
        )
        .map(([status]) => `${node.operationId} ${status}`),
    );
    expect(missing).toEqual([]);
  });
});

function operationAt(route: AnyRoute): string {
  return pointer('paths', documentPath(route.path), route.method.toLowerCase());
}

/**
 * Bodies around an example: as is, each field removed, null, of another type, out of
 * its bounds, and an unknown field. Whatever the service's schema decides about each,
 * the document's must decide the same. (Text that is not valid Unicode, which the
 * service also refuses, JSON Schema cannot state: the document says it in words.)
 */
const FIELD_VALUES: unknown[] = [
  null,
  undefined,
  '',
  'k'.repeat(128),
  'k'.repeat(129),
  'x'.repeat(2000),
  'x'.repeat(2001),
  0,
  -1,
  1000,
  1001,
  1.5,
  true,
  {},
  [],
  { latitude: 0, longitude: 0 },
  { latitude: 90.5, longitude: 0 },
  { latitude: 0, longitude: -180.5 },
  { key: 'value' },
  { 'bad key': 'value' },
  { key: 1 },
  'ab',
  '1234',
  '12345678901',
  'has space',
  'a@b.example',
  'not-an-address',
];

function probesAround(example: Record<string, unknown>): unknown[] {
  const probes: unknown[] = [example, {}, [], null, 'text', { ...example, unknownField: 1 }];
  for (const field of new Set([
    ...Object.keys(example),
    'userId',
    'pushToken',
    'data',
    'label',
    'status',
    'timezone',
  ])) {
    for (const value of FIELD_VALUES) {
      const probe: Record<string, unknown> = { ...example, [field]: value };
      if (value === undefined) delete probe[field];
      probes.push(probe);
    }
  }
  return probes;
}

/** Where the document states a body schema, and a body of that schema it gives as an example. */
function documentedBody(name: BodySchemaName): { at: string; example: Record<string, unknown> } {
  const route = routes.find((candidate) => candidate.bodySchema === name);
  if (route) {
    return {
      at: `${operationAt(route)}${pointer('requestBody', 'content', 'application/json', 'schema')}`,
      example: route.doc.example as Record<string, unknown>,
    };
  }
  const [listName, { list }] = Object.entries(itemSchemas).find(([, items]) => items.item === name)!;
  const listRoute = routes.find((candidate) => candidate.bodySchema === listName)!;
  return {
    at: pointer('components', 'schemas', name[0].toUpperCase() + name.slice(1)),
    example: (listRoute.doc.example as Record<string, Record<string, unknown>[]>)[list][0],
  };
}

describe('request schemas: the document decides as the service does', () => {
  it.each(Object.keys(bodySchemas) as BodySchemaName[])('%s', (name) => {
    const { at, example } = documentedBody(name);
    const disagreements = probesAround(example).flatMap((probe) => {
      let accepted = true;
      try {
        validateBody(name, probe);
      } catch {
        accepted = false;
      }
      const documentAccepts = schemaErrors(at, probe).length === 0;
      return accepted === documentAccepts
        ? []
        : [`${JSON.stringify(probe)}: service ${accepted}, document ${documentAccepts}`];
    });
    expect(disagreements).toEqual([]);
  });
});

describe('the response check', () => {
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
    status,
    headers: new Headers({ 'content-type': 'application/json; charset=utf-8', ...headers }),
    body,
    text: JSON.stringify(body),
  });
  /** An answer with a body that is not JSON. */
  const textAnswer = (status: number, mediaType: string, text: string) => ({
    status,
    headers: new Headers({ 'content-type': `${mediaType}; charset=utf-8` }),
    body: undefined,
    text,
  });
  const kiosk = {
    id: 'k1',
    name: 'Kiosk',
    address: 'Street 1',
    status: 'available',
    plasticCount: 0,
    metalCount: 0,
    lastUpdated: '2026-11-23T09:30:00.000Z',
    location: { latitude: 52.5, longitude: 13.4 },
    openingHours: '24/7',
    timezone: 'Europe/Berlin',
    openNow: true,
    lastSeenAt: null,
    online: false,
  };

  it('passes responses as described', () => {
    expect(responseProblems('GET', '/kiosk/k1', json(200, { success: true, kiosk }))).toEqual([]);
    expect(responseProblems('GET', '/kiosks?status=available', json(200, { success: true, kiosks: [kiosk] }))).toEqual(
      [],
    );
    expect(responseProblems('GET', '/kiosk/k1', json(404, { error: 'Kiosk k1 not found', code: 'not-found' }))).toEqual(
      [],
    );
    expect(responseProblems('GET', '/no/such/thing', json(404, { error: 'No endpoint', code: 'not-found' }))).toEqual(
      [],
    );
    expect(
      responseProblems(
        'DELETE',
        '/kiosks',
        json(405, { error: 'no', code: 'method-not-allowed' }, { allow: 'GET, HEAD' }),
      ),
    ).toEqual([]);
    expect(
      responseProblems(
        'POST',
        '/send-otp-email',
        json(429, { error: 'Too many', code: 'rate-limited' }, { 'retry-after': '60' }),
      ),
    ).toEqual([]);
  });

  it('flags a field the schema does not have (a user view that leaks its push token)', () => {
    const user = {
      id: 'u',
      name: 'U',
      currentPoints: 0,
      totalPoints: 0,
      recycledCount: 0,
      rank: 'Bronze',
      hasPushToken: true,
      expiringPoints: null,
      heldPoints: 0,
      suspended: false,
    };
    expect(responseProblems('GET', '/user/u', json(200, { success: true, user }))).toEqual([]);
    expect(
      responseProblems('GET', '/user/u', json(200, { success: true, user: { ...user, pushToken: 't' } })).join(),
    ).toMatch(/must NOT have additional properties/);
  });

  it('flags a status the operation does not describe', () => {
    expect(responseProblems('GET', '/kiosks', json(409, { error: 'x', code: 'kiosk-unavailable' }))).toEqual([
      'listKiosks (GET /kiosks) does not describe the status 409',
    ]);
  });

  it('flags an error code the response does not list', () => {
    expect(responseProblems('GET', '/kiosk/k1', json(404, { error: 'x', code: 'rate-limited' })).join()).toMatch(
      /must be equal to one of the allowed values/,
    );
  });

  it('flags a missing required header, and a meaningful header that is not described', () => {
    expect(responseProblems('POST', '/send-otp-email', json(429, { error: 'x', code: 'rate-limited' }))).toEqual([
      'sendOtpEmail 429: header Retry-After is required but absent',
    ]);
    expect(
      responseProblems('GET', '/kiosks', json(200, { success: true, kiosks: [] }, { 'retry-after': '5' })),
    ).toEqual(['listKiosks 200: header Retry-After is sent but not described']);
  });

  it('a batch answer carries Retry-After when an item is to be sent again later, and not otherwise', () => {
    const results = [{ idempotencyKey: 'k-1', status: 503, error: 'x', code: 'overloaded' }];
    const batch = (headers: Record<string, string>) =>
      responseProblems('POST', '/kiosk/transactions/batch', json(200, { success: true, results }, headers));
    expect(batch({ 'retry-after': '5' })).toEqual([]);
    expect(batch({})).toEqual([]);
  });

  it('flags an Allow header that is not the path’s methods, and a wrong answer to an unknown path', () => {
    expect(
      responseProblems('POST', '/kiosks', json(405, { error: 'x', code: 'method-not-allowed' }, { allow: 'GET' })),
    ).toEqual(['Allow is "GET", the document says GET, HEAD']);
    expect(responseProblems('GET', '/nowhere', json(200, {}))).toEqual([
      'no operation has the path /nowhere, yet the status is 200',
    ]);
  });

  it('flags a request the service accepted but the document refuses', () => {
    const transaction = {
      id: 't1',
      userId: 'u1',
      kioskId: 'k1',
      plasticCount: 1,
      metalCount: 0,
      totalItems: 1,
      pointsEarned: 10,
      capped: false,
      newBalance: 10,
      occurredAt: '2026-11-23T09:30:00.000Z',
      breakdown: [{ source: 'base', points: 10 }],
      status: 'awarded',
      holdReasons: [],
    };
    const answer = json(200, { success: true, transaction, pushNotification: false });
    const body = { kioskId: 'k1', userId: 'u1', plasticCount: 1, metalCount: 0 };
    expect(
      responseProblems('POST', '/kiosk/transaction', answer, { body, headers: { 'idempotency-key': 'r-1' } }),
    ).toEqual([]);
    expect(
      responseProblems('POST', '/kiosk/transaction', answer, { body: { ...body, plasticCount: 1001 } }).join(),
    ).toMatch(/accepted request body: \/plasticCount must be <= 1000/);
    expect(
      responseProblems('POST', '/kiosk/transaction', answer, {
        body,
        headers: { 'Idempotency-Key': 'k'.repeat(256) },
      }).join(),
    ).toMatch(/header Idempotency-Key: .* must NOT have more than 255 characters/);
    expect(responseProblems('GET', '/kiosks?status=available', json(200, { success: true, kiosks: [] }), {})).toEqual(
      [],
    );
    expect(responseProblems('GET', '/kiosks?page=2', json(200, { success: true, kiosks: [] }), {})).toEqual([
      'listKiosks 200: the accepted request has the query parameter page, which is not described',
    ]);
    expect(
      responseProblems(
        'GET',
        '/kiosks?near=52.52,13.41&radiusKm=2.5&limit=3',
        json(200, { success: true, kiosks: [] }),
        {},
      ),
    ).toEqual([]);
    expect(
      responseProblems(
        'GET',
        '/kiosks?near=91,13.41&radiusKm=60&limit=0.5',
        json(200, { success: true, kiosks: [] }),
        {},
      ),
    ).toEqual([
      'listKiosks 200: query near: /0 must be <= 90 (#/prefixItems/0/maximum {"comparison":"<=","limit":90})',
      'listKiosks 200: query radiusKm: (body) must be <= 50 (#/maximum {"comparison":"<=","limit":50})',
      'listKiosks 200: query limit: (body) must be integer (#/type {"type":"integer"})',
      'listKiosks 200: query limit: (body) must be >= 1 (#/minimum {"comparison":">=","limit":1})',
    ]);
    expect(responseProblems('GET', '/kiosks', json(200, { success: true, kiosks: [] }), { body: {} })).toEqual([
      'listKiosks 200: the accepted request has a body, and the operation describes none',
    ]);
  });

  it('flags a body that is not JSON where JSON is described, and accepts the runtime’s HTML 400', () => {
    const html = textAnswer(400, 'text/html', '<pre>Bad Request</pre>');
    expect(responseProblems('POST', '/kiosk/transaction', html)).toEqual([]);
    expect(responseProblems('GET', '/kiosks', { ...html, status: 200 })).toEqual([
      'listKiosks 200: Content-Type text/html is not described (application/json)',
    ]);
  });

  it('accepts the daily report as CSV, where the document describes it, and nowhere else', () => {
    const csv = textAnswer(200, 'text/csv', 'kioskId,day,transactions,plasticCount,metalCount,points\r\n');
    expect(
      responseProblems('GET', '/admin/reports/kiosk-days?from=2026-11-01&to=2026-11-30&format=csv', csv, {}),
    ).toEqual([]);
    expect(responseProblems('GET', '/kiosks', csv)).toEqual([
      'listKiosks 200: Content-Type text/csv is not described (application/json)',
    ]);
    expect(responseProblems('GET', '/admin/reports/kiosk-days?to=2026-11-30&from=2026-11-31', csv, {}).join()).toMatch(
      /query from: .*must match format "date"/,
    );
  });
});
