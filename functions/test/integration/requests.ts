/** Requests to the API as its clients send them, each answer checked against the API description. */
import { idTokenFor } from '../harness/auth';
import { apiUrl, emulatorsFromEnv } from '../harness/emulators';
import { assertDescribed } from './response-check';
import { uniqueId } from './seeds';

// The emulators were found by global-setup.ts before any test file runs.
const emulators = emulatorsFromEnv();

/** Without the functions emulator (a test file run by hand on Firestore and Auth only), requests to the api fail to resolve this host. */
export const API_URL = emulators.functions ? apiUrl(emulators) : 'http://no-functions-emulator.invalid';

export { idTokenFor };

export interface ApiCall {
  body?: unknown;
  /** Sent as is, instead of JSON.stringify(body). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export interface ApiResult {
  status: number;
  headers: Headers;
  /** Parsed JSON; loosely typed because each test asserts the shape it expects. */
  body: any;
  text: string;
}

export async function call(method: string, path: string, options: ApiCall = {}): Promise<ApiResult> {
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | Buffer | undefined = options.rawBody;
  if (payload === undefined && options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${API_URL}${path}`, { method, headers, body: payload });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const result = { status: response.status, headers: response.headers, body, text };
  assertDescribed(method, path, result, { body: options.rawBody === undefined ? options.body : undefined, headers });
  return result;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The Authorization header of `uid`, signed in (with `claims`, if any). */
export const bearerFor = async (uid: string, claims?: Record<string, unknown>) => bearer(await idTokenFor(uid, claims));

export async function adminHeaders(): Promise<Record<string, string>> {
  return bearerFor(uniqueId('admin'), { admin: true });
}

/** The Authorization header of a fresh signed-in account without the admin claim (nor a profile). */
export async function nonAdminHeaders(): Promise<Record<string, string>> {
  return bearerFor(uniqueId('user'));
}
