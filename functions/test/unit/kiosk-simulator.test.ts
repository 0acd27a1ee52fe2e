/**
 * The kiosk simulator's upload logic against a stand-in for the service (its
 * answers, not its rules): blind retries, Retry-After, batches of at most 100, final
 * and retryable answers, nothing lost. Against the real service: the integration
 * test kiosk-simulator.test.ts.
 */
import { emptyJournal, type JournalState } from '../../../kiosk-simulator/journal';
import { OVERLOADED_ITEM_PAUSE_MS, SimulatedKiosk, type KioskEvent } from '../../../kiosk-simulator/simulator';
import { faultyTransport, type NetworkFault, type RetryPolicy, type Transport } from '../../../kiosk-simulator/client';

const API = 'http://service.invalid/api';

type Fault = NetworkFault | { status: number; retryAfter?: string };

/**
 * Records each key once (an award), answers a known key as a replay, refuses users
 * named `nobody` (404) and answers those named `busy` 409; the n-th request meets
 * `faults[n]`: a network fault (faultyTransport), or that status as the whole answer.
 * Batch items of users named `crowd` are answered 503 `overloaded` (nothing recorded)
 * their first `overload.times` times, the batch with `overload.retryAfter` if given.
 * `requests` lists what reached it.
 */
function standIn(faults: Fault[] = [], overload: { times: number; retryAfter?: string } = { times: 0 }) {
  const awarded = new Map<string, number>();
  const requests: { path: string; items: number; keys: string[] }[] = [];
  const overloadedTimes = new Map<string, number>();
  let current = 0;
  const answerItem = (item: { idempotencyKey: string; userId: string; plasticCount: number }) => {
    const times = overloadedTimes.get(item.idempotencyKey) ?? 0;
    if (item.userId === 'crowd' && times < overload.times) {
      overloadedTimes.set(item.idempotencyKey, times + 1);
      return {
        idempotencyKey: item.idempotencyKey,
        status: 503,
        error: 'The service is overloaded',
        code: 'overloaded',
      };
    }
    const refused = (
      { nobody: { status: 404, code: 'not-found' }, busy: { status: 409, code: 'kiosk-unavailable' } } as const
    )[item.userId as 'nobody' | 'busy'];
    if (refused) return { idempotencyKey: item.idempotencyKey, error: 'refused', ...refused };
    const replayed = awarded.has(item.idempotencyKey);
    if (!replayed) awarded.set(item.idempotencyKey, item.plasticCount * 10);
    return {
      idempotencyKey: item.idempotencyKey,
      status: 200,
      transaction: { id: `tx-${item.idempotencyKey}`, pointsEarned: awarded.get(item.idempotencyKey) },
      replayed,
    };
  };
  const service: Transport = async (url, init) => {
    const path = url.slice(API.length);
    const body = JSON.parse(String(init.body));
    const keys: string[] = body.transactions?.map((item: { idempotencyKey: string }) => item.idempotencyKey) ?? [
      new Headers(init.headers).get('idempotency-key'),
    ];
    requests.push({ path, items: keys.length, keys });
    const fault = faults[current];
    if (typeof fault === 'object') {
      return new Response(JSON.stringify({ error: 'injected', code: 'injected' }), {
        status: fault.status,
        headers: fault.retryAfter ? { 'retry-after': fault.retryAfter } : {},
      });
    }
    if (path === '/kiosk/transactions/batch') {
      const results = body.transactions.map(answerItem);
      const retryAfter = results.some((result: { status: number }) => result.status === 503) && overload.retryAfter;
      return Response.json({ success: true, results }, { headers: retryAfter ? { 'retry-after': retryAfter } : {} });
    }
    const idempotencyKey = new Headers(init.headers).get('idempotency-key')!;
    const { status, replayed, idempotencyKey: _key, ...rest } = answerItem({ ...body, idempotencyKey });
    return new Response(JSON.stringify({ success: status === 200, ...rest }), {
      status,
      headers: replayed ? { 'idempotent-replayed': 'true' } : {},
    });
  };
  const transport = faultyTransport((_url, n) => {
    current = n;
    const fault = faults[n];
    return typeof fault === 'string' ? fault : undefined;
  }, service);
  return { transport, awarded, requests };
}

const QUICK: RetryPolicy = { attempts: 5, pauseMs: () => 1, isAnswer: (status) => status < 500 && status !== 429 };

