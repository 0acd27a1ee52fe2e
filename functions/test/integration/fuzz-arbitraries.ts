/**
 * fast-check generators for fuzz.test.ts: HTTP requests that are valid except for
 * the part under attack (credentials, content type, body, or path), so that most of
 * them get past authentication and validation and reach the code behind.
 */
import fc from 'fast-check';

// ---------------------------------------------------------------------------------
// Requests

export interface FuzzBody {
  /** A JSON value, sent as JSON.stringify(json). */
  json?: unknown;
  /** Text sent as is (UTF-8). */
  raw?: string;
  /** Whitespace appended after the body until it has this many bytes (still valid JSON). */
  padTo?: number;
  /** Nested arrays this deep, instead of json/raw. */
  nest?: number;
}

export interface FuzzRequest {
  method: string;
  /** Sent exactly as is. */
  path: string;
  headers: Record<string, string>;
  body?: FuzzBody;
}

export function encodeBody(body: FuzzBody): Buffer {
  let text: string;
  if (body.nest !== undefined) text = `${'['.repeat(body.nest)}${']'.repeat(body.nest)}`;
  else if (body.raw !== undefined) text = body.raw;
  else text = JSON.stringify(body.json) ?? 'null';
  const bytes = Buffer.from(text, 'utf8');
  if (body.padTo === undefined || body.padTo <= bytes.length) return bytes;
  return Buffer.concat([bytes, Buffer.alloc(body.padTo - bytes.length, ' ')]);
}

/** Every string in a JSON value, keys included. */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((item) => stringsIn(item, out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      stringsIn(item, out);
    }
  }
  return out;
}

/** Every string a request carries, decoded where it was encoded: an answer may echo them. */
export function requestStrings(request: FuzzRequest): string[] {
  const strings = [request.path, ...Object.values(request.headers)];
  for (const part of [request.path, ...request.path.split(/[/?&=]/)]) {
    try {
      strings.push(decodeURIComponent(part));
    } catch {
      // not decodable: the raw text is there already
    }
  }
  if (request.body?.raw !== undefined) strings.push(request.body.raw);
  return stringsIn(request.body?.json, strings);
}

// ---------------------------------------------------------------------------------
// Values

export const weighted = <T>(...items: [number, fc.Arbitrary<T>][]): fc.Arbitrary<T> =>
  fc.oneof(...items.filter(([weight]) => weight > 0).map(([weight, arbitrary]) => ({ weight, arbitrary })));

/** Any UTF-16 code unit, lone surrogates included (JSON.stringify escapes them as \udXXX). */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

/** Ids that break naive id handling: empty, dot segments, reserved, too long, control characters, lone surrogates. */
export const TRICKY_IDS = [
  '',
  ' ',
  '.',
  '..',
  '__x__',
  '__\n__',
  '__\u2028__',
  '___',
  'a/b',
  '%',
  '%ZZ',
  '\u0000',
  '\ud800',
  'a\udc00b',
  '\u{1F600}'.repeat(64),
  'x'.repeat(128),
  'x'.repeat(129),
];

const TRICKY_TEXT = [
  ...TRICKY_IDS,
  'x'.repeat(200),
  'x'.repeat(1600),
  'x'.repeat(5000),
  '<script>alert(1)</script>',
  '${x}',
  'null',
  '0',
  'true',
  '\u202e\u0301',
  '\u03a9\u2248\u00e7\u221a',
  'a\r\nb',
  '\n    at Object.<anonymous> (/srv/x.js:1:1)',
];

export const trickyString: fc.Arbitrary<string> = weighted(
  [3, fc.string({ unit: 'grapheme', maxLength: 30 })],
  [2, fc.string({ unit: 'binary', maxLength: 30 })],
  [2, fc.string({ unit: codeUnit, maxLength: 12 })],
  [1, fc.string({ maxLength: 30 })],
  [3, fc.constantFrom(...TRICKY_TEXT)],
  [1, fc.string({ minLength: 100, maxLength: 2000 })],
);

/** For an id field: mostly the known troublemakers. */
export const hostileId: fc.Arbitrary<string> = weighted([3, fc.constantFrom(...TRICKY_IDS)], [1, trickyString]);

/** For a text field: sizes at and over the limits, control characters, lone surrogates. */
export const hostileText = (maxLength: number): fc.Arbitrary<string> =>
  weighted(
    [2, fc.constantFrom('', '\ud800', 'a\udfff', '\u0000', ' ', 'x'.repeat(maxLength), 'x'.repeat(maxLength + 1))],
    [1, fc.string({ unit: codeUnit, minLength: 1, maxLength: 12 })],
    [2, trickyString],
  );

function nestObject(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { a: value } : [value];
  return value;
}

