import { Timestamp } from 'firebase-admin/firestore';
import { stagedEntryTime } from '../../src/data/ledger';

describe('stagedEntryTime', () => {
  test('is the clock when the last change is earlier', () => {
    const before = Date.now();
    const time = stagedEntryTime(Timestamp.fromMillis(before - 60_000)).toMillis();
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
  });

  test('follows a last change the clock has not reached, or reached within the same millisecond', () => {
    const ahead = Timestamp.fromMillis(Date.now() + 60_000);
    expect(stagedEntryTime(ahead).toMillis()).toBe(ahead.toMillis() + 1);
    const sameMillisecond = new Timestamp(Math.floor(Date.now() / 1000) + 60, 999_999);
    expect(stagedEntryTime(sameMillisecond).valueOf() > sameMillisecond.valueOf()).toBe(true);
  });

  test('is the clock for a user with no change yet', () => {
    const before = Date.now();
    expect(stagedEntryTime(undefined).toMillis()).toBeGreaterThanOrEqual(before);
  });
});
