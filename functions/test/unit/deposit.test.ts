import { MAX_CLOCK_AHEAD_MS, assertDeposit, assertInOfflineWindow, oldestAcceptedDay } from '../../src/domain/deposit';
import { apiErrorOf } from './api-error';

const NOW = new Date('2026-11-23T12:00:00Z');
const DAY_MS = 24 * 60 * 60_000;
const deposit = { kioskId: 'kiosk-1', userId: 'user-1', plasticCount: 1, metalCount: 0 };
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString();
/** The deposit with `occurredAt` at `offsetMs` from NOW, checked whole as a new deposit is. */
const newDepositAt = (offsetMs: number, offlineMaxDays = 7) => {
  const checked = assertDeposit({ ...deposit, occurredAt: at(offsetMs) }, NOW);
  assertInOfflineWindow(checked, NOW, offlineMaxDays);
  return checked;
};

describe('assertDeposit', () => {
  test('without occurredAt the deposit happened when it was accepted', () => {
    expect(assertDeposit(deposit, NOW)).toEqual({ ...deposit, happenedAt: NOW });
  });

  test('occurredAt is read with its offset', () => {
    const checked = assertDeposit({ ...deposit, occurredAt: '2026-11-23T09:00:00+01:00' }, NOW);
    expect(checked.happenedAt.toISOString()).toBe('2026-11-23T08:00:00.000Z');
  });

  test.each([
    ['5 minutes ahead', MAX_CLOCK_AHEAD_MS],
    ['7 days back', -7 * DAY_MS],
    ['now', 0],
  ])('%s is accepted', (_, offset) => {
    expect(newDepositAt(offset).happenedAt.getTime()).toBe(NOW.getTime() + offset);
  });

  test.each([
    [
      'a millisecond past 5 minutes ahead',
      MAX_CLOCK_AHEAD_MS + 1,
      'occurredAt must not be more than 5 minutes in the future',
    ],
    ['a millisecond past 7 days back', -7 * DAY_MS - 1, 'occurredAt must not be more than 7 days in the past'],
  ])('%s: 400 naming occurredAt', (_, offset, message) => {
    expect(apiErrorOf(() => newDepositAt(offset))).toMatchObject({
      status: 400,
      code: 'invalid-argument',
      message,
    });
  });

  test('the window follows OFFLINE_MAX_DAYS', () => {
    expect(apiErrorOf(() => newDepositAt(-10 * DAY_MS, 7)).message).toMatch(/^occurredAt /);
    expect(newDepositAt(-10 * DAY_MS, 14).happenedAt.toISOString()).toBe('2026-11-13T12:00:00.000Z');
  });

  test('a deposit out of the window still passes assertDeposit: only a new one is refused for it', () => {
    expect(assertDeposit({ ...deposit, occurredAt: at(-30 * DAY_MS) }, NOW).happenedAt.getTime()).toBe(
      NOW.getTime() - 30 * DAY_MS,
    );
  });

  test('a leap second passes the syntax but is no instant: 400 naming occurredAt', () => {
    expect(apiErrorOf(() => assertDeposit({ ...deposit, occurredAt: '2016-12-31T23:59:60Z' }, NOW)).message).toBe(
      'occurredAt must be a valid RFC 3339 date-time',
    );
  });

  test('ids and the item count are checked as before', () => {
    expect(apiErrorOf(() => assertDeposit({ ...deposit, plasticCount: 0 }, NOW)).message).toMatch(/at least one item/);
    expect(apiErrorOf(() => assertDeposit({ ...deposit, kioskId: '..' }, NOW)).message).toMatch(/^kioskId/);
  });
});

test('oldestAcceptedDay: the UTC day OFFLINE_MAX_DAYS back', () => {
  expect(oldestAcceptedDay(NOW, 7)).toBe('2026-11-16');
  expect(oldestAcceptedDay(new Date('2026-11-23T00:30:00Z'), 1)).toBe('2026-11-22');
});
