import { judgeWindow, type Hit } from '../../src/domain/rateLimit';

const MINUTE = 60_000;
const NOW = 1_800_000_000_000;
const hit = (id: string, secondsAgo: number): Hit => ({ id, at: NOW - secondsAgo * 1000 });

describe('judgeWindow', () => {
  test('no hits: allowed', () => {
    expect(judgeWindow([], 3, MINUTE, NOW)).toEqual({ allowed: true, live: [], retryAfterSeconds: 0 });
  });

  test('under the limit: allowed, retryAfterSeconds 0', () => {
    const verdict = judgeWindow([hit('a', 10), hit('b', 5)], 3, MINUTE, NOW);
    expect(verdict.allowed).toBe(true);
    expect(verdict.retryAfterSeconds).toBe(0);
    expect(verdict.live.map((h) => h.id)).toEqual(['a', 'b']);
  });

  test('at the limit: refused until the oldest hit leaves the window', () => {
    // Oldest hit 50 s ago in a 60 s window: it leaves in 10 s.
    const verdict = judgeWindow([hit('a', 50), hit('b', 20), hit('c', 5)], 3, MINUTE, NOW);
    expect(verdict.allowed).toBe(false);
    expect(verdict.retryAfterSeconds).toBe(10);
    expect(verdict.live).toHaveLength(3);
  });

  test('over the limit: waits for the hit that brings the count below the limit', () => {
    // 5 live hits, limit 3: three must expire, so the wait is until the 3rd oldest (30 s ago) leaves.
    const hits = [hit('a', 55), hit('b', 40), hit('c', 30), hit('d', 20), hit('e', 1)];
    const verdict = judgeWindow(hits, 3, MINUTE, NOW);
    expect(verdict.allowed).toBe(false);
    expect(verdict.retryAfterSeconds).toBe(30);
  });

  test('retryAfterSeconds rounds up', () => {
    const verdict = judgeWindow([{ id: 'a', at: NOW - 50_001 }], 1, MINUTE, NOW);
    expect(verdict.allowed).toBe(false);
    expect(verdict.retryAfterSeconds).toBe(10); // 9.999 s
    const justUnder = judgeWindow([{ id: 'a', at: NOW - 49_999 }], 1, MINUTE, NOW);
    expect(justUnder.retryAfterSeconds).toBe(11); // 10.001 s
  });

  test('retryAfterSeconds is at least 1', () => {
    // Leaves the window in 1 ms.
    const verdict = judgeWindow([{ id: 'a', at: NOW - MINUTE + 1 }], 1, MINUTE, NOW);
    expect(verdict.allowed).toBe(false);
    expect(verdict.retryAfterSeconds).toBe(1);
  });

  test('hits outside the window are dropped from live and do not count', () => {
    const hits = [hit('old1', 120), hit('old2', 60), hit('recent', 10)];
    const verdict = judgeWindow(hits, 2, MINUTE, NOW);
    expect(verdict.allowed).toBe(true);
    // A hit exactly windowMs old is already outside.
    expect(verdict.live).toEqual([hit('recent', 10)]);
  });

  test('live is sorted oldest first, whatever the input order', () => {
    const hits = [hit('c', 5), hit('a', 50), hit('b', 20)];
    const verdict = judgeWindow(hits, 3, MINUTE, NOW);
    expect(verdict.live.map((h) => h.id)).toEqual(['a', 'b', 'c']);
    expect(verdict.retryAfterSeconds).toBe(10);
  });

  test('does not mutate the input', () => {
    const hits = [hit('c', 5), hit('a', 500)];
    const copy = hits.map((h) => ({ ...h }));
    judgeWindow(hits, 1, MINUTE, NOW);
    expect(hits).toEqual(copy);
  });
});
