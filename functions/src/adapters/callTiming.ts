import { AsyncLocalStorage } from 'node:async_hooks';
import { finished, type Readable } from 'node:stream';

/**
 * For `npm run bench` only: with BENCH_CALL_TIMING=on (set by the bench's host), each
 * API request records when its calls to Firestore, Auth and SMTP were in flight, and
 * answers the union of those intervals as `Server-Timing: backend;dur=<ms>`. The
 * bench adds it to the HTTP floor to get the request's floor, so the floor is the
 * endpoint's own work and cannot drift from it. Off (the default), nothing is wrapped.
 */
export const callTimingOn = process.env.BENCH_CALL_TIMING === 'on';

type Interval = [start: number, end: number];
const requestCalls = new AsyncLocalStorage<Interval[]>();

/** Records `call` as one backend call of the request in progress, if it is timed. */
export function timedCall<T>(call: () => Promise<T>): Promise<T> {
  const calls = requestCalls.getStore();
  if (!calls) return call();
  const start = performance.now();
  const promise = call();
  const end = () => void calls.push([start, performance.now()]);
  promise.then(end, end);
  return promise;
}

/** Like timedCall for a call answered by a stream: in flight until the stream ends. */
function timedStream(call: () => Promise<Readable>): Promise<Readable> {
  const calls = requestCalls.getStore();
  if (!calls) return call();
  const start = performance.now();
  const end = () => void calls.push([start, performance.now()]);
  return call().then(
    (stream) => {
      finished(stream, end);
      return stream;
    },
    (error: unknown) => {
      end();
      throw error;
    },
  );
}

/**
 * Times every RPC of this Firestore instance. Each one goes through the client's
 * `request` or `requestStream` (@google-cloud/firestore's own funnels, not public
 * API, which is why this is only ever switched on by the bench).
 */
export function timeFirestoreCalls(firestore: object): void {
  const client = firestore as {
    request: (...args: unknown[]) => Promise<unknown>;
    requestStream: (...args: unknown[]) => Promise<Readable>;
  };
  const request = client.request.bind(client);
  const requestStream = client.requestStream.bind(client);
  client.request = (...args) => timedCall(() => request(...args));
  client.requestStream = (...args) => timedStream(() => requestStream(...args));
}

const unionMs = (intervals: Interval[]): number => {
  let total = 0;
  let coveredUntil = -Infinity;
  for (const [start, end] of [...intervals].sort((a, b) => a[0] - b[0])) {
    total += Math.max(0, end - Math.max(start, coveredUntil));
    coveredUntil = Math.max(coveredUntil, end);
  }
  return total;
};

/** Runs one API request; when timing is on, sets its Server-Timing header before it answers. */
export async function withCallTiming<T>(
  res: { setHeader(name: string, value: string): unknown },
  handle: () => Promise<T>,
): Promise<T> {
  if (!callTimingOn) return handle();
  const calls: Interval[] = [];
  try {
    return await requestCalls.run(calls, handle);
  } finally {
    res.setHeader('Server-Timing', `backend;dur=${unionMs(calls).toFixed(2)}`);
  }
}
