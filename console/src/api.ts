/**
 * The one way to the API: same origin under /api (Hosting rewrites it to the `api`
 * function), with the staff member's ID token. Failures throw ApiError carrying the
 * API's own sentence, which the pages show verbatim.
 */
import { expireSession, idToken } from './auth';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
  }
}

export type Query = Record<string, string | number | undefined | null>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
}

export const apiPath = (path: string, query: Query = {}): string => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value != null && value !== '') search.set(name, String(value));
  const text = search.toString();
  return `/api${path}${text ? `?${text}` : ''}`;
};

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Authorization: `Bearer ${await idToken()}`, ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let answer: Response;
  try {
    answer = await fetch(apiPath(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError('The API cannot be reached. Check the connection and try again.', 0, 'network');
  }
  if (answer.ok) return answer;
  const error = (await answer.json().catch(() => ({}))) as { error?: unknown; code?: unknown };
  if (answer.status === 401) await expireSession();
  throw new ApiError(
    typeof error.error === 'string' ? error.error : `The API answered ${answer.status} ${answer.statusText}`.trim(),
    answer.status,
    typeof error.code === 'string' ? error.code : 'unknown',
  );
}

/** A JSON request; the answer's body, typed by the caller after the API description. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await (await send(path, options)).json()) as T;
}

/** A text answer (the report's CSV). */
export async function apiText(path: string, query: Query): Promise<string> {
  return (await send(path, { query })).text();
}

/** A number field as the API takes it: a number when it reads as one, else the text (the API names the field). */
export const numberOrText = (text: string): number | string =>
  text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;

/** What a failed action shows: the API's sentence, or the error's own. */
export const failureText = (error: unknown): string =>
  error instanceof Error ? error.message : 'Something went wrong. Try again.';