/** A value of any JSON type, for a field that expects something else. */
export const anyValue: fc.Arbitrary<unknown> = weighted<unknown>(
  [3, trickyString],
  [
    2,
    fc.oneof(
      fc.integer(),
      fc.double(),
      fc.constantFrom(0, -1, 1.5, 1e308, -1e308, 2 ** 53, 1001, 999.5, 1e-7, 5e-324, 1e21),
    ),
  ],
  [1, fc.constantFrom<unknown>(null, true, false, [], {}, [1], { a: 1 })],
  [2, fc.jsonValue({ maxDepth: 3 })],
  [1, fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' })],
  [1, fc.integer({ min: 1, max: 60 }).map(nestObject)],
);

/** Latin-1 text: what an HTTP header value can carry. */
const latin1Char = fc
  .integer({ min: 0x20, max: 0xff })
  .filter((code) => code !== 0x7f)
  .map((code) => String.fromCharCode(code));
export const headerText = fc.oneof(fc.string({ unit: latin1Char, maxLength: 40 }), fc.string({ maxLength: 40 }));

// ---------------------------------------------------------------------------------
// What a request attacks

/** The parts of a request that are fuzzed; everything else is valid. */
export interface Focus {
  credentials: boolean;
  contentType: boolean;
  body: boolean;
  path: boolean;
}

const VALID: Focus = { credentials: false, contentType: false, body: false, path: false };

export const focuses: fc.Arbitrary<Focus> = weighted(
  [4, fc.constant(VALID)],
  [2, fc.constant({ ...VALID, credentials: true })],
  [1, fc.constant({ ...VALID, contentType: true })],
  [5, fc.constant({ ...VALID, body: true })],
  [2, fc.constant({ ...VALID, path: true })],
  [1, fc.constant({ credentials: true, contentType: true, body: true, path: true })],
);

// ---------------------------------------------------------------------------------
// Bodies

/** Bodies that are not a JSON object, or not JSON at all, or sized at the limit. */
export const oddBodies: fc.Arbitrary<FuzzBody> = weighted<FuzzBody>(
  [
    3,
    fc
      .constantFrom(
        '{',
        '{"a":',
        '[1,]',
        "{'a':1}",
        'nul',
        'NaN',
        '{"a":1}}',
        '\u0000',
        '"text"',
        '1',
        'true',
        'null',
        '[]',
        '{}',
        '\ufeff{}',
        '{"a":1,"a":2}',
        '{"__proto__":{"admin":true}}',
        '{"constructor":{"prototype":{"admin":true}}}',
        ' ',
        '\n',
        '',
      )
      .map((raw) => ({ raw })),
  ],
  [2, fc.string({ unit: 'binary', maxLength: 60 }).map((raw) => ({ raw }))],
  [2, fc.json({ maxDepth: 3 }).map((raw) => ({ raw }))],
  [1, fc.integer({ min: 1, max: 30_000 }).map((nest) => ({ nest }))],
  [1, fc.integer({ min: 65_000, max: 200_000 }).map((padTo) => ({ json: {}, padTo }))],
);

/** What a route without a body schema gets: usually nothing. */
export const noBody = (fuzzed: boolean): fc.Arbitrary<FuzzBody | undefined> =>
  fuzzed ? weighted<FuzzBody | undefined>([1, fc.constant(undefined)], [2, oddBodies]) : fc.constant(undefined);

const omit = (value: Record<string, unknown>, key: string): Record<string, unknown> => {
  const copy = { ...value };
  delete copy[key];
  return copy;
};

/**
 * A valid body, or when fuzzed: one field replaced (by a value hostile to that field
 * or of any type), dropped or added, the right names with random values, a body at
 * the 64 KiB limit, or no object at all.
 *
 * `fields`: every field of the schema with the values hostile to it (weighted by how
 * often to pick it).
 */
export function bodies(
  valid: fc.Arbitrary<Record<string, unknown>>,
  fields: Record<string, fc.Arbitrary<unknown>>,
  fuzzed: boolean,
): fc.Arbitrary<FuzzBody | undefined> {
  const json = valid.map((value): FuzzBody => ({ json: value }));
  if (!fuzzed) return json;
  const names = Object.keys(fields);
  const replaced = fc.oneof(
    ...names.map((name) =>
      fc
        .tuple(valid, weighted([2, fields[name]], [1, anyValue]))
        .map(([value, replacement]): FuzzBody => ({ json: { ...value, [name]: replacement } })),
    ),
  );
  return weighted<FuzzBody | undefined>(
    [10, replaced],
    [2, fc.tuple(valid, fc.constantFrom(...names)).map(([value, name]): FuzzBody => ({ json: omit(value, name) }))],
    [
      2,
      fc
        .tuple(
          valid,
          weighted([3, fc.string({ maxLength: 12 })], [1, fc.constantFrom('__proto__', 'constructor', 'data')]),
          anyValue,
        )
        .map(([value, name, extra]): FuzzBody => ({ json: { ...value, [name]: extra } })),
    ],
    [1, fc.dictionary(fc.constantFrom(...names), anyValue).map((value): FuzzBody => ({ json: value }))],
    [1, fc.jsonValue({ maxDepth: 3 }).map((value): FuzzBody => ({ json: value }))],
    [
      1,
      fc
        .tuple(valid, fc.integer({ min: 65_400, max: 65_700 }))
        .map(([value, padTo]): FuzzBody => ({ json: value, padTo })),
    ],
    [2, oddBodies],
    [1, fc.constant(undefined)],
  );
}

// ---------------------------------------------------------------------------------
// Headers

export const contentTypes = (fuzzed: boolean): fc.Arbitrary<string | undefined> =>
  fuzzed
    ? weighted<string | undefined>(
        [
          4,
          fc.constantFrom(
            'text/plain',
            'multipart/form-data; boundary=xyz',
            'application/x-www-form-urlencoded',
            'application/octet-stream',
            'application/merge-patch+json',
            'application/json; charset=utf-16',
            'application/json; charset=latin1',
            'application/jsonx',
            'json',
            '',
            '*/*',
            'application/json;;',
            'application/json, text/plain',
          ),
        ],
        [1, headerText],
        [2, fc.constant(undefined)],
        [1, fc.constant('application/json')],
      )
    : weighted(
        [6, fc.constant('application/json')],
        [1, fc.constantFrom('application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8')],
      );

const forwardedFor: fc.Arbitrary<string | undefined> = weighted<string | undefined>(
  [6, fc.constant(undefined)],
  [2, fc.ipV4()],
  [1, fc.ipV6()],
  [1, fc.constantFrom('1.2.3.4, 5.6.7.8', ',', ' ', 'unknown')],
  [1, headerText],
);

const origins = weighted<string | undefined>(
  [8, fc.constant(undefined)],
  [1, fc.constantFrom('https://evil.example', 'null', 'https://app.kiosk-rewards.test')],
  [1, headerText],
);

/** Every credential the fixtures have, for the fuzzed headers to pick from. */
export interface CredentialPool {
  apiKeys: string[];
  tokens: string[];
}

/** The credentials a route wants; absent for public routes. */
export interface Credentials {
  apiKey?: string;
  token?: string;
  /** Send Idempotency-Key headers (POST /kiosk/transaction, POST /admin/users/{id}/adjustments). */
  idempotency?: boolean;
}

function apiKeys(pool: CredentialPool, primary: string | undefined, fuzzed: boolean): fc.Arbitrary<string | undefined> {
  if (!fuzzed) return fc.constant(primary);
  const some = primary ?? pool.apiKeys[0];
  return weighted<string | undefined>(
    [2, fc.constantFrom(...pool.apiKeys)],
    [1, headerText],
    [
      2,
      fc.constantFrom(
        '',
        ' ',
        'kr_',
        `${some}x`,
        some.toUpperCase(),
        some.slice(0, -1),
        'k'.repeat(8192),
        'k'.repeat(8193),
      ),
    ],
    [2, fc.constant(undefined)],
  );
}

function authorizations(
  pool: CredentialPool,
  primary: string | undefined,
  fuzzed: boolean,
): fc.Arbitrary<string | undefined> {
  if (!fuzzed) return fc.constant(primary === undefined ? undefined : `Bearer ${primary}`);
  const token = primary ?? pool.tokens[0];
  return weighted<string | undefined>(
    [2, fc.constantFrom(...pool.tokens).map((other) => `Bearer ${other}`)],
    [
      2,
      fc.constantFrom(
        `bearer ${token}`,
        `Bearer  ${token}`,
        `Bearer ${token} x`,
        token,
        'Bearer',
        'Bearer ',
        `Basic ${token}`,
        `Bearer ${token.slice(0, -7)}`,
        `Bearer ${token.slice(7)}`,
        `Bearer ${'t'.repeat(9000)}`,
      ),
    ],
    [1, headerText],
    [1, headerText.map((text) => `Bearer ${text}`)],
    [2, fc.constant(undefined)],
  );
}

const idempotencyKeys = (fuzzed: boolean): fc.Arbitrary<string | undefined> =>
  fuzzed
    ? weighted<string | undefined>(
        [1, headerText],
        [2, fc.constantFrom('', ' ', 'x'.repeat(255), 'x'.repeat(256), '\u00e9t\u00e9', 'fz-1')],
        [1, fc.constant(undefined)],
      )
    : // A fresh key usually; a reused one replays (same body) or is refused with 422 (another body).
      weighted<string | undefined>([4, fc.constant(undefined)], [2, fc.uuid()], [1, fc.constantFrom('fz-1', 'fz-2')]);

export function headers(
  pool: CredentialPool,
  credentials: Credentials,
  focus: Focus,
): fc.Arbitrary<Record<string, string>> {
  return fc
    .record({
      'x-api-key': apiKeys(pool, credentials.apiKey, focus.credentials),
      authorization: authorizations(pool, credentials.token, focus.credentials),
      'idempotency-key': credentials.idempotency ? idempotencyKeys(focus.credentials) : fc.constant(undefined),
      'content-type': contentTypes(focus.contentType),
      'x-forwarded-for': forwardedFor,
      origin: origins,
    })
    .map((all) => {
      const present: Record<string, string> = {};
      for (const [name, value] of Object.entries(all)) if (value !== undefined) present[name] = value;
      return present;
    });
}

// ---------------------------------------------------------------------------------
// Paths

/** encodeURIComponent that also encodes lone surrogates (as WTF-8, which the server must refuse). */
export function encodeSegment(text: string): string {
  let out = '';
  for (const char of text) {
    try {
      out += encodeURIComponent(char);
    } catch {
      const code = char.charCodeAt(0);
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    }
  }
  return out;
}

/** Path segments as sent, not encoded by encodeSegment: dot segments, bad escapes, encoded slashes. */
const RAW_SEGMENTS = [
  '.',
  '..',
  '%2e',
  '%2E%2E',
  '%',
  '%ZZ',
  '%2F',
  'a%2Fb',
  '%00',
  '__%0A__',
  '__%0D__',
  '__%E2%80%A9__',
  '%5F%5Fx%5F%5F',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '%C0%AF',
  '~',
  '*',
  "'",
  ':x',
  '@',
  ';',
  '%20',
  '+',
  '...',
  '',
];

/** A path segment for an id: one of `valid`, or when fuzzed mostly a tricky one. */
export function segments(valid: string[], fuzzed: boolean): fc.Arbitrary<string> {
  const known = fc.constantFrom(...valid).map(encodeSegment);
  if (!fuzzed) return known;
  return weighted(
    [1, known],
    [1, fc.constant('ghost-id')],
    [3, fc.constantFrom(...RAW_SEGMENTS)],
    [3, hostileId.map(encodeSegment)],
  );
}

/** Query strings: none, or when fuzzed sometimes junk that must be refused. */
export const queries = (fuzzed: boolean): fc.Arbitrary<string> =>
  fuzzed
    ? weighted(
        [4, fc.constant('')],
        [1, fc.constantFrom('?', '?&&', '?status=available', '?x=1', '?x=1&x=2', '?%ZZ=1', '?a[b]=c', '?=')],
        [
          1,
          fc
            .tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }))
            .map(([name, value]) => `?${encodeSegment(name)}=${encodeSegment(value)}`),
        ],
      )
    : fc.constant('');

