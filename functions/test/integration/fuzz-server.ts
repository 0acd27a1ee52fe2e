/**
 * Support for fuzz.test.ts: the `api` handler hosted in-process the way the Cloud
 * Functions runtime hosts it, a raw HTTP client, and a whole-database snapshot.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express';
import type { Request } from 'firebase-functions/https';
import { DocumentReference, GeoPoint, Timestamp, type QuerySnapshot } from 'firebase-admin/firestore';
import { handleApiRequest } from '../../src/http/api';
import { db } from './helpers';

/** Set on answers that the hosting runtime gave itself (body parsing), not the handler. */
export const RUNTIME_ERROR_HEADER = 'x-fuzz-runtime-error';
/** Set when handleApiRequest itself rejected instead of answering. */
export const HANDLER_CRASH_HEADER = 'x-fuzz-handler-crash';

export interface FuzzServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Like the runtime: application/json is parsed (strict JSON, 10 MB) and every body is
 * also kept as `req.rawBody`; the runtime itself answers a body it cannot parse.
 */
export async function startFuzzServer(): Promise<FuzzServer> {
  const app = express();
  app.disable('x-powered-by');
  const keepRawBody = (req: http.IncomingMessage, _res: http.ServerResponse, buf: Buffer) => {
    (req as http.IncomingMessage & { rawBody?: Buffer }).rawBody = Buffer.from(buf);
  };
  app.use(express.json({ limit: '10mb', strict: true, verify: keepRawBody }));
  app.use(express.raw({ type: () => true, limit: '10mb', verify: keepRawBody }));
  app.use((req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    handleApiRequest(req as Request, res).catch((error: unknown) =>
      next({ handlerCrash: true, message: error instanceof Error ? error.message : String(error) }),
    );
  });
  app.use((error: unknown, _req: ExpressRequest, res: ExpressResponse, _next: NextFunction) => {
    const details = error as { status?: number; type?: string; message?: string; handlerCrash?: boolean };
    if (res.headersSent) {
      res.end();
      return;
    }
    if (details.handlerCrash) {
      const reason = String(details.message)
        .slice(0, 200)
        .replace(/[^\x20-\x7e]/g, '?');
      res.status(500).setHeader(HANDLER_CRASH_HEADER, reason);
      res.type('text/plain').send('handler crashed');
      return;
    }
    // A body-parser error: what the runtime answers before the function runs.
    res.status(details.status ?? 500).setHeader(RUNTIME_ERROR_HEADER, details.type ?? 'unknown');
    res.type('text/plain').send(details.message ?? 'runtime error');
  });
  // Node's own 16 KiB header limit would answer 431 before the function runs; the
  // hosting front end allows more, and credentials up to the handler's 8 KiB limit must fit.
  const server = http.createServer({ maxHeaderSize: 64 * 1024 }, app);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RawRequest {
  method: string;
  /** Sent exactly as given (node:http does not normalise `.`/`..` segments like fetch does). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

export function closeClient(): void {
  agent.destroy();
}

/** One real HTTP request; node:http rather than fetch so that paths and bodies go out unaltered. */
export function send(port: number, request: RawRequest, timeoutMs = 20_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(request.body.length);
    const req = http.request(
      { host: '127.0.0.1', port, method: request.method, path: request.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(request.body);
  });
}

/** Every collection the service writes; any other top-level collection is found by listing. */
const KNOWN_COLLECTIONS = [
  'kiosks',
  'kioskKeys',
  'users',
  'transactions',
  'idempotency',
  'rateLimits',
  'pushOutbox',
  'config',
];

/** Firestore values as stable text: key order, Timestamps, GeoPoints and references included. */
function canonical(value: unknown): string {
  if (value instanceof Timestamp) return `Timestamp(${value.seconds}.${value.nanoseconds})`;
  if (value instanceof GeoPoint) return `GeoPoint(${value.latitude},${value.longitude})`;
  if (value instanceof DocumentReference) return `Ref(${value.path})`;
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `Bytes(${Buffer.from(value).toString('base64')})`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (Object.is(value, -0)) return '-0';
  return JSON.stringify(value) ?? 'undefined';
}

/** A document as seen by a snapshot: its update time (a rewrite of identical data is still a write) and fields. */
export interface DocState {
  updateTime: string;
  fields: Record<string, string>;
}

/** document path -> state */
export type DbSnapshot = Map<string, DocState>;

export async function snapshotDb(): Promise<DbSnapshot> {
  const names = new Set(KNOWN_COLLECTIONS);
  for (const collection of await db().listCollections()) names.add(collection.id);
  const queries: Promise<QuerySnapshot>[] = [...names].map((name) => db().collection(name).get());
  queries.push(db().collectionGroup('notifications').get());
  const snapshot: DbSnapshot = new Map();
  for (const result of await Promise.all(queries)) {
    for (const doc of result.docs) {
      const fields: Record<string, string> = {};
      for (const [name, value] of Object.entries(doc.data())) fields[name] = canonical(value);
      snapshot.set(doc.ref.path, { updateTime: `${doc.updateTime.seconds}.${doc.updateTime.nanoseconds}`, fields });
    }
  }
  return snapshot;
}

export interface DocChange {
  path: string;
  kind: 'created' | 'deleted' | 'changed';
  before?: DocState;
  after?: DocState;
}

const sameState = (a: DocState, b: DocState): boolean =>
  a.updateTime === b.updateTime && canonical(a.fields) === canonical(b.fields);

export function diffSnapshots(before: DbSnapshot, after: DbSnapshot): DocChange[] {
  const changes: DocChange[] = [];
  for (const [docPath, state] of after) {
    const old = before.get(docPath);
    if (old === undefined) changes.push({ path: docPath, kind: 'created', after: state });
    else if (!sameState(old, state)) changes.push({ path: docPath, kind: 'changed', before: old, after: state });
  }
  for (const [docPath, state] of before) {
    if (!after.has(docPath)) changes.push({ path: docPath, kind: 'deleted', before: state });
  }
  return changes;
}

/** One line per change, for a failure message. */
export function describeChange(change: DocChange): string {
  if (change.kind !== 'changed') return `${change.kind} ${change.path}`;
  const names = new Set([...Object.keys(change.before!.fields), ...Object.keys(change.after!.fields)]);
  const fields = [...names].filter((name) => change.before!.fields[name] !== change.after!.fields[name]);
  const detail = fields.length > 0 ? `fields ${fields.join(', ')}` : 'rewritten with identical data';
  return `changed ${change.path} (${detail})`;
}

/**
 * Structured log entries of the handler, kept in memory rather than flooding the
 * test output; the last ones are shown with a failing request.
 */
export function captureLogs(): { recent(): string[]; clear(): void; restore(): void } {
  const common = require(path.join(path.dirname(require.resolve('firebase-functions/logger')), 'common.js')) as {
    UNPATCHED_CONSOLE: Record<string, (...args: unknown[]) => void>;
  };
  const original = { ...common.UNPATCHED_CONSOLE };
  let entries: string[] = [];
  for (const level of Object.keys(original)) {
    common.UNPATCHED_CONSOLE[level] = (...args: unknown[]) => {
      entries.push(args.map(String).join(' '));
      if (entries.length > 50) entries = entries.slice(-20);
    };
  }
  return {
    recent: () => entries.slice(-5),
    clear: () => {
      entries = [];
    },
    restore: () => Object.assign(common.UNPATCHED_CONSOLE, original),
  };
}