function kioskWith(journal: JournalState, transport: Transport, events: KioskEvent[] = [], pauses: number[] = []) {
  let saves = 0;
  const kiosk = new SimulatedKiosk({
    api: API,
    apiKey: 'key',
    journal: { state: journal, save: () => void saves++ },
    policy: QUICK,
    transport,
    sleep: async (ms) => void pauses.push(ms),
    onEvent: (event) => events.push(event),
  });
  return { kiosk, saves: () => saves };
}

const deposits = async (kiosk: SimulatedKiosk, n: number, userId = 'alice') => {
  for (let i = 0; i < n; i++) await kiosk.deposit({ userId, plasticCount: 1 + (i % 3), metalCount: 0 });
};

test('offline, deposits are only recorded (and saved before anything else); a flush uploads them in batches of at most 100', async () => {
  const service = standIn();
  const journal = emptyJournal('k1');
  const { kiosk, saves } = kioskWith(journal, service.transport);
  kiosk.setConnected(false);
  await deposits(kiosk, 250);
  expect(service.requests).toEqual([]);
  expect(saves()).toBe(250);
  expect(journal.pending).toHaveLength(250);

  kiosk.setConnected(true);
  const summary = await kiosk.flush();
  expect(service.requests.map((r) => r.items)).toEqual([100, 100, 50]);
  expect(summary).toMatchObject({ uploads: 3, accepted: 250, replayed: 0, rejected: 0, kept: 0 });
  expect(journal.pending).toEqual([]);
  expect(service.awarded.size).toBe(250);
});

test('a lost answer, a dropped request, 5xx and 429: the same batch is sent again blindly, Retry-After honoured, nothing doubled', async () => {
  const service = standIn(['lose-answer', 'drop', { status: 502 }, { status: 429, retryAfter: '3' }]);
  const journal = emptyJournal('k1');
  const pauses: number[] = [];
  const events: KioskEvent[] = [];
  const { kiosk } = kioskWith(journal, service.transport, events, pauses);
  kiosk.setConnected(false);
  await deposits(kiosk, 40);
  kiosk.setConnected(true);

  const summary = await kiosk.flush();
  // Four sends reached the service (the dropped one did not), the first of them applied.
  expect(service.requests.map((r) => r.items)).toEqual([40, 40, 40, 40]);
  expect(pauses).toEqual([1, 1, 1, 3000]);
  // The first send landed: the re-send is answered as replays.
  expect(summary).toMatchObject({ uploads: 1, accepted: 0, replayed: 40, kept: 0 });
  expect(journal.pending).toEqual([]);
  expect(service.awarded.size).toBe(40);
  expect(events.filter((e) => e.kind === 'retry').map((e) => (e as { reason: string }).reason)).toEqual([
    'no answer (fetch failed (answer lost by the injected fault))',
    'no answer (fetch failed (request dropped by the injected fault))',
    'answered 502',
    'answered 429',
  ]);
});

test('no answer after every attempt: the flush stops and the whole backlog stays for the next one', async () => {
  const service = standIn(Array.from({ length: 5 }, () => 'drop' as const));
  const journal = emptyJournal('k1');
  const { kiosk } = kioskWith(journal, service.transport);
  kiosk.setConnected(false);
  await deposits(kiosk, 120);
  kiosk.setConnected(true);
  const first = await kiosk.flush();
  expect(first).toMatchObject({ uploads: 1, kept: 120, stopped: expect.stringContaining('fetch failed') });
  expect(journal.pending).toHaveLength(120);
  const second = await kiosk.flush();
  expect(second).toMatchObject({ uploads: 2, accepted: 120, kept: 0 });
  expect(journal.pending).toEqual([]);
});

test('final refusals go to rejected, retryable ones stay; each pending deposit is sent once per flush', async () => {
  const service = standIn();
  const journal = emptyJournal('k1');
  const { kiosk } = kioskWith(journal, service.transport);
  kiosk.setConnected(false);
  await deposits(kiosk, 2);
  await deposits(kiosk, 1, 'nobody');
  await deposits(kiosk, 1, 'busy');
  kiosk.setConnected(true);
  const summary = await kiosk.flush(2);
  expect(service.requests.map((r) => r.items)).toEqual([2, 2]);
  expect(summary).toMatchObject({ uploads: 2, accepted: 2, rejected: 1, kept: 1 });
  expect(journal.pending.map((d) => d.userId)).toEqual(['busy']);
  expect(journal.rejected).toMatchObject([{ status: 404, code: 'not-found', deposit: { userId: 'nobody' } }]);
});