/** `template` ("/kiosk/:kioskId/status") with each :param taken from `ids`, plus a query. */
export const pathsOf =
  (template: string, ids: Record<string, string[]> = {}) =>
  (fuzzed: boolean): fc.Arbitrary<string> => {
    const params: Record<string, fc.Arbitrary<string>> = {};
    for (const [name, valid] of Object.entries(ids)) params[name] = segments(valid, fuzzed);
    return fc
      .tuple(fc.record(params), queries(fuzzed))
      .map(([values, query]) => `${template.replace(/:(\w+)/g, (_, name: string) => values[name])}${query}`);
  };

// ---------------------------------------------------------------------------------
// Endpoints

export interface Shape extends Credentials {
  method: string;
  path: (fuzzed: boolean) => fc.Arbitrary<string>;
  /** The body, given whether it is fuzzed; routes without a body schema leave it out. */
  body?: (fuzzed: boolean) => fc.Arbitrary<FuzzBody | undefined>;
}

/** Requests to one endpoint: valid, or with one part (sometimes all) under attack. */
export function requestsFor(pool: CredentialPool, shape: Shape): fc.Arbitrary<FuzzRequest> {
  return focuses.chain((focus) =>
    fc
      .record({
        path: shape.path(focus.path),
        headers: headers(pool, shape, focus),
        body: (shape.body ?? noBody)(focus.body),
      })
      .map(({ path, headers: sent, body }): FuzzRequest => {
        const request: FuzzRequest = { method: shape.method, path, headers: sent };
        if (body !== undefined) request.body = body;
        return request;
      }),
  );
}
