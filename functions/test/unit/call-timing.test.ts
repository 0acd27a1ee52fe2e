/**
 * The bench's call timing (src/adapters/callTiming.ts): with BENCH_CALL_TIMING=on, a
 * request answers the union of its backend calls' intervals in Server-Timing; off,
 * it answers none and nothing is wrapped. Fake timers make the intervals exact.
 */
import { PassThrough } from 'node:stream';

/** `load()` in a fresh module registry, with BENCH_CALL_TIMING set to `setting` while the modules load. */
function loadWith<T>(setting: string | undefined, load: () => T): T {
  const before = process.env.BENCH_CALL_TIMING;
  process.env.BENCH_CALL_TIMING = setting ?? '';
  let loaded: T | undefined;
  jest.isolateModules(() => {
    loaded = load();
  });
  process.env.BENCH_CALL_TIMING = before ?? '';
  return loaded as T;
}

const callTiming = (setting: string | undefined) =>
  loadWith(setting, () => require('../../src/adapters/callTiming') as typeof import('../../src/adapters/callTiming'));

const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A response that keeps its headers. */
const response = () => {
  const headers = new Map<string, string>();
  return { headers, setHeader: (name: string, value: string) => headers.set(name, value) };
};

describe('call timing', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('answers the union of the calls in flight, overlapping ones counted once', async () => {
    const { timedCall, withCallTiming } = callTiming('on');
    const res = response();
    const handled = withCallTiming(res, async () => {
      await Promise.all([timedCall(() => after(30)), timedCall(() => after(20))]);
      await after(5); // the request's own work, between its calls
      await timedCall(() => after(20));
      return 'answer';
    });
    await jest.advanceTimersByTimeAsync(100);
    await expect(handled).resolves.toBe('answer');
    expect(res.headers.get('Server-Timing')).toBe('backend;dur=50.00');
  });

  it("times a Firestore client's requests and its streams until they end", async () => {
    const { timeFirestoreCalls, withCallTiming } = callTiming('on');
    const stream = new PassThrough({ objectMode: true });
    const client = {
      request: () => after(10).then(() => 'result'),
      requestStream: () => after(5).then(() => stream),
    };
    timeFirestoreCalls(client);
    const res = response();
    const handled = withCallTiming(res, async () => {
      expect(await client.request()).toBe('result');
      const answer = await client.requestStream();
      answer.resume();
      await after(15);
      answer.end();
      await new Promise((resolve) => answer.once('end', resolve));
    });
    await jest.advanceTimersByTimeAsync(100);
    await handled;
    expect(res.headers.get('Server-Timing')).toBe('backend;dur=30.00');
  });

  it('sets no header and wraps nothing when off', async () => {
    const { withCallTiming } = callTiming(undefined);
    const res = response();
    await withCallTiming(res, async () => undefined);
    expect(res.headers.size).toBe(0);
  });

  it("wraps the service's Firestore client only when on", () => {
    const firestoreWith = (setting: string | undefined) =>
      loadWith(setting, () =>
        (require('../../src/adapters/firestore') as typeof import('../../src/adapters/firestore')).db(),
      );
    expect(Object.hasOwn(firestoreWith(undefined), 'request')).toBe(false);
    expect(Object.hasOwn(firestoreWith('on'), 'request')).toBe(true);
  });
});