test('a batch the service finds too large (413) is split in halves; a batch refused whole keeps everything', async () => {
  const service = standIn([{ status: 413 }, { status: 413 }]);
  const journal = emptyJournal('k1');
  const { kiosk } = kioskWith(journal, service.transport);
  kiosk.setConnected(false);
  await deposits(kiosk, 100);
  kiosk.setConnected(true);
  expect(await kiosk.flush()).toMatchObject({ accepted: 100, kept: 0 });
  expect(service.requests.map((r) => r.items)).toEqual([100, 50, 25, 25, 25, 25]);

  const revoked = standIn([{ status: 401 }]);
  const other = emptyJournal('k2');
  const second = kioskWith(other, revoked.transport).kiosk;
  second.setConnected(false);
  await deposits(second, 3);
  second.setConnected(true);
  expect(await second.flush()).toMatchObject({ uploads: 1, kept: 3, stopped: '401 injected: injected' });
  expect(other.pending).toHaveLength(3);
});

test('connected, a deposit is sent alone; one whose answer was lost stays and the next flush gets its replay', async () => {
  const service = standIn(['lose-answer', 'lose-answer', 'lose-answer', 'lose-answer', 'lose-answer']);
  const journal = emptyJournal('k1');
  const { kiosk } = kioskWith(journal, service.transport);
  const { verdict } = await kiosk.deposit({ userId: 'alice', plasticCount: 2, metalCount: 0 });
  expect(verdict).toBe('kept');
  expect(journal.pending).toHaveLength(1);
  expect(await kiosk.flush()).toMatchObject({ replayed: 1, kept: 0 });
  expect(journal.pending).toEqual([]);
  expect(service.awarded.size).toBe(1);
  // Sent alone again (as the load test does with single re-sends): the header says it is a replay.
  const { verdict: again } = await kiosk.deposit({ userId: 'alice', plasticCount: 1, metalCount: 0 });
  expect(again).toBe('accepted');
});

test('batch items answered 503 overloaded: sent again under the same keys after the batch’s Retry-After, counted as overloaded', async () => {
  const service = standIn([], { times: 2, retryAfter: '7' });
  const journal = emptyJournal('k1');
  const pauses: number[] = [];
  const { kiosk } = kioskWith(journal, service.transport, [], pauses);
  kiosk.setConnected(false);
  await deposits(kiosk, 3);
  await deposits(kiosk, 2, 'crowd');
  const allKeys = journal.pending.map((d) => d.idempotencyKey);
  const crowdKeys = journal.pending.filter((d) => d.userId === 'crowd').map((d) => d.idempotencyKey);
  kiosk.setConnected(true);

  const summary = await kiosk.flush();
  expect(service.requests.map((r) => r.keys)).toEqual([allKeys, crowdKeys, crowdKeys]);
  expect(pauses).toEqual([7000, 7000]);
  expect(summary).toMatchObject({ uploads: 3, accepted: 5, overloaded: 4, kept: 0, rejected: 0 });
  expect(journal.pending).toEqual([]);
  expect(service.awarded.size).toBe(5);
});

test('overloaded items without a Retry-After wait the service’s own; still overloaded after every attempt, they stay for the next flush', async () => {
  const service = standIn([], { times: 5 });
  const journal = emptyJournal('k1');
  const pauses: number[] = [];
  const { kiosk } = kioskWith(journal, service.transport, [], pauses);
  kiosk.setConnected(false);
  await deposits(kiosk, 1, 'crowd');
  kiosk.setConnected(true);

  const first = await kiosk.flush();
  // QUICK allows 5 attempts: 5 sends, 4 pauses between them.
  expect(service.requests).toHaveLength(5);
  expect(pauses).toEqual(Array.from({ length: 4 }, () => OVERLOADED_ITEM_PAUSE_MS));
  expect(first).toMatchObject({ overloaded: 5, accepted: 0 });
  expect(journal.pending).toHaveLength(1);
  expect(await kiosk.flush()).toMatchObject({ accepted: 1, overloaded: 0 });
  expect(journal.pending).toEqual([]);
});

test('a deposit sent alone and answered 503 overloaded is sent again with its key after Retry-After', async () => {
  const service = standIn([{ status: 503, retryAfter: '4' }]);
  const journal = emptyJournal('k1');
  const pauses: number[] = [];
  const { kiosk } = kioskWith(journal, service.transport, [], pauses);
  const { deposit, verdict } = await kiosk.deposit({ userId: 'alice', plasticCount: 2, metalCount: 0 });
  expect(verdict).toBe('accepted');
  expect(pauses).toEqual([4000]);
  expect(service.requests.map((r) => r.keys)).toEqual([[deposit.idempotencyKey], [deposit.idempotencyKey]]);
});
